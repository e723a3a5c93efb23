# The unittest runner chosen by litmus: a suite written for
# `python -m unittest discover tests` (its modules import their sibling
# `helpers`, which only unittest's discovery puts on the path) cannot be
# collected by pytest; with no runner named, litmus collects it with
# unittest's discovery from --tests, says so in one note line, and scores
# it as --runner unittest would.  --runner pytest (on the command line or
# in [tool.litmus]) and arguments after `--` keep pytest's error and its
# hint; so does a suite that unittest cannot collect either.
. "$(dirname "$0")/lib.sh"
P=$WORK/grades
mkdir -p "$P/tests"
cat >"$P/grades.py" <<'PY'
def letter(score):
    if score >= 90:
        return "A"
    if score >= 75:
        return "B"
    return "C"


def average(scores):
    if not scores:
        return 0
    return sum(scores) / len(scores)
PY
: >"$P/tests/__init__.py"
cat >"$P/tests/helpers.py" <<'PY'
import unittest

from grades import letter


class GradeCase(unittest.TestCase):
    def assertLetter(self, score, want):
        self.assertEqual(letter(score), want)
PY
cat >"$P/tests/test_grades.py" <<'PY'
import unittest

from helpers import GradeCase

from grades import average


class LetterTest(GradeCase):
    def test_a(self):
        self.assertLetter(95, "A")
        self.assertLetter(90, "A")

    def test_b(self):
        self.assertLetter(80, "B")
        self.assertLetter(75, "B")

    def test_c(self):
        self.assertLetter(10, "C")


class AverageTest(unittest.TestCase):
    def test_average(self):
        self.assertEqual(average([80, 90]), 85)

    def test_empty(self):
        self.assertEqual(average([]), 0)
PY
(cd "$P" && /usr/bin/python3 -m unittest discover tests) >"$WORK/unittest.log" 2>&1 ||
  fail "the suite fails under unittest: $(cat "$WORK/unittest.log")"
(cd "$P" && /usr/bin/python3 -m pytest -q -p no:cacheprovider tests) >"$WORK/pytest.log" 2>&1 &&
  fail "pytest collects the suite: the shape is wrong"
score() { # arguments: stdout and stderr to $WORK/out, err
  (cd "$P" && "$LITMUS" score grades.py --no-progress "$@") >"$WORK/out" 2>"$WORK/err"
  RC=$?
}
NOTE="litmus: note: pytest could not collect the tests, which look like a unittest suite; unittest's discovery collects 5: they run with --runner unittest (--runner pytest keeps pytest)"
refused() { # what: pytest's error with its hint, exit 2, no note, nothing stored
  [ "$RC" = 2 ] || fail "$1: exit $RC, expected 2: $(cat "$WORK/err")"
  grep -q "^litmus: error: collection failed: tests/test_grades.py: ModuleNotFoundError: No module named 'helpers'" "$WORK/err" ||
    fail "$1: no collection error: $(cat "$WORK/err")"
  grep -q -- "pass --runner unittest" "$WORK/err" || fail "$1: no hint: $(cat "$WORK/err")"
  grep -q "note:" "$WORK/err" && fail "$1: a note: $(cat "$WORK/err")"
  [ ! -e "$P/.litmus.db" ] || fail "$1: a database was left"
}

# 1. No runner named: unittest, with the note, once.
score --tests tests
expect_eq "$RC" 0 "exit code ($(cat "$WORK/err"))"
expect_eq "$(grep -c 'note: pytest could not collect' "$WORK/err")" 1 "note lines"
grep -qxF "$NOTE" "$WORK/err" || fail "note: $(cat "$WORK/err")"
db=$P/.litmus.db
expect_eq "$(q "$db" "SELECT group_concat(nodeid || ' ' || outcome, ', ') FROM (SELECT * FROM tests ORDER BY idx)")" \
  "test_grades.AverageTest.test_average passed, test_grades.AverageTest.test_empty passed, test_grades.LetterTest.test_a passed, test_grades.LetterTest.test_b passed, test_grades.LetterTest.test_c passed" \
  "the tests, as unittest names them"
killed=$(q "$db" "SELECT count(*) FROM results WHERE verdict = 'killed'")
[ "$killed" -gt 0 ] || fail "no mutant killed"
bad=$(q "$db" "SELECT killed_by FROM results WHERE verdict = 'killed'" |
      grep -Ev '^test_grades\.[A-Za-z]+Test\.test_[a-z]+$')
[ -z "$bad" ] || fail "killers not named by unittest: $bad"

# 2. The same command again: the same choice, and every verdict and the
# baseline of every test reused.
total=$(q "$db" "SELECT count(*) FROM results")
score --tests tests
expect_eq "$RC" 0 "exit code again ($(cat "$WORK/err"))"
grep -qxF "$NOTE" "$WORK/err" || fail "note again: $(cat "$WORK/err")"
grep -q "reused the baseline of 5 of 5 tests; 0 to run" "$WORK/err" ||
  fail "baseline not reused: $(cat "$WORK/err")"
grep -q "reused $total verdicts of an earlier run; 0 mutants to run" "$WORK/err" ||
  fail "verdicts not reused: $(cat "$WORK/err")"
rm -f "$db"*

# 3. pytest named, on the command line or in [tool.litmus], or arguments
# after `--` (pytest's): pytest's error and hint, as before.
score --tests tests --runner pytest
refused "--runner pytest"
printf '[tool.litmus]\nrunner = "pytest"\n' >"$WORK/pytest.toml"
score --tests tests --config "$WORK/pytest.toml"
refused "runner = \"pytest\""
score --tests tests -- -q
refused "-- -q"

# 4. A suite unittest cannot collect either (a test module that imports
# a module nowhere to be found): pytest's error stands.
cat >"$P/tests/test_more.py" <<'PY'
import unittest

import gradebook_plugins


class MoreTest(unittest.TestCase):
    def test_x(self):
        self.assertTrue(gradebook_plugins)
PY
score --tests tests
refused "unittest cannot collect either"
no_leftovers
