# A module whose doctests are its whole suite, with a text file of doctests
# beside it (doctest_only, run as `python -m doctest temperature.py
# usage.txt`): with runner = "doctest" in [tool.litmus], one test per
# docstring, named as doctest names it, and every mutant's verdict is that
# of plain `python -m doctest` on a copy with the mutant applied.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/shapes.sh"
shape_copy doctest_only
printf '[tool.litmus]\nrunner = "doctest"\ntests = ["usage.txt"]\n' \
  >"$WORK/litmus.toml"
shape_score score temperature.py --no-progress --config "$WORK/litmus.toml"
[ "$RC" = 0 ] || fail "litmus exited $RC: $(tail -n 5 "$WORK/err")"
diff "$WORK/before" "$WORK/after" >"$WORK/listing.diff" ||
  fail "litmus wrote into the project: $(head -n 10 "$WORK/listing.diff")"
db=$P/.litmus.db
expect_eq "$(q "$db" "SELECT group_concat(nodeid || ' ' || outcome, ', ')
                      FROM (SELECT * FROM tests ORDER BY idx)")" \
  "temperature passed, temperature.Thermometer passed, temperature.Thermometer.frozen passed, temperature.Thermometer.record passed, temperature.Thermometer.spread passed, temperature.comfort passed, temperature.to_celsius passed, temperature.to_fahrenheit passed, usage.txt passed" \
  "the stored tests"
killed=$(q "$db" "SELECT count(*) FROM results WHERE verdict = 'killed'")
[ "$killed" -gt 0 ] || fail "no mutant killed"
n=$(q "$db" "SELECT count(*) FROM results WHERE killed_by = 'temperature.comfort'
             AND detail LIKE 'Failed example: [comfort(t) %Expected: %Got: %'")
[ "$n" -gt 0 ] || fail "no kill by the comfort doctest with its example"
ORACLE_CMD="/usr/bin/python3 -m doctest temperature.py usage.txt" \
  /usr/bin/python3 "$REPO/tests/e2e/lib_oracle.py" "$db" "$P" \
  >"$WORK/oracle" 2>&1 || fail "verdicts differ from plain doctest: $(cat "$WORK/oracle")"
echo "$killed killed; $(tail -n 1 "$WORK/oracle")"
no_leftovers
exit 0
