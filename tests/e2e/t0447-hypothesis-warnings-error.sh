# A hypothesis suite under `filterwarnings = error` scores as it passes
# under `python -m pytest`.  (With the seed litmus fixes, hypothesis made
# and registered its global Random in the first test of each child, and
# register_random warned because gc.get_referrers cannot see the frozen
# heap of the zygote; with warnings as errors every @given test failed the
# baseline as Flaky, as dateutil's property tests did.)
. "$(dirname "$0")/lib.sh"
/usr/bin/python3 -c "import hypothesis" 2>/dev/null || skip "python3-hypothesis missing"
proj=$WORK/proj
mkdir -p "$proj"
cat > "$proj/clamp.py" <<'PY'
def clamp(x, lo, hi):
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x
PY
cat > "$proj/test_clamp.py" <<'PY'
from hypothesis import given, strategies as st

from clamp import clamp


@given(st.integers(), st.integers(0, 10))
def test_in_range(x, width):
    y = clamp(x, 0, width)
    assert 0 <= y <= width


@given(st.integers(0, 10))
def test_identity(x):
    assert clamp(x, 0, 10) == x
PY
printf '[pytest]\nfilterwarnings =\n    error\n' > "$proj/pytest.ini"
cd "$proj"
/usr/bin/python3 -m pytest -q -p no:cacheprovider --hypothesis-seed=0 >/dev/null 2>&1 ||
  fail "the suite does not pass under plain pytest"

run_litmus score clamp.py --tests test_clamp.py --db "$WORK/a.db" --no-progress
expect_eq "$RC" 0 "exit code ($(cat "$WORK/err"))"
expect_eq "$(q "$WORK/a.db" "SELECT group_concat(outcome, ',') FROM (SELECT outcome FROM tests ORDER BY idx)")" \
  "passed,passed" "baseline outcomes"
ORACLE_PLUGINS=1 /usr/bin/python3 "$REPO/tests/e2e/lib_oracle.py" "$WORK/a.db" "$proj" >"$WORK/oracle" 2>&1 ||
  fail "verdicts differ from plain pytest: $(cat "$WORK/oracle")"
no_leftovers
