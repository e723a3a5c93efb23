# A second litmus on the same database refuses to start.
. "$(dirname "$0")/lib.sh"
db=$WORK/lock.db
"$LITMUS" score "$CORPUS/nqueens" --tests "$CORPUS/nqueens" --db "$db" --no-progress -j 1 >/dev/null 2>&1 &
pid=$!
for _ in $(seq 100); do [ -e "$db.lock" ] && break; sleep 0.05; done
sleep 0.2
run_litmus score "$CORPUS/nqueens" --tests "$CORPUS/nqueens" --db "$db" --no-progress
kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null
expect_eq "$RC" 2 "second litmus"
grep -qi 'in use\|locked\|another' "$WORK/err" || fail "unclear message: $(cat "$WORK/err")"
exit 0
