# A database on a file system that fills up in the middle of a run: litmus
# score, litmus patches, then litmus dataset, must stop with exit 3 and say that what was
# committed is kept and that the same command resumes it; with space
# again, the same command finishes with the verdicts of an uninterrupted
# run.
#
# The database sits on a small tmpfs mounted in a private mount namespace
# (unshare -m, as root), so the mount vanishes with the test.  Once the
# runners have started mutants, a filler file takes every free block, so
# the next batch commit (a WAL append) fails with ENOSPC mid-run.
if [ -z "${LT_T0600_NS:-}" ] && [ "$(id -u)" = 0 ] &&
   unshare -m --propagation private true 2>/dev/null; then
  LT_T0600_NS=1 exec unshare -m --propagation private bash "$0" "$@"
fi
. "$(dirname "$0")/lib.sh"
[ "${LT_T0600_NS:-}" = 1 ] || skip "needs root and mount namespaces (unshare -m) for a private tmpfs"
command -v sqlite3 >/dev/null || skip "needs the sqlite3 command"
mnt=$WORK/mnt
mkdir -p "$mnt"
mount -t tmpfs -o size=16m tmpfs "$mnt" || skip "cannot mount a tmpfs"
trap 'umount "$mnt" 2>/dev/null; rm -rf "$WORK"' EXIT

prog=$CORPUS/expr_parser
args=(score "$prog" --tests "$prog" --no-progress -j 1)

# The uninterrupted reference, on a disk with room.
"$LITMUS" "${args[@]}" --db "$WORK/ref.db" >/dev/null 2>&1 || fail "reference run failed"
ref=$(q "$WORK/ref.db" "SELECT mutant_id || ' ' || verdict FROM results ORDER BY mutant_id")
total=$(q "$WORK/ref.db" "SELECT count(*) FROM mutants")
[ "$total" -gt 20 ] || fail "too few mutants ($total) for a mid-run failure"

db=$mnt/run.db
export LITMUS_RUN_LOG=$WORK/runlog
"$LITMUS" "${args[@]}" --db "$db" >"$WORK/out" 2>"$WORK/err" &
pid=$!
# Wait until the runner has started a mutant (the plan and the
# verdicts that need no run are committed by then), then fill the disk.
for _ in $(seq 1 3000); do
  [ -s "$WORK/runlog" ] && [ "$(wc -l <"$WORK/runlog")" -ge 1 ] && break
  kill -0 $pid 2>/dev/null || break
  sleep 0.01
done
[ -s "$WORK/runlog" ] || { wait $pid; fail "no mutant started (exit $?): $(cat "$WORK/err")"; }
kill -0 $pid 2>/dev/null || { wait $pid; fail "the run ended (exit $?) before the disk filled up"; }
dd if=/dev/zero of="$mnt/fill" bs=64k 2>/dev/null
wait $pid
RC=$?
unset LITMUS_RUN_LOG
no_leftovers
cat "$WORK/err" >&2
expect_eq "$RC" 3 "exit code on a full disk (stderr: $(tr '\n' ' ' <"$WORK/err"))"
grep -q "No space left on device" "$WORK/err" || fail "no cause in the message: $(cat "$WORK/err")"
grep -q "kept" "$WORK/err" || fail "the message does not say the committed work is kept: $(cat "$WORK/err")"
grep -q "same command" "$WORK/err" || fail "the message does not say how to resume: $(cat "$WORK/err")"
grep -q "lt__" "$WORK/err" && fail "an internal name in the message: $(cat "$WORK/err")"
grep -q "mutation score" "$WORK/out" && fail "a score was reported for an incomplete run"
stored=$(q "$db" "SELECT count(*) FROM results")
[ "$stored" -lt "$total" ] || fail "every result was stored although the disk was full"

# Space again: the same command finishes the run.
rm -f "$mnt/fill"
run_litmus "${args[@]}" --db "$db"
expect_eq "$RC" 0 "resumed run (stderr: $(tr '\n' ' ' <"$WORK/err"))"
got=$(q "$db" "SELECT mutant_id || ' ' || verdict FROM results ORDER BY mutant_id")
[ "$got" = "$ref" ] || fail "verdicts differ from an uninterrupted run: $(diff <(echo "$ref") <(echo "$got") | head)"
grep -q "mutation score:" "$WORK/out" || fail "no summary after the resume"

