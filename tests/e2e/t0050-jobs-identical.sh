# Verdicts do not depend on the number of parallel runners.
. "$(dirname "$0")/lib.sh"
for p in bfs heap_sort grade_report thread_counter; do
  "$LITMUS" score "$CORPUS/$p" --tests "$CORPUS/$p" --db "$WORK/$p-1.db" --no-progress -j 1 >/dev/null 2>&1 || fail "$p -j 1"
  "$LITMUS" score "$CORPUS/$p" --tests "$CORPUS/$p" --db "$WORK/$p-2.db" --no-progress -j 2 >/dev/null 2>&1 || fail "$p -j 2"
  a=$(q "$WORK/$p-1.db" "SELECT mutant_id || verdict FROM results ORDER BY 1")
  b=$(q "$WORK/$p-2.db" "SELECT mutant_id || verdict FROM results ORDER BY 1")
  [ "$a" = "$b" ] || fail "$p: verdicts differ between -j 1 and -j 2: $(diff <(echo "$a") <(echo "$b") | head -5)"
done
exit 0
