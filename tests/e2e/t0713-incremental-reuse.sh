# Incremental runs: a later `litmus score` on the same store reuses the
# verdict of every mutant whose lines, covering tests and those tests'
# files are unchanged, and says how many; `--rerun survivors` runs only
# the survivors.  Verdicts stay those of a fresh run.
. "$(dirname "$0")/lib.sh"
proj=$WORK/proj
mkdir -p "$proj"
cd "$proj"
cat > calc.py <<'PY'
def add(a, b):
    return a + b


def sub(a, b):
    return a - b


def mul(a, b):
    return a * b


def clamp(x):
    return x if x < 10 else 10
PY
cat > test_a.py <<'PY'
from calc import add, sub, clamp


def test_add():
    assert add(2, 3) == 5


def test_sub():
    assert sub(3, 2) == 1


def test_clamp():
    assert clamp(3) == 3
PY
cat > test_b.py <<'PY'
from calc import mul


def test_mul():
    assert mul(2, 3) == 6
PY
db=$WORK/incr.db
meta() { q "$db" "SELECT value FROM meta WHERE key = '$1'"; }
score() {
  run_litmus score calc.py --tests test_a.py --tests test_b.py --db "$db" --no-progress --no-config -j 2 "$@"
  [ "$RC" = 0 ] || [ "$RC" = 1 ] || fail "score $*: exit $RC: $(cat "$WORK/err")"
}
# Verdicts keyed by what the mutant is, not where: comparable across trees.
verdicts() { q "$1" "SELECT m.op || ' ' || m.original || '>' || m.replacement || ' ' || (SELECT count(*) FROM mutants p WHERE p.file = m.file AND p.start < m.start) || ' ' || r.verdict FROM mutants m JOIN results r ON r.mutant_id = m.id ORDER BY m.start, m.op, m.replacement"; }
fresh() {
  rm -f "$WORK/fresh.db"
  run_litmus score calc.py --tests test_a.py --tests test_b.py --db "$WORK/fresh.db" --no-progress --no-config -j 2
  expect_eq "$(verdicts "$db")" "$(verdicts "$WORK/fresh.db")" "verdicts of the incremental run ($1)"
}

# 1. First run: everything runs, nothing reused.
score
n=$(q "$db" "SELECT count(*) FROM results r WHERE r.verdict IN ('killed', 'survived')")
[ "$n" -ge 6 ] || fail "too few mutants run: $n"
expect_eq "$(meta run_mutants_run)" "$n" "first run: mutants run"
expect_eq "$(meta run_reused)" 0 "first run: reused"
grep -q "reused" "$WORK/err" && fail "first run claims reuse: $(cat "$WORK/err")"
survivors=$(q "$db" "SELECT count(*) FROM results WHERE verdict = 'survived'")
[ "$survivors" -ge 1 ] || fail "the fixture should leave survivors"

# 2. Unchanged tree: nothing runs, every verdict reused.
score
expect_eq "$(meta run_mutants_run)" 0 "unchanged: mutants run"
expect_eq "$(meta run_reused)" "$n" "unchanged: reused"
grep -q "reused $n verdicts of an earlier run; 0 mutants to run" "$WORK/err" || fail "no reuse line: $(cat "$WORK/err")"
echo "unchanged tree: $(grep reused "$WORK/err")"

# 3. One code line changed, and lines moved by a comment on top: only the
# changed line's mutants run.
sed -i 's/return a - b$/return a - b - 0/' calc.py
sed -i '1i # moved' calc.py
score
changed=$(q "$db" "SELECT count(*) FROM mutants WHERE line = 7")
expect_eq "$changed" 3 "mutants on the changed line"
expect_eq "$(meta run_mutants_run)" "$changed" "one line changed: mutants run"
expect_eq "$(meta run_reused)" "$((n - 1))" "one line changed: reused"
echo "one line changed: $(grep reused "$WORK/err")"
fresh "one line changed"
n=$(q "$db" "SELECT count(*) FROM results r WHERE r.verdict IN ('killed', 'survived')")

# 4. A test file changed: the mutants its tests cover run again.
printf '\n\ndef test_mul_zero():\n    assert mul(0, 5) == 0\n' >> test_b.py
score
covered=$(q "$db" "SELECT count(*) FROM mutants m JOIN results r ON r.mutant_id = m.id WHERE m.line = 11 AND r.verdict IN ('killed', 'survived')")
[ "$covered" -ge 1 ] || fail "mul has no mutant"
expect_eq "$(meta run_mutants_run)" "$covered" "test file changed: mutants run"
expect_eq "$(meta run_reused)" "$((n - covered))" "test file changed: reused"
echo "test file changed: $(grep reused "$WORK/err")"
fresh "test file changed"

# 5. --rerun survivors: exactly the stored survivors run.
survivors=$(q "$db" "SELECT count(*) FROM results WHERE verdict = 'survived'")
score --rerun survivors
expect_eq "$(meta run_mutants_run)" "$survivors" "--rerun survivors: mutants run"
expect_eq "$(meta run_reused)" "$((n - survivors))" "--rerun survivors: reused"
echo "rerun survivors: $(grep reused "$WORK/err")"
fresh "rerun survivors"

run_litmus score calc.py --tests test_a.py --db "$db" --no-progress --no-config --rerun everything
expect_eq "$RC" 2 "--rerun with a bad value"
exit 0
