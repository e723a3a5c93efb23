# --max-time (issue 38): a run that would pass its budget says how long
# it expects, runs every line's cheapest mutant first, stops at the budget
# with every finished verdict stored, reports the rest as not_run (out of
# the score), and the same command runs only those.  The fixture's tests
# wait without using the CPU: 0.05 s (line 9) and 0.3 s (line 21), and
# for discount's seven mutants on lines 13-16 3 s while a file SLOW
# stands beside them (0.2 s without).  With SLOW for the baseline and the
# stopped run, its mutants are expected to take about 22 s and do: far
# more than the few seconds this test gives them, however loaded the
# machine; without it the resume is quick.
. "$(dirname "$0")/lib.sh"
cp -r "$FIXTURES/budget_lines" "$WORK/"
FX=$WORK/budget_lines
DB=$WORK/budget.db
N=11
score() { # more arguments: stdout and stderr to $WORK/out, err
  "$LITMUS" score "$FX" --tests "$FX" --db "$DB" -j 1 --baseline-runs 1 \
    --no-progress "$@" >"$WORK/out" 2>"$WORK/err"
  RC=$?
}
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
results() { q "$DB" "SELECT count(*) FROM results"; }
meta() { q "$DB" "SELECT coalesce((SELECT value FROM meta WHERE key = '$1'), '')"; }
lines_of() { # a run log: the line of each mutant started, in order
  local id order=""
  while read -r id _; do
    order="$order $(q "$DB" "SELECT line FROM mutants WHERE id = '$id'")"
  done <"$1"
  echo "$order"
}

# Bad budgets: one message naming the forms, exit 2, no store.
for bad in 0 soon 1h30 -5s 200h; do
  run_litmus score "$FX" --tests "$FX" --db "$WORK/bad.db" --max-time "$bad"
  expect_eq "$RC" 2 "--max-time $bad"
  grep -q "^litmus score: --max-time: invalid value '$bad' (a duration such as 90, 90s, 15m, 2h or 1h30m" "$WORK/err" ||
    fail "unclear message for '$bad': $(cat "$WORK/err")"
done
[ -e "$WORK/bad.db" ] && fail "a store was left by a bad --max-time"

# 1. A budget the baseline alone passes (its tests wait 3.35 s): no
# mutant starts, all are not_run, and the baseline is stored.
touch "$FX/SLOW"
score --max-time 0.5s
expect_eq "$RC" 0 "exit code of a run stopped before its mutants ($(cat "$WORK/err"))"
grep -q "^litmus: --max-time 0.50 s was spent before the mutants" "$WORK/err" ||
  fail "no word that the budget was spent: $(cat "$WORK/err")"
expect_eq "$(results)" 0 "results stored with no time for mutants"
grep -q "not_run $N\$" "$WORK/out" || fail "not_run count: $(cat "$WORK/out")"
grep -q "^mutation score: n/a" "$WORK/out" || fail "score of nothing run: $(cat "$WORK/out")"
expect_eq "$(meta complete)" 0 "complete after a budget stop"
[ -n "$(meta budget_stop)" ] || fail "the stop is not stored"
no_leftovers

# 2. The same command with about 3 s for the mutants, the time the last
# run took to reach them counted in: the estimate first, the cheapest
# mutants first (lines 9 and 21), and a stop part-way.  Its budget is
# the time a run with a budget no start-up fits in takes (on the stored
# baseline, as this one); on a machine so loaded that this run's start-up
# takes longer than that, its budget is spent before the mutants too
# (nothing stored), and it is tried again with that run's time.
t1=0
export LITMUS_RUN_LOG=$WORK/run2.log
for x in 0 3000 6000 9000 9000; do
  budget=$(( t1 + x ))
  [ "$x" = 0 ] && budget=10
  t0=$(now_ms)
  score --max-time "$(( budget / 1000 )).$(printf %03d $(( budget % 1000 )))s" -f json
  t1=$(( $(now_ms) - t0 ))
  expect_eq "$RC" 0 "exit code of a budget stop ($(cat "$WORK/err"))"
  grep -q "reused the baseline of 3 of 3 tests" "$WORK/err" ||
    fail "the stopped run's baseline was not reused: $(cat "$WORK/err")"
  grep -q "was spent before the mutants" "$WORK/err" || break
  expect_eq "$(results)" 0 "results of a stop before the mutants"
done
unset LITMUS_RUN_LOG
[ "$x" != 0 ] || fail "a budget of 10 ms left time for mutants: $(cat "$WORK/err")"
grep -Eq "^litmus: the $N mutants to run are expected to take about [0-9.]+ s on 1 child; --max-time [0-9.]+ s leaves [0-9.]+ s: about [0-9]+ of them will run" "$WORK/err" ||
  fail "no estimate before the mutants: $(cat "$WORK/err")"
done2=$(results)
[ "$done2" -ge 1 ] && [ "$done2" -lt "$N" ] ||
  fail "a budget stop part-way should store some verdicts, not all: $done2 of $N ($(cat "$WORK/err"))"
grep -q "^litmus: --max-time reached: $(( N - done2 )) of $N mutants not run" "$WORK/err" ||
  fail "no word of the stop: $(cat "$WORK/err")"
order=$(lines_of "$WORK/run2.log")
[[ " 9 21 13 14 15 16" == "$order"* ]] ||
  fail "the stopped run started the mutants of lines$order, not the cheapest of each line first"
