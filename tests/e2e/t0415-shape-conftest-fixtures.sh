# Fixtures of every scope in a root and a sub-folder conftest, a local
# plugin through pytest_plugins and markers declared in pytest.ini (with
# --strict-markers): scores with pytest's discovery; baseline as pytest's.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/shapes.sh"
shape_copy conftest_fixtures
shape_score score inventory.py
shape_check no-note /usr/bin/python3
# Tests of the sub-folder (its conftest's fixture) were collected and run.
n=$(q "$P/.litmus.db" "SELECT count(*) FROM tests
      WHERE nodeid LIKE 'tests/orders/%' AND outcome = 'passed'")
[ "$n" = 5 ] || fail "expected 5 passing tests under tests/orders, got $n"
