# litmus patches --shard I/N: the shards triage disjoint candidates whose
# verdicts together are the whole triage's; their merged store replays the
# whole report (JSON and CSV, apart from durations) without starting a run;
# bad shard sets are refused with exit 2.
. "$(dirname "$0")/lib.sh"
# The programs gcd and kth and their patches, and their whole triage
# (lib.sh: made once a suite run, t0203 resumes it).
patches_pair_whole
cp "$PAIR/whole.csv" "$PAIR/whole.json" "$WORK/" || fail "no shared whole triage"
n=$(wc -l < "$PAIR/patches.jsonl")
[ "$n" -ge 6 ] || fail "only $n patches"
args=("${PAIR_ARGS[@]}")
# Exit 1: some patch is overfitting (the corpus has such patches).
[ "$PAIR_RC" -le 1 ] || fail "whole triage: $(cat "$PAIR/err")"
for i in 0 1 2; do
  "$LITMUS" "${args[@]}" --shard $i/3 --db "$WORK/s$i.db" --csv "$WORK/s$i.csv" >/dev/null 2>"$WORK/err"
  [ $? -le 1 ] || fail "shard $i: $(cat "$WORK/err")"
  expect_eq "$(q "$WORK/s$i.db" "SELECT value FROM meta WHERE key = 'patches_shard'")" "$i/3" "shard meta"
  expect_eq "$(q "$WORK/s$i.db" "SELECT value FROM meta WHERE key = 'patches_complete'")" "1" "shard $i complete"
done
# Disjoint, balanced, and the same verdicts as the whole triage.
/usr/bin/python3 - "$WORK" "$n" <<'PY' || fail "the shards' verdicts are not the whole triage's"
import csv, sys
w, n = sys.argv[1], int(sys.argv[2])
def rows(p):
    return {(r["program"], r["run_id"]): (r["verdict"], r["reason"]) for r in csv.DictReader(open(p))}
whole = rows(f"{w}/whole.csv")
parts = [rows(f"{w}/s{i}.csv") for i in range(3)]
assert len(whole) == n, (len(whole), n)
seen = {}
for p in parts:
    for k in p:
        assert k not in seen, f"{k} in two shards"
        seen[k] = p[k]
assert seen == whole, [(k, seen.get(k), whole[k]) for k in whole if seen.get(k) != whole[k]][:3]
sizes = sorted(len(p) for p in parts)
assert sizes[-1] - sizes[0] <= 1, sizes
PY

run_litmus merge "$WORK/m.db" "$WORK/s0.db" "$WORK/s1.db" "$WORK/s2.db"
expect_eq "$RC" 0 "merge exit ($(cat "$WORK/err"))"
export LITMUS_RUN_LOG=$WORK/runlog
"$LITMUS" "${args[@]}" --db "$WORK/m.db" --csv "$WORK/replay.csv" -f json >"$WORK/replay.json" 2>"$WORK/err"
[ $? -le 1 ] || fail "replay: $(cat "$WORK/err")"
unset LITMUS_RUN_LOG
[ ! -s "$WORK/runlog" ] || fail "the replay started runs: $(head -5 "$WORK/runlog")"
/usr/bin/python3 - "$WORK" <<'PY' || fail "replayed report differs from the whole triage's"
import csv, json, sys
w = sys.argv[1]
def strip(o):
    if isinstance(o, dict):
        return {k: strip(v) for k, v in o.items()
                if "duration" not in k and not k.endswith("_s")}
    if isinstance(o, list):
        return [strip(v) for v in o]
    return o
a, b = (strip(json.load(open(f"{w}/{x}.json"))) for x in ("whole", "replay"))
assert a == b, "JSON differs"
def rows(p):
    return [{k: v for k, v in r.items() if k != "duration_ms"} for r in csv.DictReader(open(p))]
assert rows(f"{w}/whole.csv") == rows(f"{w}/replay.csv"), "CSV differs"
PY

bad() { # expected-message litmus-args...
  local want=$1; shift
  run_litmus "$@"
  expect_eq "$RC" 2 "exit of litmus $*"
  grep -q -- "$want" "$WORK/err" || fail "litmus $*: expected '$want', got: $(cat "$WORK/err")"
}
bad "missing shard: 2/3" merge "$WORK/x.db" "$WORK/s0.db" "$WORK/s1.db"
bad "holds patches shard 0/3, not shard 1/3" "${args[@]}" --shard 1/3 --db "$WORK/s0.db"
bad "I counts from 0" "${args[@]}" --shard 3/3 --db "$WORK/y.db"
bad "gets none of the $n patches" "${args[@]}" --shard $n/$((n + 1)) --db "$WORK/y.db"
# (A store of other settings: one shard of n, a single patch to triage;
# merge compares the settings before the shard counts.)
"$LITMUS" "${args[@]}" --threshold 0.7 --shard $((n - 1))/$n --db "$WORK/t2.db" >/dev/null 2>&1
expect_eq "$(q "$WORK/t2.db" "SELECT value FROM meta WHERE key = 'patches_complete'")" "1" "the shard of threshold 0.7 complete"
bad "settings differ ('threshold=0.6' vs 'threshold=0.7')" merge "$WORK/x.db" "$WORK/s0.db" "$WORK/s1.db" "$WORK/t2.db"
[ ! -e "$WORK/x.db" ] || fail "a refused merge left x.db"
no_leftovers
exit 0
