# A src/ layout neither installed nor in pytest's settings: litmus puts
# src/ on the path, says so once, and its baseline matches pytest run with
# PYTHONPATH=src (what a user would otherwise have to type).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/shapes.sh"
shape_copy src_plain
shape_score score src/slugkit --tests tests
n=$(grep -cF "$SRC_NOTE" "$WORK/err")
[ "$n" = 1 ] || fail "the src/ note should appear once, not $n times"
PYTHONPATH=src shape_check note /usr/bin/python3 tests
# The note is earned: plain pytest cannot import the package.
(cd "$P" && /usr/bin/python3 -m pytest -q tests >/dev/null 2>&1) &&
  fail "pytest without PYTHONPATH imported src/slugkit: the shape is wrong"
exit 0
