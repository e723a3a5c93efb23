# A corpus program scored in one run and in 3 shards merged gives the same
# reports apart from timings; shards are disjoint and balanced; merge and
# --shard refuse bad input with exit 2 and say why.
. "$(dirname "$0")/lib.sh"
P=$CORPUS/knapsack
cd "$P" || fail "no corpus program $P"
args=(. --tests . --no-progress)

"$LITMUS" score "${args[@]}" -j 2 --db "$WORK/one.db" >/dev/null 2>"$WORK/err" ||
  fail "single run: $(cat "$WORK/err")"
for i in 0 1 2; do
  "$LITMUS" score "${args[@]}" -j 1 --shard $i/3 --db "$WORK/s$i.db" >"$WORK/s$i.out" 2>"$WORK/err" ||
    fail "shard $i/3: $(cat "$WORK/err")"
  expect_eq "$(q "$WORK/s$i.db" "SELECT value FROM meta WHERE key = 'shard'")" "$i/3" "shard in meta"
  expect_eq "$(q "$WORK/s$i.db" "SELECT value FROM meta WHERE key = 'complete'")" "1" "shard $i complete"
done

# Disjoint, covering, balanced: every mutant has exactly one result among
# the shards, and the shards' counts differ by at most one.
total=$(q "$WORK/one.db" "SELECT count(*) FROM mutants")
[ "$total" -gt 30 ] || fail "too few mutants: $total"
n0=$(q "$WORK/s0.db" "SELECT count(*) FROM results")
n1=$(q "$WORK/s1.db" "SELECT count(*) FROM results")
n2=$(q "$WORK/s2.db" "SELECT count(*) FROM results")
expect_eq "$((n0 + n1 + n2))" "$total" "results over the shards"
all=$(for i in 0 1 2; do q "$WORK/s$i.db" "SELECT mutant_id FROM results"; done | sort | uniq -d)
[ -z "$all" ] || fail "mutants with a result in two shards: $all"
max=$n0 min=$n0
for n in $n1 $n2; do [ "$n" -gt "$max" ] && max=$n; [ "$n" -lt "$min" ] && min=$n; done
[ $((max - min)) -le 1 ] || fail "unbalanced shards: $n0 $n1 $n2"

run_litmus merge "$WORK/merged.db" "$WORK/s0.db" "$WORK/s1.db" "$WORK/s2.db"
expect_eq "$RC" 0 "merge exit ($(cat "$WORK/err"))"
grep -q "merged 3 shards of $total mutants" "$WORK/out" || fail "merge said: $(cat "$WORK/out")"

# Reports of the merged store against the single run's.  Timings differ
# (durations, JUnit times, Stryker's performance section, and its
# testsCompleted: tests run fastest first by their measured baseline time,
# so how many ran before the killer may differ); so do the addresses of
# objects in assertion messages (`<generator ... at 0x7f...>`), between any
# two runs.
norm() { # format db
  "$LITMUS" report --db "$2" --format "$1" 2>&1 | sed -e 's/0x[0-9a-f]\{6,\}/0xADDR/g' \
    -e 's/ time="[0-9.]*"/ time=""/g' -e '/^throughput:$/,$d'
}
for f in json text stryker junit sarif github; do
  norm "$f" "$WORK/one.db" >"$WORK/one.$f"
  norm "$f" "$WORK/merged.db" >"$WORK/merged.$f"
done
/usr/bin/python3 - "$WORK" <<'PY' || fail "JSON reports differ"
import json, sys
w = sys.argv[1]
def load(name, keys):
    d = json.load(open(f"{w}/{name}"))
    def strip(o):
        if isinstance(o, dict):
            return {k: strip(v) for k, v in o.items() if k not in keys}
        if isinstance(o, list):
            return [strip(v) for v in o]
        return o
    return strip(d)
for fmt, keys in (("json", {"duration_ms"}),
                  ("stryker", {"duration", "testsCompleted", "performance"})):
    a, b = load(f"one.{fmt}", keys), load(f"merged.{fmt}", keys)
    if a != b:
        for x, y in zip(a.get("mutants", []), b.get("mutants", [])):
            if x != y:
                print(fmt, "first difference:", x, y, file=sys.stderr)
                break
        print(fmt, "reports differ", file=sys.stderr)
        sys.exit(1)
    if fmt == "json" and len(a["mutants"]) < 30:
        sys.exit(f"only {len(a['mutants'])} mutants in the JSON report")
PY
for f in text junit sarif github; do
  diff "$WORK/one.$f" "$WORK/merged.$f" >"$WORK/diff" || fail "$f reports differ: $(head -20 "$WORK/diff")"
done
grep -q "mutation score" "$WORK/merged.text" || fail "no score in the text report"

