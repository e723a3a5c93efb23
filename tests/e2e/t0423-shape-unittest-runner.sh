# A unittest suite with no pytest in its tool chain (unittest_only, run as
# `python -m unittest discover tests`): pytest cannot collect it, and
# litmus says to pass --runner unittest; with it, in a venv that has no
# pytest, the tests are named module.Class.test_method (load_tests cases
# made unique), the skip and the expected failure are stored as skipped,
# and every mutant's verdict is that of plain `python -m unittest
# discover tests` on a copy with the mutant applied.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/shapes.sh"
shape_copy unittest_only

# 1. pytest's collection fails (the tests import their sibling `support`,
# which only unittest's discovery puts on the path): the error says what
# failed and suggests the unittest runner.
shape_score score inventory --no-progress
expect_eq "$RC" 2 "litmus with pytest"
grep -q "collection failed: .*No module named 'support'" "$WORK/err" ||
  fail "no collection error: $(cat "$WORK/err")"
grep -q -- "pass --runner unittest" "$WORK/err" ||
  fail "no --runner unittest hint: $(cat "$WORK/err")"

# 2. An unknown runner is a usage error, as an option and in [tool.litmus].
shape_score score inventory --runner nose
expect_eq "$RC" 2 "--runner nose"
grep -q "pytest, unittest or doctest" "$WORK/err" ||
  fail "--runner nose: $(cat "$WORK/err")"
printf '[tool.litmus]\nrunner = "nose"\n' >"$WORK/nose.toml"
shape_score score inventory --config "$WORK/nose.toml"
expect_eq "$RC" 2 "runner = \"nose\""
grep -q "invalid value for 'runner'" "$WORK/err" ||
  fail "runner = \"nose\": $(cat "$WORK/err")"

# 3. As tox.ini runs it, from a venv without pytest (found as ./.venv).
(cd "$P" && /usr/bin/python3 -m venv --without-pip .venv) \
  >"$WORK/venv.log" 2>&1 || skip "cannot make a venv: $(cat "$WORK/venv.log")"
"$P/.venv/bin/python" -c 'import pytest' 2>/dev/null &&
  fail "the venv can import pytest: the shape is wrong"
shape_score score inventory --runner unittest --no-progress -- discover tests
[ "$RC" = 0 ] || fail "litmus exited $RC: $(tail -n 5 "$WORK/err")"
diff "$WORK/before" "$WORK/after" >"$WORK/listing.diff" ||
  fail "litmus wrote into the project: $(head -n 10 "$WORK/listing.diff")"
db=$P/.litmus.db
expect_eq "$(q "$db" "SELECT group_concat(nodeid || ' ' || outcome, ', ')
                      FROM (SELECT * FROM tests ORDER BY idx)")" \
  "test_pricing.DiscountTest.test_discount passed, test_pricing.DiscountTest.test_discount_bounds passed, test_pricing.BulkPriceCase.test_price passed, test_pricing.BulkPriceCase.test_price#2 passed, test_pricing.BulkPriceCase.test_price#3 passed, test_stock.OpeningStockTest.test_all_levels passed, test_stock.OpeningStockTest.test_low passed, test_stock.OpeningStockTest.test_unknown_sku passed, test_stock.TakeTest.test_add_refuses_nothing passed, test_stock.TakeTest.test_reserve skipped, test_stock.TakeTest.test_take_all_forgets_the_sku passed, test_stock.TakeTest.test_take_fractions skipped, test_stock.TakeTest.test_take_some passed, test_stock.TakeTest.test_take_too_many passed" \
  "the stored tests"
killed=$(q "$db" "SELECT count(*) FROM results WHERE verdict = 'killed'")
[ "$killed" -gt 0 ] || fail "no mutant killed"
bad=$(q "$db" "SELECT killed_by FROM results WHERE verdict = 'killed'" |
      grep -Ev '^test_[a-z]+\.[A-Za-z]+\.test_[a-z_]+(#[0-9])?$')
[ -z "$bad" ] || fail "killing tests not named module.Class.test_method: $bad"
# A mutant that breaks the class fixture fails the first test of the class
# that meets it, with what setUpClass raised.
n=$(q "$db" "SELECT count(*) FROM results
             WHERE killed_by LIKE 'test_stock.OpeningStockTest.%'
             AND detail LIKE 'setUpClass (test_stock.OpeningStockTest): %'")
[ "$n" -gt 0 ] || fail "no kill by a failing setUpClass"

# 4. Every verdict agrees with plain unittest on the mutated project.
ORACLE_CMD="/usr/bin/python3 -m unittest discover tests" \
  /usr/bin/python3 "$REPO/tests/e2e/lib_oracle.py" "$db" "$P" \
  >"$WORK/oracle" 2>&1 || fail "verdicts differ from plain unittest: $(cat "$WORK/oracle")"

# 5. Reuse knows the tests' files from their names: the same command again
# reuses every verdict; after an edit of tests/test_pricing.py only the
# mutants that its tests run are run again.
again() {
  (cd "$P" && "$LITMUS" score inventory --runner unittest --no-progress \
     -- discover tests) >/dev/null 2>"$WORK/again.err" ||
    fail "litmus again: $(cat "$WORK/again.err")"
  grep -o 'reused [0-9]* verdicts of an earlier run; [0-9]* mutants to run' \
    "$WORK/again.err"
}
total=$(q "$db" "SELECT count(*) FROM results")
expect_eq "$(again)" "reused $total verdicts of an earlier run; 0 mutants to run" "unchanged tree"
echo "# edited" >>"$P/tests/test_pricing.py"
pricing=$(q "$db" "SELECT count(*) FROM mutants WHERE file LIKE '%/pricing.py'")
rerun=$(again | sed 's/.*; \([0-9]*\) mutants to run/\1/')
[ "$rerun" -ge "$pricing" ] && [ "$rerun" -lt "$total" ] ||
  fail "after editing test_pricing.py: $rerun of $total mutants ran ($pricing in pricing.py)"
echo "$killed killed; $(tail -n 1 "$WORK/oracle"); $rerun run again after a test edit"
no_leftovers
exit 0
