# kill -9 of litmus at several points, then the same command again: the
# same verdicts as an uninterrupted run, and no mutant whose result was
# stored is run again.
. "$(dirname "$0")/lib.sh"
prog=$CORPUS/knapsack
"$LITMUS" score "$prog" --tests "$prog" --db "$WORK/ref.db" --no-progress -j 2 >/dev/null 2>&1 || fail "reference run failed"
ref=$(q "$WORK/ref.db" "SELECT mutant_id || ' ' || verdict FROM results ORDER BY mutant_id")
total=$(q "$WORK/ref.db" "SELECT count(*) FROM mutants")
db=$WORK/resume.db
# Kill points by progress, not by the clock, so a slow or loaded machine
# (a sanitizer build, parallel suites) kills at the same places: right
# after start-up, then once a quarter, half and three quarters of the
# results are stored.
count() { [ -e "$db" ] && q "$db" "SELECT count(*) FROM results" 2>/dev/null || echo 0; }
for target in 0 1 $((total / 4)) $((total / 2)) $((3 * total / 4)); do
  before=$(count)
  [ "$before" = "$total" ] && break
  "$LITMUS" score "$prog" --tests "$prog" --db "$db" --no-progress -j 2 >/dev/null 2>&1 &
  pid=$!
  if [ "$target" = 0 ]; then
    sleep 0.3
  else
    for _ in $(seq 600); do   # at most 60 s
      n=$(count); [ "${n:-0}" -ge "$target" ] && break
      kill -0 $pid 2>/dev/null || break
      sleep 0.1
    done
  fi
  kill -9 $pid 2>/dev/null
  wait $pid 2>/dev/null
  sleep 0.3   # zygotes die with litmus (PDEATHSIG)
done
no_leftovers
stored=$(q "$db" "SELECT mutant_id FROM results ORDER BY mutant_id")
[ -n "$stored" ] || fail "nothing stored before the kills"
export LITMUS_RUN_LOG=$WORK/runlog
run_litmus score "$prog" --tests "$prog" --db "$db" --no-progress -j 2
expect_eq "$RC" 0 "final run"
got=$(q "$db" "SELECT mutant_id || ' ' || verdict FROM results ORDER BY mutant_id")
[ "$got" = "$ref" ] || fail "verdicts differ after resume: $(diff <(echo "$ref") <(echo "$got") | head)"
if [ -s "$WORK/runlog" ]; then
  again=$(sort "$WORK/runlog" | comm -12 - <(echo "$stored" | sort))
  [ -z "$again" ] || fail "mutants run again after their result was stored: $again"
fi
grep -q "mutation score:" "$WORK/out" || fail "no summary"
exit 0
