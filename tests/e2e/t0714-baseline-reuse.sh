# Reused baselines: a later `litmus score` on the same store runs again
# only the baseline tests whose files changed: a subject edited inside a
# function re-runs the tests that entered it; a test file, its own tests;
# a module constant, a conftest (as any helper module) or --fresh-baseline,
# every test.  The verdicts stay those of a fresh run after the edits.
. "$(dirname "$0")/lib.sh"
proj=$WORK/proj
mkdir -p "$proj"
cd "$proj"
cat > calc.py <<'PY'
LIMIT = 10


def add(a, b):
    return a + b


def clamp(x):
    return x if x < LIMIT else LIMIT
PY
cat > helpers.py <<'PY'
def two():
    return 2
PY
cat > conftest.py <<'PY'
import pytest


@pytest.fixture
def three():
    return 3
PY
cat > test_a.py <<'PY'
from calc import add, clamp
from helpers import two


def test_add(three):
    assert add(two(), three) == 5


def test_clamp():
    assert clamp(3) == 3
    assert clamp(30) == 10
PY
cat > test_b.py <<'PY'
from helpers import two


def test_two():
    assert two() == 2


def test_three(three):
    assert three == 3
PY
db=$WORK/base.db
meta() { q "$db" "SELECT value FROM meta WHERE key = '$1'"; }
score() {
  run_litmus score calc.py --tests test_a.py --tests test_b.py --db "$db" --no-progress --no-config -j 2 "$@"
  [ "$RC" = 0 ] || [ "$RC" = 1 ] || fail "score $*: exit $RC: $(cat "$WORK/err")"
}
verdicts() { q "$1" "SELECT m.op || ' ' || m.original || '>' || m.replacement || ' ' || (SELECT count(*) FROM mutants p WHERE p.file = m.file AND p.start < m.start) || ' ' || r.verdict FROM mutants m JOIN results r ON r.mutant_id = m.id ORDER BY m.start, m.op, m.replacement"; }
tests_table() { q "$1" "SELECT nodeid || ' ' || outcome || ' ' || coalesce(replace(coverage, '$proj/', ''), '-') FROM tests ORDER BY nodeid"; }
fresh() {
  rm -f "$WORK/fresh.db"
  run_litmus score calc.py --tests test_a.py --tests test_b.py --db "$WORK/fresh.db" --no-progress --no-config -j 2
  expect_eq "$(verdicts "$db")" "$(verdicts "$WORK/fresh.db")" "verdicts ($1)"
  expect_eq "$(tests_table "$db")" "$(tests_table "$WORK/fresh.db")" "baseline tests, outcomes and coverage ($1)"
}
expect_reused() { # count to-run what
  expect_eq "$(meta run_baseline_reused)" "$1" "$3: tests reused"
  if [ "$1" = 0 ]; then
    grep -q "reused the baseline" "$WORK/err" && fail "$3: claims a reused baseline: $(cat "$WORK/err")"
  else
    grep -q "reused the baseline of $1 of 4 tests; $2 to run" "$WORK/err" || fail "$3: no reuse line: $(cat "$WORK/err")"
  fi
  echo "$3: $(grep 'reused the baseline' "$WORK/err" || echo 'nothing reused')"
}

# 1. First run: every test runs.
score
expect_reused 0 4 "first run"
expect_eq "$(q "$db" "SELECT count(*) FROM tests WHERE outcome = 'passed'")" 4 "tests stored"

# 2. Unchanged tree: no test runs (the mutants' verdicts are reused too).
score
expect_reused 4 0 "unchanged"

# 3. A function body edited: the two tests that entered calc.py run.
sed -i 's/return a + b$/return b + a/' calc.py
score
expect_reused 2 2 "function body edited"
fresh "function body edited"

# 4. A test file edited: its own tests run.
printf '\n\ndef test_four():\n    assert two() + two() == 4\n' >> test_b.py
score
expect_eq "$(meta run_baseline_reused)" 2 "test file edited: tests reused"
grep -q "reused the baseline of 2 of 5 tests; 3 to run" "$WORK/err" || fail "test file edited: $(cat "$WORK/err")"
fresh "test file edited"
sed -i '/test_four/,$d' test_b.py
score

# 5. What every test depends on: each re-runs them all.
sed -i 's/^LIMIT = 10$/LIMIT = int("10")/' calc.py
score
expect_reused 0 4 "module constant edited"
fresh "module constant edited"
printf '\n\n# a comment\n' >> conftest.py
score
expect_reused 0 4 "conftest edited"
score --fresh-baseline
expect_reused 0 4 "--fresh-baseline"

# 6. A store's baseline rows damaged by hand: those tests run again.
q "$db" "UPDATE tests SET coverage = 'nonsense' WHERE nodeid LIKE '%test_clamp'"
score
expect_reused 3 1 "damaged coverage"

# 7. A change inside a function, scored with --since: only the test files
# the run needs are collected (the tests that entered the changed file,
# those covering its mutants), and the verdicts are a fresh run's.
since=$WORK/since
mkdir -p "$since"
cd "$since"
git init -q . && git config user.email t@t && git config user.name t
cat > shapes.py <<'PY'
def area(w, h):
    return w * h
PY
cat > colors.py <<'PY'
def mix(a, b):
    return (a + b) // 2
PY
cat > test_area.py <<'PY'
from shapes import area


def test_area():
    assert area(2, 3) == 6
PY
cat > test_mix.py <<'PY'
from colors import mix


def test_mix():
    assert mix(2, 4) == 3
PY
git add . && git commit -qm one
sdb=$WORK/since.db
sscore() { run_litmus score shapes.py colors.py --tests test_area.py --tests test_mix.py --no-progress --no-config -j 2 "$@"; }
sscore --db "$sdb"
[ "$RC" = 0 ] || [ "$RC" = 1 ] || fail "since, first run: exit $RC: $(cat "$WORK/err")"
sed -i 's/return w \* h$/return h * w/' shapes.py
git commit -qam two
sscore --db "$sdb" --since HEAD~1
[ "$RC" = 0 ] || [ "$RC" = 1 ] || fail "since, second run: exit $RC: $(cat "$WORK/err")"
grep -q "reused the baseline of 0 of 1 tests; 1 to run; 1 of 2 test files collected" "$WORK/err" || fail "narrowed collection: $(cat "$WORK/err")"
echo "narrowed: $(grep 'reused the baseline' "$WORK/err")"
expect_eq "$(q "$sdb" "SELECT count(*) FROM tests")" 2 "tests kept in the store"
rm -f "$WORK/fresh.db"
sscore --db "$WORK/fresh.db" --since HEAD~1
expect_eq "$(verdicts "$sdb")" "$(verdicts "$WORK/fresh.db")" "verdicts (narrowed)"
[ "$(q "$sdb" "SELECT count(*) FROM results WHERE verdict = 'killed'")" -ge 1 ] || fail "the narrowed run killed nothing"
exit 0
