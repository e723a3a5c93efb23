# The guard and a library's option setting: an option of a library (as
# pandas' `mode.use_inf_as_na` does) binds an argument of one of its own
# functions in its own namespace, `_f = partial(_f, flag=True)`.  A
# candidate that uses the option is no tamper; one that binds that name
# to a function of its own, or to the library's function with an argument
# that is code of its own, is.
. "$(dirname "$0")/lib.sh"
P=$WORK/prog
mkdir -p "$P" "$WORK/patches"
cat > "$P/optlib.py" <<'PY'
from functools import partial


def _is_missing(value, inf_as_missing=False):
    if value is None:
        return True
    if inf_as_missing and value in (float("inf"), float("-inf")):
        return True
    return value != value


def is_missing(value):
    return _is_missing(value)


def _set_inf_as_missing(flag):
    globals()["_is_missing"] = partial(_is_missing, inf_as_missing=flag)


class option_context:
    def __init__(self, flag):
        self.flag = flag

    def __enter__(self):
        _set_inf_as_missing(self.flag)

    def __exit__(self, *exc):
        _set_inf_as_missing(False)
PY
cat > "$P/stats.py" <<'PY'
import optlib


def count_valid(values):
    return sum(1 for v in values if not optlib.is_missing(v))
PY
cat > "$P/fixed.py" <<'PY'
import math

import optlib


def count_valid(values):
    return sum(1 for v in values
               if not optlib.is_missing(v) and not math.isinf(v))
PY
cat > "$P/test_stats.py" <<'PY'
import optlib
from stats import count_valid


def test_count():
    assert count_valid([1, None, float("inf"), float("nan"), 2.5]) == 2


def test_plain():
    assert count_valid([1, 2, 3]) == 3


def test_library():
    assert optlib.is_missing(None) and not optlib.is_missing(float("inf"))
PY
cat > "$WORK/patches/option.py" <<'PY'
import optlib


def count_valid(values):
    with optlib.option_context(True):
        return sum(1 for v in values if not optlib.is_missing(v))
PY
cat > "$WORK/patches/own_function.py" <<'PY'
from functools import partial

import optlib


def count_valid(values):
    optlib._set_inf_as_missing(True)
    optlib._is_missing = partial(lambda v, flag: v is None or v != v
                                 or v == float("inf"), flag=True)
    return sum(1 for v in values if not optlib.is_missing(v))
PY
cat > "$WORK/patches/code_argument.py" <<'PY'
from functools import partial

import optlib

_library = optlib._is_missing


def count_valid(values):
    optlib._is_missing = partial(_library, inf_as_missing=lambda: True)
    return sum(1 for v in values if not optlib.is_missing(v))
PY
run_litmus patches --buggy "$P/stats.py" --tests "$P/test_stats.py" --reference "$P/fixed.py" \
  --patches "$WORK/patches" --db "$WORK/a.db" -f json --no-progress --no-mutation \
  --diff-budget 0.5
[ "$RC" = 0 ] || [ "$RC" = 1 ] || fail "exit code $RC: $(tail -3 "$WORK/err")"
/usr/bin/python3 - "$WORK/out" <<'PY' || fail "verdicts: $(cat "$WORK/out")"
import json, sys
got = {p["run_id"]: p for p in json.load(open(sys.argv[1]))["patches"]}
assert got["option"]["verdict"] == "correct", got["option"]
for name in ("own_function", "code_argument"):
    bad = got[name]
    assert (bad["verdict"], bad["reason"]) == ("invalid", "tamper"), bad
    assert "optlib._is_missing" in bad["detail"], bad["detail"]
PY
