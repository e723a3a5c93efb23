# pytest's warning filters apply to every test as under `python -m pytest`:
# filterwarnings in the ini and the filterwarnings mark turn a warning the
# mutant causes into a failure.  (The shim once called runtestprotocol
# directly, past the warnings plugin's wrapper of pytest_runtest_protocol:
# on a real project with `filterwarnings = error` such mutants survived,
# and tests failing on a warning under pytest passed under litmus.)
. "$(dirname "$0")/lib.sh"
proj=$WORK/proj
mkdir -p "$proj"
cat > "$proj/scale.py" <<'PY'
import warnings


def scale(x):
    if x > 10:
        warnings.warn("large input", UserWarning)
    return 2 * x


def legacy(x):
    if x < 0:
        warnings.warn("negative input", DeprecationWarning)
    return x
PY
cat > "$proj/test_scale.py" <<'PY'
import pytest

from scale import legacy, scale


def test_scale():
    assert scale(3) == 6
    assert scale(10) == 20


@pytest.mark.filterwarnings("error::DeprecationWarning")
def test_legacy():
    assert legacy(0) == 0
PY
printf '[pytest]\nfilterwarnings =\n    error::UserWarning\n' > "$proj/pytest.ini"
cd "$proj"
/usr/bin/python3 -m pytest -q -p no:cacheprovider >/dev/null 2>&1 ||
  fail "the suite does not pass under plain pytest"

run_litmus score scale.py --tests test_scale.py --db "$WORK/a.db" --no-progress
expect_eq "$RC" 0 "exit code ($(cat "$WORK/err"))"
# x > 10 -> x >= 10: scale(10) warns, the ini's filter makes it an error.
expect_eq "$(verdict_at "$WORK/a.db" scale.py 5 operator '>=')" killed "ini filterwarnings"
# x < 0 -> x <= 0: legacy(0) warns, the test's mark makes it an error.
expect_eq "$(verdict_at "$WORK/a.db" scale.py 11 operator '<=')" killed "filterwarnings mark"
expect_eq "$(verdict_at "$WORK/a.db" scale.py 5 number '11')" survived "10 -> 11"
/usr/bin/python3 "$REPO/tests/e2e/lib_oracle.py" "$WORK/a.db" "$proj" >"$WORK/oracle" 2>&1 ||
  fail "verdicts differ from plain pytest: $(cat "$WORK/oracle")"

# A test that fails on the original code only because of a warning filter
# fails the baseline, as it fails `python -m pytest`.
cat >> "$proj/test_scale.py" <<'PY'


def test_large():
    assert scale(11) == 22
PY
run_litmus score scale.py --tests test_scale.py --db "$WORK/b.db" --no-progress
expect_eq "$RC" 2 "failing baseline: exit code"
grep -q 'test_scale.py::test_large: .*UserWarning: large input' "$WORK/err" ||
  fail "warning failure not named: $(cat "$WORK/err")"
no_leftovers
