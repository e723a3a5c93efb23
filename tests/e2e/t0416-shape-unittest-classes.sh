# unittest.TestCase classes with setUp/tearDown and a @unittest.skip: the
# skipped test is stored as skipped, the rest as passed, as pytest says.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/shapes.sh"
shape_copy unittest_classes
shape_score score ledger.py --tests tests
shape_check no-note /usr/bin/python3 tests
o=$(q "$P/.litmus.db" "SELECT outcome FROM tests
      WHERE nodeid LIKE '%PostingTest::test_foreign_currency'")
expect_eq "$o" skipped "the @unittest.skip test"
