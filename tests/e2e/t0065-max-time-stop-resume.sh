# --max-time (issue 38): a run that would pass its budget says how long
# it expects, runs every line's cheapest mutant first, stops at the budget
# with every finished verdict stored, reports the rest as not_run (out of
# the score), and the same command runs only those.  The fixture's tests
# wait without using the CPU: 0.05 s and 0.3 s for two lines, and 3 s for
# discount's two lines while a file SLOW stands beside them.  With SLOW
# for the baseline and the stopped run, the estimate passes any budget
# this test gives and the run cannot finish before it, whatever the
# machine's speed; without it the resume is quick.
. "$(dirname "$0")/lib.sh"
cp -r "$FIXTURES/budget_lines" "$WORK/"
FX=$WORK/budget_lines
DB=$WORK/budget.db
N=8
score() { # more arguments: stdout and stderr to $WORK/out, err
  "$LITMUS" score "$FX" --tests "$FX" --db "$DB" -j 1 --baseline-runs 1 \
    --no-progress "$@" >"$WORK/out" 2>"$WORK/err"
  RC=$?
}
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
results() { q "$DB" "SELECT count(*) FROM results"; }
meta() { q "$DB" "SELECT coalesce((SELECT value FROM meta WHERE key = '$1'), '')"; }
line_of() { q "$DB" "SELECT line FROM mutants WHERE id = '$1'"; }

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

# Again on the stored baseline, with a budget no start-up fits in: still
# nothing runs, and its time is what the next run takes to reach its
# mutants (this machine's start-up, under this load).
t0=$(now_ms)
score --max-time 0.01s
t1=$(( $(now_ms) - t0 ))
expect_eq "$RC" 0 "exit code of the second stop before the mutants"
expect_eq "$(results)" 0 "results of the second stop before the mutants"
grep -q "reused the baseline of 3 of 3 tests" "$WORK/err" ||
  fail "the stopped run's baseline was not reused: $(cat "$WORK/err")"

# 2. The same command with 3 s for the mutants (about 12.7 s expected):
# the estimate first, then the cheapest mutant of every line before any
# line's second (lines 8, 18, 12 and 13 take 0.05, 0.3, 3 and 3 s), and
# a stop part-way: a mutant of line 12 ends in the grace or is stopped.
budget=$(( t1 + 3000 ))
export LITMUS_RUN_LOG=$WORK/run2.log
score --max-time "$(( budget / 1000 )).$(printf %03d $(( budget % 1000 )))s" -f json
unset LITMUS_RUN_LOG
expect_eq "$RC" 0 "exit code of a budget stop ($(cat "$WORK/err"))"
grep -Eq "^litmus: the $N mutants to run are expected to take about [0-9.]+ s on 1 child; --max-time [0-9.]+ s leaves [0-9.]+ s: about [0-9]+ of them will run" "$WORK/err" ||
  fail "no estimate before the mutants: $(cat "$WORK/err")"
done2=$(results)
[ "$done2" -ge 1 ] && [ "$done2" -lt "$N" ] ||
  fail "a budget stop part-way should store some verdicts, not all: $done2 of $N ($(cat "$WORK/err"))"
grep -q "^litmus: --max-time reached: $(( N - done2 )) of $N mutants not run" "$WORK/err" ||
  fail "no word of the stop: $(cat "$WORK/err")"
# Started in the budget's order (one child): lines 8, 18, then 12 and 13
# (the same cost: in source order), then each line's second.
order=""
while read -r id _; do order="$order $(line_of "$id")"; done <"$WORK/run2.log"
want=" 8 18 12 13 8 18 12 13"
[ -n "$order" ] && [[ $want == "$order"* ]] ||
  fail "mutants started in the order$order, not a prefix of$want"
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
# now): only the not_run mutants run, the earlier verdicts stay, and the
# run is complete.
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
expect_eq "$(meta complete)" 1 "complete after the resume"
expect_eq "$(meta budget_stop)" "" "the stop after the resume"
grep -q "not_run" "$WORK/out" "$WORK/err" && fail "not_run after the resume: $(cat "$WORK/out" "$WORK/err")"
grep -q "expected to take" "$WORK/err" && fail "an estimate for a run that fits: $(cat "$WORK/err")"
# The fixture's verdicts, as an uninterrupted run gives them: 10 -> 11 on
# line 12 survives (no test has n == 11), every other mutant is killed.
expect_eq "$(q "$DB" "SELECT group_concat(m.line || ':' || r.verdict, ' ') FROM (SELECT * FROM mutants ORDER BY line, replacement) m JOIN results r ON r.mutant_id = m.id")" \
  "8:killed 8:killed 12:survived 12:killed 13:killed 13:killed 18:killed 18:killed" "verdicts"
grep -q "^mutation score: 87.5% (7 detected of 8 valid)" "$WORK/out" || fail "final score: $(cat "$WORK/out")"
no_leftovers
exit 0