# The throughput table: one line per shard and the totals.
"$LITMUS" report --db "$WORK/merged.db" >"$WORK/tp"
for i in 0 1 2; do grep -q "^  shard $i/3 .*tasks/s" "$WORK/tp" || fail "no line for shard $i: $(cat "$WORK/tp")"; done
grep -q "^  total .* $total tasks" "$WORK/tp" || fail "no total line: $(cat "$WORK/tp")"

# Bad input: exit 2 and a one-line reason.
bad() { # expected-message litmus-args...
  local want=$1; shift
  run_litmus "$@"
  expect_eq "$RC" 2 "exit of litmus $*"
  grep -q -- "$want" "$WORK/err" || fail "litmus $*: expected '$want', got: $(cat "$WORK/err")"
}
bad "I counts from 0 and must be below N" score "${args[@]}" --shard 4/3 --db "$WORK/x.db"
bad "N must be" score "${args[@]}" --shard 0/0 --db "$WORK/x.db"
bad "expected I/N" score "${args[@]}" --shard 1-3 --db "$WORK/x.db"
bad "holds shard 0/3 of this run, not shard 1/3" score "${args[@]}" --shard 1/3 --db "$WORK/s0.db"
bad "holds shard 0/3 of this run, not the whole run" score "${args[@]}" --db "$WORK/s0.db"
bad "holds the whole run, not shard 0/3" score "${args[@]}" --shard 0/3 --db "$WORK/one.db"
bad "missing shard: 2/3" merge "$WORK/m.db" "$WORK/s0.db" "$WORK/s1.db"
bad "overlapping shards: .*s1.db is given twice" merge "$WORK/m.db" "$WORK/s0.db" "$WORK/s1.db" "$WORK/s1.db"
cp "$WORK/s1.db" "$WORK/s1copy.db"
bad "overlapping shards: .*s1.db and .*s1copy.db are both shard 1/3" merge "$WORK/m.db" "$WORK/s0.db" "$WORK/s1.db" "$WORK/s1copy.db" "$WORK/s2.db"
bad "not a shard store" merge "$WORK/m.db" "$WORK/one.db"
bad "exists; remove it or pass --force" merge "$WORK/merged.db" "$WORK/s0.db" "$WORK/s1.db" "$WORK/s2.db"
# A shard of a 2-way split does not belong with those of a 3-way one.
# (Its store: shard 1/3's with the count the meta table holds changed,
# which is all merge reads of it; a run writes "I/N" there, as the shards
# above showed.  A real --shard 1/2 run cost 1.8 s of CPU under ASan.)
cp "$WORK/s1.db" "$WORK/h1.db"
q "$WORK/h1.db" "UPDATE meta SET value = '1/2' WHERE key = 'shard'"
expect_eq "$(q "$WORK/h1.db" "SELECT value FROM meta WHERE key = 'shard'")" "1/2" "shard 1/2 in meta"
bad "different shard counts" merge "$WORK/m.db" "$WORK/s0.db" "$WORK/h1.db" "$WORK/s2.db"
# Another plan: other operators.
"$LITMUS" score "${args[@]}" -j 1 --operators algo1 --shard 2/3 --db "$WORK/o2.db" >/dev/null 2>&1 || fail "algo1 shard"
bad "come from different runs: settings differ ('operators=mutmut' vs 'operators=algo1')" merge "$WORK/m.db" "$WORK/s0.db" "$WORK/s1.db" "$WORK/o2.db"
# An unfinished shard (as after kill -9) is named.
cp "$WORK/s2.db" "$WORK/u2.db"
q "$WORK/u2.db" "UPDATE meta SET value = '0' WHERE key = 'complete'; DELETE FROM results WHERE rowid IN (SELECT rowid FROM results LIMIT 3)"
bad "shard 2/3 (.*u2.db) is not complete" merge "$WORK/m.db" "$WORK/s0.db" "$WORK/s1.db" "$WORK/u2.db"
# A result missing although the store says complete: named by mutant.
q "$WORK/u2.db" "UPDATE meta SET value = '1' WHERE key = 'complete'"
bad "has no result in any shard" merge "$WORK/m.db" "$WORK/s0.db" "$WORK/s1.db" "$WORK/u2.db"
[ ! -e "$WORK/m.db" ] || fail "a refused merge left $WORK/m.db"
# Resuming the unfinished shard finishes it, and the merge then succeeds.
"$LITMUS" score "${args[@]}" -j 1 --shard 2/3 --db "$WORK/u2.db" >/dev/null 2>"$WORK/err" || fail "resume u2: $(cat "$WORK/err")"
run_litmus merge "$WORK/m.db" "$WORK/s0.db" "$WORK/s1.db" "$WORK/u2.db"
expect_eq "$RC" 0 "merge after resume ($(cat "$WORK/err"))"
no_leftovers
exit 0
