# Tests failing on the original code: all are listed with what the
# sandbox refused (exit 2); --deselect-failing leaves them out, stores
# them as 'failing', and the other tests still score the mutants.  A test
# that reads a variable of the caller's environment fails until
# --pass-env names it; one that starts a process passes.
. "$(dirname "$0")/lib.sh"
proj=$WORK/proj
mkdir -p "$proj"
cat > "$proj/app.py" <<'PY'
import os
import subprocess


def add(a, b):
    return a + b


def echo_version():
    out = subprocess.run(["echo", "1"], capture_output=True, text=True)
    return out.stdout.strip()


def token():
    return os.environ.get("APP_TOKEN", "")
PY
cat > "$proj/test_app.py" <<PY
from app import add, echo_version, token


def test_add():
    assert add(1, 2) == 3


def test_version():
    assert echo_version() == "1"


def test_token():
    assert token() == "s3cret"


def test_write_outside():
    with open("$proj/out.txt", "w") as f:
        f.write("x")
PY
cd "$proj"
export APP_TOKEN=s3cret
# The suite passes under plain pytest: only the sandbox makes two fail.
/usr/bin/python3 -m pytest -q -p no:cacheprovider test_app.py >/dev/null 2>&1 ||
  fail "the suite does not pass under plain pytest"
rm -f "$proj/out.txt"

run_litmus score app.py --tests test_app.py --db "$WORK/a.db" --no-progress
expect_eq "$RC" 2 "failing baseline: exit code"
grep -q '2 tests fail on the original code' "$WORK/err" ||
  fail "count missing: $(cat "$WORK/err")"
grep -q 'test_app.py::test_token: ' "$WORK/err" ||
  fail "the test of the caller's variable not named: $(cat "$WORK/err")"
grep -q 'test_app.py::test_version' "$WORK/err" &&
  fail "a test that starts a process failed: $(cat "$WORK/err")"
grep -Eq 'test_app.py::test_write_outside: .*(Permission denied|Read-only file system).*scratch' "$WORK/err" ||
  fail "write refusal not named: $(cat "$WORK/err")"
grep -q -- '--deselect-failing' "$WORK/err" || fail "no hint of --deselect-failing"
grep -q 'test_add' "$WORK/err" && fail "a passing test was listed"
[ ! -e "$proj/out.txt" ] || fail "the sandbox let a write outside scratch through"

run_litmus score app.py --tests test_app.py --db "$WORK/b.db" --no-progress --deselect-failing
expect_eq "$RC" 0 "--deselect-failing: exit code ($(cat "$WORK/err"))"
grep -q 'warning: 2 tests fail on the original code and are left out' "$WORK/err" ||
  fail "deselected tests not listed: $(cat "$WORK/err")"
expect_eq "$(q "$WORK/b.db" "SELECT group_concat(outcome, ',') FROM (SELECT outcome FROM tests ORDER BY idx)")" \
  "passed,passed,failing,failing" "stored test statuses"
# add's mutant (+ -> -) is killed by the test that still runs.

expect_eq "$(verdict_at "$WORK/b.db" app.py 6)" killed "add's mutant"
# --pass-env lets the variable through.
run_litmus score app.py --tests test_app.py --db "$WORK/d.db" --no-progress --pass-env APP_TOKEN
grep -q '1 test fails on the original code' "$WORK/err" ||
  fail "--pass-env APP_TOKEN: $(cat "$WORK/err")"
# The same through [tool.litmus].
printf '[tool.litmus]\ndeselect-failing = true\n' > "$proj/pyproject.toml"
run_litmus score app.py --tests test_app.py --db "$WORK/c.db" --no-progress
expect_eq "$RC" 0 "deselect-failing in pyproject: exit code ($(cat "$WORK/err"))"
exit 0
