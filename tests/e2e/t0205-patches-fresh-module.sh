# A whole-file patch replaces the module: nothing the buggy file defined
# may linger for the patch to lean on.  A patch that drops a helper it
# still calls, or that defines nothing the tests import, must fail the
# tests instead of passing on the buggy file's leftovers.
. "$(dirname "$0")/lib.sh"
mkdir -p "$WORK/prog/patches"
cat > "$WORK/prog/prog.py" <<'PY'
def helper(x):
    return x * 2


def f(x):
    return helper(x) - 1
PY
cat > "$WORK/prog/test_prog.py" <<'PY'
from prog import f


def test_f():
    assert f(2) == 5


def test_f_zero():
    assert f(0) == 1
PY
# Drops the helper but still calls it.
cat > "$WORK/prog/patches/run1.py" <<'PY'
def f(x):
    return helper(x) + 1
PY
# Defines nothing the tests use.
cat > "$WORK/prog/patches/run2.py" <<'PY'
x = 1
PY
# A correct patch that keeps the helper: still passes.
cat > "$WORK/prog/patches/run3.py" <<'PY'
def helper(x):
    return x * 2


def f(x):
    return helper(x) + 1
PY
cd "$WORK/prog"
run_litmus patches --buggy prog.py --tests test_prog.py --patches patches \
  --db "$WORK/p.db" --format json --no-progress
/usr/bin/python3 - "$WORK/out" <<'PY' || fail "verdicts"
import json, sys
doc = json.load(open(sys.argv[1]))
got = {p["run_id"]: p for p in doc["patches"]}
for run in ("run1", "run2"):
    p = got[run]
    assert (p["verdict"], p["reason"]) == ("invalid", "fails_tests"), (run, p["verdict"], p["reason"], p["detail"])
    assert "NameError" in p["detail"], (run, p["detail"])
assert got["run3"]["verdict"] in ("correct", "overfitting"), got["run3"]
assert got["run3"]["reason"] != "fails_tests", got["run3"]
PY
