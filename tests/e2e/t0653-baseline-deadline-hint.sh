# A hypothesis test that misses its deadline on the original code stops
# the run with the test named and a one-line cause (issue "Heavy and
# hypothesis-driven real suites"): traced, or on a loaded machine, a test
# may miss a deadline that plain pytest meets, and hypothesis then says
# DeadlineExceeded or Flaky ("unreliable results").
. "$(dirname "$0")/lib.sh"
"${PYTHON:-/usr/bin/python3}" -c 'import hypothesis' 2>/dev/null || skip "no hypothesis"
P=$WORK/proj
mkdir -p "$P"
cat >"$P/m.py" <<'PY'
def f(x):
    return x + 1
PY
cat >"$P/test_m.py" <<'PY'
import time
from datetime import timedelta

from hypothesis import given, settings, strategies as st

from m import f


@settings(deadline=timedelta(milliseconds=5))
@given(st.integers())
def test_f(x):
    time.sleep(0.02)
    assert f(x) == x + 1
PY
(cd "$P" && "$LITMUS" score m.py --tests test_m.py --db "$WORK/r.db" --no-progress) \
  >"$WORK/out" 2>"$WORK/err"
expect_eq "$?" 2 "exit code ($(cat "$WORK/err"))"
grep -q '^  test_m.py::test_f: .*(a hypothesis deadline missed under the tracer or the machine.s load?  deadline=None in the project.s hypothesis settings, or --deselect-failing)$' "$WORK/err" ||
  fail "no deadline hint: $(cat "$WORK/err")"
no_leftovers
