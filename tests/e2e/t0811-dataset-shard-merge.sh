# litmus dataset --shard I/N: the shards' outputs are disjoint and together
# the whole run's; their merged store replays the whole output without a
# single run; bad shard sets are refused with exit 2.
. "$(dirname "$0")/lib.sh"
# Eight of the selection fixture's programs (about 500 runs): sharding does
# not depend on the input's size, and t0300 runs all twenty.  Their whole
# run (whole.jsonl) is t0304's too (lib.sh, select8_whole).
select8_whole
ds() { "$LITMUS" dataset select "$IN" --seed 1 -j 2 --no-progress "$@"; }
for i in 0 1 2; do
  ds --shard $i/3 --db "$WORK/d$i.db" -o "$WORK/s$i.jsonl" 2>"$WORK/err" || fail "shard $i: $(cat "$WORK/err")"
  [ -s "$WORK/s$i.jsonl" ] || fail "shard $i wrote nothing"
  expect_eq "$(q "$WORK/d$i.db" "SELECT value FROM meta WHERE key = 'dataset_shard'")" "$i/3" "shard meta"
done
# Disjoint and complete: every record of the whole run, once.
ids() { /usr/bin/python3 -c 'import json,sys; [print(json.loads(l)["id"]) for l in open(sys.argv[1])]' "$1" | sort -u; }
for i in 0 1 2; do ids "$WORK/s$i.jsonl"; done | sort | uniq -d >"$WORK/dup"
[ ! -s "$WORK/dup" ] || fail "records in two shards: $(cat "$WORK/dup")"
sort "$WORK/s0.jsonl" "$WORK/s1.jsonl" "$WORK/s2.jsonl" >"$WORK/union"
sort "$WORK/whole.jsonl" | cmp -s - "$WORK/union" || fail "the shards' outputs are not the whole run's"

run_litmus merge "$WORK/m.db" "$WORK/d0.db" "$WORK/d1.db" "$WORK/d2.db"
expect_eq "$RC" 0 "merge exit ($(cat "$WORK/err"))"
ds --db "$WORK/m.db" -o "$WORK/replay.jsonl" --summary "$WORK/sum.json" 2>"$WORK/err" || fail "replay: $(cat "$WORK/err")"
cmp -s "$WORK/whole.jsonl" "$WORK/replay.jsonl" || fail "replayed output differs from the whole run's"
/usr/bin/python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
assert s["runs"] == 0 and s["cached"] > 100, s' "$WORK/sum.json" || fail "the replay ran something: $(cat "$WORK/sum.json")"

bad() { # expected-message litmus-args...
  local want=$1; shift
  run_litmus "$@"
  expect_eq "$RC" 2 "exit of litmus $*"
  grep -q -- "$want" "$WORK/err" || fail "litmus $*: expected '$want', got: $(cat "$WORK/err")"
}
bad "missing shard: 1/3" merge "$WORK/x.db" "$WORK/d0.db" "$WORK/d2.db"
bad "holds dataset shard 0/3, not shard 1/3" dataset select "$IN" --seed 1 --shard 1/3 --db "$WORK/d0.db" -o "$WORK/x.jsonl"
bad "I counts from 0" dataset select "$IN" --shard 3/3 -o "$WORK/x.jsonl"
# (A store of other settings: one shard of eight, an eighth of the runs;
# merge compares the settings before the shard counts.)
ds --seed 2 --shard 7/8 --db "$WORK/e2.db" -o "$WORK/e2.jsonl" 2>/dev/null || fail "seed 2 shard"
[ -s "$WORK/e2.jsonl" ] || fail "the seed 2 shard wrote nothing"
bad "settings differ ('seed=1' vs 'seed=2')" merge "$WORK/x.db" "$WORK/d0.db" "$WORK/d1.db" "$WORK/e2.db"
[ ! -e "$WORK/x.db" ] || fail "a refused merge left x.db"
no_leftovers
exit 0
