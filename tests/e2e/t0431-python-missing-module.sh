# An environment that cannot import what the tests need stops litmus
# before the first test with exit 2 and one line naming the module that
# cannot be imported, the file and line that imported it, the interpreter
# and where it looked: a venv whose pytest lacks one of its own
# dependencies, a pytest plugin whose dependency is missing, a conftest
# file and a test module that import what is not there.  (Interpreters
# that cannot serve at all: t0430.)
. "$(dirname "$0")/lib.sh"
unset VIRTUAL_ENV
P=$WORK/proj
mkdir -p "$P/shop"
cat >"$P/shop/__init__.py" <<'PY'
PY
cat >"$P/shop/cart.py" <<'PY'
def total(prices):
    return sum(prices)
PY
cat >"$P/test_cart.py" <<'PY'
from shop.cart import total


def test_total():
    assert total([1, 2]) == 3
PY
score() { # arguments (after the tests, ${TESTS:-test_cart.py}): exit code in RC, stderr in $WORK/err
  (cd "$P" && "$LITMUS" score shop/cart.py --tests "${TESTS:-test_cart.py}" --no-progress "$@") \
    >"$WORK/out" 2>"$WORK/err"
  RC=$?
}
one_line() { # what, then the extended regex the line must match
  [ "$RC" = 2 ] || fail "$1: exit $RC, expected 2: $(cat "$WORK/err")"
  expect_eq "$(wc -l <"$WORK/err")" 1 "$1: lines on stderr ($(cat "$WORK/err"))"
  grep -Eq -- "$2" "$WORK/err" || fail "$1: expected /$2/, got: $(cat "$WORK/err")"
  grep -q 'LITMUS_DEBUG\|shim raised' "$WORK/err" && fail "$1: no cause: $(cat "$WORK/err")"
  [ ! -e "$P/.litmus.db" ] || fail "$1: a database was left"
}
re() { printf '%s' "$1" | sed 's/[][\.*^$(){}?+|]/\\&/g'; } # a literal in a regex
venv() { # name, venv options: makes $WORK/name, sets VENV and SITE
  VENV=$WORK/$1; shift
  /usr/bin/python3 -m venv --without-pip "$@" "$VENV" >"$WORK/venv.log" 2>&1 ||
    skip "cannot make a venv: $(cat "$WORK/venv.log")"
  SITE=$("$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
}

# 1. A venv with pytest copied in and none of its dependencies.
from=$(/usr/bin/python3 -c 'import os, pytest; print(os.path.dirname(os.path.dirname(pytest.__file__)))') ||
  skip "Debian's python3 has no pytest"
venv lacking
cp -r "$from/pytest" "$from/_pytest" "$SITE/"
"$VENV/bin/python" -c 'import pytest' 2>/dev/null && fail "the venv can import pytest: the shape is wrong"
score --python "$VENV"
one_line "pytest without its dependencies" \
  "^litmus: error: cannot import pytest: ModuleNotFoundError: No module named '[A-Za-z0-9_.]+' \(imported by $(re "$SITE")/_?pytest/[^ ]+\.py:[0-9]+; not found by $(re "$VENV")/bin/python on its sys\.path, packages in $(re "$SITE")\)\$"
mod=$(sed -E "s/.*No module named '([^']+)'.*/\1/" "$WORK/err")
"$VENV/bin/python" -c "import $mod" 2>/dev/null && fail "the venv can import $mod"
/usr/bin/python3 -c "import $mod" 2>/dev/null || fail "$mod is no dependency of Debian's pytest"

# 2. A pytest plugin (an entry point in the venv) that imports what is
# not installed.
venv plugged --system-site-packages
mkdir -p "$SITE/litmus_broken_plugin-1.0.dist-info"
printf 'Metadata-Version: 2.1\nName: litmus-broken-plugin\nVersion: 1.0\n' \
  >"$SITE/litmus_broken_plugin-1.0.dist-info/METADATA"
printf '[pytest11]\nbroken = litmus_broken_plugin\n' \
  >"$SITE/litmus_broken_plugin-1.0.dist-info/entry_points.txt"
printf '"""A plugin."""\nimport litmus_absent_dep\n' >"$SITE/litmus_broken_plugin.py"
score --python "$VENV"
one_line "a plugin's dependency" \
  "^litmus: error: pytest ended before running tests: ModuleNotFoundError: No module named 'litmus_absent_dep' \(imported by $(re "$SITE")/litmus_broken_plugin\.py:2; not found by $(re "$VENV")/bin/python on its sys\.path, packages in $(re "$SITE")"

# 3. A conftest file and a test module, under the system's interpreter.
printf 'import litmus_absent_requests\n' >"$P/conftest.py"
score --python /usr/bin/python3
one_line "a conftest's import" \
  "^litmus: error: pytest ended before running tests \(exit status [0-9]+\): ImportError while loading conftest '$(re "$P")/conftest\.py': ModuleNotFoundError: No module named 'litmus_absent_requests' \(imported by $(re "$P")/conftest\.py:1; not found by /usr/bin/python3 on its sys\.path"
rm "$P/conftest.py"
cat >"$P/test_tax.py" <<'PY'
import shop.cart
from shop.tax import rate


def test_rate():
    assert rate() > 0
PY
TESTS=test_tax.py score --python /usr/bin/python3
one_line "a submodule a test imports" \
  "^litmus: error: collection failed: test_tax\.py: ModuleNotFoundError: No module named 'shop\.tax' \(imported by $(re "$P")/test_tax\.py:2; not found by /usr/bin/python3 in $(re "$P")/shop\)\$"
no_leftovers