# The same for litmus patches (one program, its patch directory).
if grep -qs calls_main "$REPO/runners/shim.py" || [ -f "$REPO/runners/calls.py" ]; then
  G=$CORPUS/patches/gcd
  pargs=(patches --buggy "$G/gcd.py" --tests "$G/test_gcd.py"
         --reference "$G/reference/gcd.py" --patches "$G/patches"
         --format json --no-progress -j 1)
  "$LITMUS" "${pargs[@]}" --db "$WORK/pref.db" >"$WORK/pref.json" 2>/dev/null
  [ $? = 1 ] || fail "patches reference run failed"
  rm -f "$mnt/fill" "$mnt"/run.db*
  export LITMUS_RUN_LOG=$WORK/prunlog
  "$LITMUS" "${pargs[@]}" --db "$mnt/p.db" >"$WORK/pout" 2>"$WORK/perr" &
  pid=$!
  # The first lines are zygote starts; fill the disk once runs began.
  for _ in $(seq 1 3000); do
    n=$(grep -vcs zygote "$WORK/prunlog")
    [ "${n:-0}" -ge 1 ] && break
    kill -0 $pid 2>/dev/null || break
    sleep 0.01
  done
  kill -0 $pid 2>/dev/null || { wait $pid; fail "patches ended (exit $?) before the disk filled up"; }
  dd if=/dev/zero of="$mnt/fill" bs=64k 2>/dev/null
  wait $pid
  RC=$?
  unset LITMUS_RUN_LOG
  no_leftovers
  cat "$WORK/perr" >&2
  expect_eq "$RC" 3 "patches: exit code on a full disk"
  grep -q "No space left on device" "$WORK/perr" || fail "patches: no cause in the message"
  grep -q "kept" "$WORK/perr" && grep -q "same command" "$WORK/perr" ||
    fail "patches: the message does not say the work is kept and how to resume"
  rm -f "$mnt/fill"
  run_litmus "${pargs[@]}" --db "$mnt/p.db"
  expect_eq "$RC" 1 "patches: resumed run (stderr: $(tr '\n' ' ' <"$WORK/err"))"
  /usr/bin/python3 - "$WORK/pref.json" "$WORK/out" <<'PY' || fail "patches: verdicts differ from an uninterrupted run"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
key = lambda d: sorted((p["run_id"], p["verdict"], p["reason"]) for p in d["patches"])
assert key(a) == key(b), (key(a), key(b))
PY
fi

# The same for litmus dataset: the disk fills once its settings are
# stored, so the first batch of results cannot be committed.  Two of the
# fixture's programs (one checked by its tests, one by its inputs).
IN=$WORK/two.jsonl
dataset_subset "$IN" bitcount fast_power
dargs=(dataset faults "$IN" --quarter all --seed 5 -j 1 --no-progress)
"$LITMUS" "${dargs[@]}" --db "$WORK/dref.db" -o "$WORK/dref.jsonl" 2>/dev/null ||
  fail "dataset reference run failed"
rm -f "$mnt/fill" "$mnt"/*.db*
"$LITMUS" "${dargs[@]}" --db "$mnt/d.db" -o "$WORK/d.jsonl" 2>"$WORK/derr" &
pid=$!
for _ in $(seq 1 3000); do
  [ -n "$(q "$mnt/d.db" "SELECT value FROM meta WHERE key = 'dataset_complete'" 2>/dev/null)" ] && break
  kill -0 $pid 2>/dev/null || break
  sleep 0.01
done
kill -0 $pid 2>/dev/null || { wait $pid; fail "dataset ended (exit $?) before the disk filled up"; }
dd if=/dev/zero of="$mnt/fill" bs=64k 2>/dev/null
wait $pid
RC=$?
no_leftovers
cat "$WORK/derr" >&2
expect_eq "$RC" 3 "dataset: exit code on a full disk (stderr: $(tr '\n' ' ' <"$WORK/derr"))"
grep -q "No space left on device" "$WORK/derr" || fail "dataset: no cause in the message: $(cat "$WORK/derr")"
grep -q "kept" "$WORK/derr" && grep -q "same command" "$WORK/derr" ||
  fail "dataset: the message does not say the work is kept and how to resume"
rm -f "$mnt/fill"
run_litmus "${dargs[@]}" --db "$mnt/d.db" -o "$WORK/d.jsonl"
expect_eq "$RC" 0 "dataset: resumed run (stderr: $(tr '\n' ' ' <"$WORK/err"))"
cmp -s "$WORK/dref.jsonl" "$WORK/d.jsonl" || fail "dataset: records differ from an uninterrupted run"
exit 0
