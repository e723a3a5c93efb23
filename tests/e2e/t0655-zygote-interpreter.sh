# The zygote runs in the interpreter's own executable (`python -c BOOT`,
# runners/zygote_client.c), not in an embedding of its libpython, and the
# tests see the process an embedded start gave them: hash seed 0, UTF-8
# mode, the user's PYTHON* variables under their own names (and no
# renamed copies), sys.argv [''], no '' first on sys.path, SIGINT as
# `python` has it (KeyboardInterrupt).  A sanitizer build starts its zygotes from libpython (a
# sanitized module cannot be loaded into the interpreter's executable):
# there the test of the executable must fail, and the others pass.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
P=$WORK/proj
mkdir -p "$P"
cat >"$P/calc.py" <<'PY'
def double(x):
    return 2 * x
PY
seeded=$(PYTHONHASHSEED=0 "$PY" -c "print(hash('litmus'))")
cat >"$P/test_calc.py" <<PY
import os, signal, sys
from calc import double

def test_double():
    assert double(3) == 6

def test_process_as_embedded():
    assert hash('litmus') == $seeded
    assert sys.flags.utf8_mode == 1
    assert os.environ.get('PYTHONFOO') == 'bar'
    assert not [k for k in os.environ if k.startswith('LITMUS_PYVAR_')]
    assert 'PYTHONHASHSEED' not in os.environ
    assert sys.argv == ['']
    assert sys.path[0] != ''
    assert signal.getsignal(signal.SIGINT) == signal.default_int_handler

def test_in_the_executable():
    with open('/proc/self/maps') as f:
        assert 'libpython3' not in f.read()
PY
(cd "$P" && PYTHONFOO=bar "$LITMUS" score calc.py --tests . --db "$WORK/z.db" \
   --python "$PY" --no-progress) >"$WORK/out" 2>"$WORK/err"
RC=$?
if [ "${LT_SANITIZED:-0}" = 1 ]; then
  # The baseline stops on the one failing test, and names it.
  expect_eq "$RC" 2 "exit of a sanitizer build (its zygote on libpython)"
  grep -q "1 test fails on the original code" "$WORK/err" &&
    grep -q "test_in_the_executable: AssertionError" "$WORK/err" ||
    fail "a sanitizer build: not the executable's test alone: $(cat "$WORK/err")"
else
  [ "$RC" -le 1 ] || fail "litmus failed: $(tail -n 5 "$WORK/err")"
  outcome() { q "$WORK/z.db" "SELECT outcome FROM tests WHERE nodeid = 'test_calc.py::$1'"; }
  expect_eq "$(outcome test_double)" passed "the plain test"
  expect_eq "$(outcome test_process_as_embedded)" passed \
    "the process as an embedded start leaves it"
  expect_eq "$(outcome test_in_the_executable)" passed \
    "the zygote in the interpreter's executable"
fi
no_leftovers
exit 0
