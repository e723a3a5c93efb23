# A test module that makes a temporary file when it is imported collects
# as under `python -m pytest`.  (Collection runs in the zygote inside the
# file-system view, where /tmp is not writable: click's tests failed to
# collect with "No usable temporary directory found".)
. "$(dirname "$0")/lib.sh"
proj=$WORK/proj
mkdir -p "$proj"
cat > "$proj/words.py" <<'PY'
def count(path, shortest=2):
    with open(path) as f:
        return len([w for w in f.read().split() if len(w) >= shortest])
PY
cat > "$proj/test_words.py" <<'PY'
import tempfile

from words import count

DATA = tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False)
DATA.write("a one two three")
DATA.close()


def test_count():
    assert count(DATA.name) == 3
PY
cd "$proj"
/usr/bin/python3 -m pytest -q -p no:cacheprovider >/dev/null 2>&1 ||
  fail "the suite does not pass under plain pytest"
run_litmus score words.py --tests test_words.py --db "$WORK/a.db" --no-progress
expect_eq "$RC" 0 "exit code ($(cat "$WORK/err"))"
expect_eq "$(q "$WORK/a.db" "SELECT group_concat(outcome, ',') FROM tests")" passed "baseline outcome"
/usr/bin/python3 "$REPO/tests/e2e/lib_oracle.py" "$WORK/a.db" "$proj" >"$WORK/oracle" 2>&1 ||
  fail "verdicts differ from plain pytest: $(cat "$WORK/oracle")"
no_leftovers