# Every stored verdict was one this run started; the report says not_run
# for the rest and leaves them out of the score.
/usr/bin/python3 - "$WORK/out" "$N" "$done2" <<'PY' || fail "JSON report of a budget stop"
import json, sys
d = json.load(open(sys.argv[1]))
n, done = int(sys.argv[2]), int(sys.argv[3])
s = d["summary"]
status = [m["status"] for m in d["mutants"]]
assert s["not_run"] == n - done == status.count("not_run"), (s, status)
assert "pending" not in s and "pending" not in status, (s, status)
detected = sum(s[k] for k in ("killed", "timeout", "crashed", "memory"))
valid = detected + s["survived"] + s["no_coverage"]
assert valid == done and abs(s["score"] - detected / valid) < 1e-9, s
for m in d["mutants"]:
    assert (m["status"] == "not_run") == (m["duration_ms"] is None), m
PY
run_litmus report --db "$DB"
grep -Eq "^mutation score: [0-9.]+% \([0-9]+ detected of $done2 valid; $(( N - done2 )) not_run not counted\)" "$WORK/out" ||
  fail "litmus report of the stop: $(cat "$WORK/out")"
# Stryker: Pending with the reason; JUnit: skipped.
run_litmus report --db "$DB" --format stryker
expect_eq "$(grep -c "\"statusReason\": \"not_run: the run's --max-time came before it\"" "$WORK/out")" \
  "$(( N - done2 ))" "Stryker's Pending mutants with the reason"
run_litmus report --db "$DB" --format junit
grep -q "<testsuites name=\"litmus\" tests=\"$N\" failures=\"[0-9]*\" errors=\"0\" skipped=\"$(( N - done2 ))\"" "$WORK/out" ||
  fail "JUnit's skipped count: $(head -3 "$WORK/out")"
grep -q '<property name="not_run" value="'$(( N - done2 ))'"/>' "$WORK/out" ||
  fail "JUnit's not_run property: $(grep property "$WORK/out")"
not_run_id=$(q "$DB" "SELECT id FROM mutants WHERE id NOT IN (SELECT mutant_id FROM results) LIMIT 1")
run_litmus show --db "$DB" "$not_run_id"
grep -q "^verdict: not_run" "$WORK/out" || fail "litmus show of a not_run mutant: $(cat "$WORK/out")"
stored2=$(q "$DB" "SELECT mutant_id || ' ' || verdict FROM results ORDER BY mutant_id")
no_leftovers
rm "$FX/SLOW"

# 3. The same command, a budget it fits in (discount's test is quick
# now): only the not_run mutants run, in the budget's order, the earlier
# verdicts stay, and the run is complete.
export LITMUS_RUN_LOG=$WORK/run3.log
score --max-time 2m
unset LITMUS_RUN_LOG
expect_eq "$RC" 0 "exit code of the resumed run ($(cat "$WORK/err"))"
expect_eq "$(results)" "$N" "results after the resume"
again=$(cut -d' ' -f1 "$WORK/run3.log" | sort | comm -12 - <(echo "$stored2" | cut -d' ' -f1 | sort))
[ -z "$again" ] || fail "mutants run again after their verdict was stored: $again"
expect_eq "$(wc -l <"$WORK/run3.log")" "$(( N - done2 ))" "mutants the resume ran"
kept=$(q "$DB" "SELECT mutant_id || ' ' || verdict FROM results ORDER BY mutant_id" | grep -Fxf <(echo "$stored2") | wc -l)
expect_eq "$kept" "$done2" "verdicts kept from the stopped run"
# The budget's order over what was left (the stored baseline's costs:
# line 9 0.05 s, 21 0.3 s, 13-16 3 s): rounds of one mutant per line,
# the cheapest first within a round, ties in source order.
/usr/bin/python3 - $(lines_of "$WORK/run3.log") <<'PY' || fail "the resume's order"
import sys
lines = [int(x) for x in sys.argv[1:]]
cost = lambda line: {9: 0.05, 21: 0.3}.get(line, 3.0)
seen, keys = {}, []
for line in lines:
    keys.append((seen.get(line, 0), cost(line), line))
    seen[line] = seen.get(line, 0) + 1
assert keys == sorted(keys), lines
PY
expect_eq "$(meta complete)" 1 "complete after the resume"
expect_eq "$(meta budget_stop)" "" "the stop after the resume"
grep -q "not_run" "$WORK/out" "$WORK/err" && fail "not_run after the resume: $(cat "$WORK/out" "$WORK/err")"
grep -q "expected to take" "$WORK/err" && fail "an estimate for a run that fits: $(cat "$WORK/err")"
# The fixture's verdicts, as an uninterrupted run gives them: 10 -> 11 on
# line 13 and both mutants of line 15 survive, every other is killed.
expect_eq "$(q "$DB" "SELECT group_concat(m.line || ':' || r.verdict, ' ') FROM (SELECT * FROM mutants ORDER BY line, replacement) m JOIN results r ON r.mutant_id = m.id")" \
  "9:killed 9:killed 13:survived 13:killed 14:killed 14:killed 15:survived 15:survived 16:killed 21:killed 21:killed" "verdicts"
grep -q "^mutation score: 72.7% (8 detected of 11 valid)" "$WORK/out" || fail "final score: $(cat "$WORK/out")"
no_leftovers
exit 0
