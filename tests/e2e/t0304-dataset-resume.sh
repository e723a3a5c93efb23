# kill -9 of litmus dataset in the middle of a run, then the same command
# again: it finishes from the store with exactly the output of an
# uninterrupted run, and leaves no process behind.
. "$(dirname "$0")/lib.sh"
# Eight of the selection fixture's programs (about 500 runs): resuming does
# not depend on the input's size, and t0300 runs all twenty.  Their
# uninterrupted run (whole.jsonl) is t0811's too (lib.sh, select8_whole).
select8_whole

"$LITMUS" dataset select "$IN" --seed 1 -j 2 --no-progress --db "$WORK/d.db" \
  -o "$WORK/part.jsonl" 2>/dev/null &
pid=$!
# Kill once some runs are committed, long before the end.
for _ in $(seq 1 600); do
  n=$(sqlite3 -batch "$WORK/d.db" "SELECT count(*) FROM dataset_runs" 2>/dev/null || echo 0)
  [ "${n:-0}" -ge 150 ] && break
  sleep 0.05
done
kill -9 $pid
wait $pid 2>/dev/null
[ "${n:-0}" -ge 150 ] || fail "the run stored nothing to resume from"
[ -e "$WORK/part.jsonl" ] && fail "an interrupted run left an output file"
sleep 0.3
run_litmus dataset select "$IN" --seed 1 -j 2 --no-progress --db "$WORK/d.db" \
  -o "$WORK/part.jsonl" --summary "$WORK/sum.json"
expect_eq "$RC" 0 "resumed run: exit code"
cmp -s "$WORK/whole.jsonl" "$WORK/part.jsonl" || fail "resumed output differs"
/usr/bin/python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
assert s["cached"] >= 150 and s["runs"] > 0, s' "$WORK/sum.json" ||
  fail "resume did not use the store: $(cat "$WORK/sum.json")"
# A second litmus on the same store refuses to start.
"$LITMUS" dataset select "$IN" --seed 1 -j 1 --no-progress --db "$WORK/e.db" \
  -o "$WORK/x.jsonl" 2>/dev/null &
pid=$!
# Once it holds the store (a fixed 0.5 s was too short on a loaded
# machine: the second run found the store free and ran).
for _ in $(seq 300); do [ -e "$WORK/e.db.lock" ] && break; sleep 0.1; done
sleep 0.2
run_litmus dataset select "$IN" --db "$WORK/e.db" -o "$WORK/y.jsonl"
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
expect_eq "$RC" 2 "second litmus on the store: exit code"
no_leftovers
exit 0
