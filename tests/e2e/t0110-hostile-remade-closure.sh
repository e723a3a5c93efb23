# The guard and a library that binds its functions anew: a context class
# of a library (as mpmath's MPContext() does) sets each of its functions
# on the class again whenever one of its objects is made, each a fresh
# closure over the same function.  A reference fix that first makes such
# an object in the tests is no tamper; a candidate that rebinds the same
# closure over a function of its own (same code, other behaviour) is.
. "$(dirname "$0")/lib.sh"
P=$WORK/prog
mkdir -p "$P" "$WORK/patches"
cat > "$P/ctxlib.py" <<'PY'
def _double(ctx, x):
    return 2 * x


_FUNCTIONS = {"double": _double}


class Context:
    def __init__(self):
        for name, f in _FUNCTIONS.items():
            self._bind(name, f)

    @classmethod
    def _bind(cls, name, f):
        def bound(self, *args):
            return f(self, *args)
        setattr(cls, name, bound)


Context()
PY
cat > "$P/calc.py" <<'PY'
def scaled(x):
    return x
PY
cat > "$P/fixed.py" <<'PY'
import ctxlib


def scaled(x):
    return ctxlib.Context().double(x)
PY
cat > "$P/test_calc.py" <<'PY'
import ctxlib
from calc import scaled


def test_scaled():
    assert scaled(3) == 6


def test_context():
    assert ctxlib.Context.double(None, 4) == 8
PY
cp "$P/fixed.py" "$WORK/patches/same.py"
cat > "$WORK/patches/rebinds.py" <<'PY'
import ctxlib


def scaled(x):
    ctx = ctxlib.Context()
    ctxlib.Context._bind("double", lambda c, v: 6 if v == 3 else 8)
    return ctx.double(x)
PY
run_litmus patches --buggy "$P/calc.py" --tests "$P/test_calc.py" --reference "$P/fixed.py" \
  --patches "$WORK/patches" --db "$WORK/a.db" -f json --no-progress --no-mutation \
  --diff-budget 0.5
[ "$RC" = 0 ] || [ "$RC" = 1 ] || fail "exit code $RC: $(tail -3 "$WORK/err")"
/usr/bin/python3 - "$WORK/out" <<'PY' || fail "verdicts: $(cat "$WORK/out")"
import json, sys
got = {p["run_id"]: p for p in json.load(open(sys.argv[1]))["patches"]}
same, bad = got["same"], got["rebinds"]
assert same["verdict"] in ("correct", "memorized"), same
assert (bad["verdict"], bad["reason"]) == ("invalid", "tamper"), bad
assert "Context.double" in bad["detail"], bad["detail"]
PY
