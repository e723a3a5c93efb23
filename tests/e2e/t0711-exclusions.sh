# Exclusions: '# pragma: no mutate' lines, '# pragma: no mutate: start' /
# 'end' blocks, and exclude / exclude-operators in [tool.litmus].  Excluded
# mutants are not generated: they are not in the store at all.
. "$(dirname "$0")/lib.sh"
proj=$WORK/proj
mkdir -p "$proj"
cd "$proj"
cat > calc.py <<'PY'
def add(a, b):
    return a + b


def sub(a, b):
    return a - b  # pragma: no mutate


# pragma: no mutate: start
def mul(a, b):
    return a * b + 0
# pragma: no mutate: end


def div(a, b):
    return a / b + 1
PY
cat > legacy.py <<'PY'
def old(a):
    return a + 1
PY
cat > other.py <<'PY'
def twice(a):
    return a * 2
PY
cat > test_calc.py <<'PY'
from calc import add, sub, mul, div
from legacy import old
from other import twice


def test_add():
    assert add(2, 3) == 5
    assert sub(3, 2) == 1
    assert mul(2, 3) == 6


def test_div():
    assert div(6, 3) == 3


def test_other():
    assert old(1) == 2
    assert twice(2) == 4
PY
lines() { q "$1" "SELECT group_concat(line || ':' || op || ':' || replacement, ' ') FROM (SELECT line, op, replacement FROM mutants WHERE file LIKE '%/$2' ORDER BY line, start, op, replacement)"; }

# Pragmas only.
run_litmus score calc.py --tests test_calc.py --db "$WORK/p.db" --no-progress --no-config -j 2
expect_eq "$RC" 0 "pragma run: $(cat "$WORK/err")"
expect_eq "$(lines "$WORK/p.db" calc.py)" "2:operator:- 16:operator:* 16:operator:- 16:number:2" "mutants outside the pragmas"
expect_eq "$(q "$WORK/p.db" "SELECT count(*) FROM results")" 4 "results counted"
grep -q "^4 mutants in 1 file" "$WORK/out" || fail "excluded mutants counted: $(cat "$WORK/out")"

# exclude and exclude-operators from [tool.litmus].
cat > pyproject.toml <<'TOML'
[tool.litmus]
paths = ["."]
tests = ["test_calc.py"]
exclude = ["legacy*"]
exclude-operators = ["number", "operator:calc.py"]
TOML
run_litmus score --db "$WORK/c.db" --no-progress -j 2
expect_eq "$RC" 0 "config run: $(cat "$WORK/err")"
expect_eq "$(q "$WORK/c.db" "SELECT count(*) FROM files WHERE path LIKE '%/legacy.py'")" 0 "excluded file stored"
expect_eq "$(lines "$WORK/c.db" legacy.py)" "" "mutants of an excluded file"
expect_eq "$(lines "$WORK/c.db" calc.py)" "" "operator excluded in calc.py"
expect_eq "$(lines "$WORK/c.db" other.py)" "2:operator:/" "operator kept in other.py, number excluded everywhere"

# A bad operator name is a usage error.
cat > pyproject.toml <<'TOML'
[tool.litmus]
exclude-operators = ["nosuchop"]
TOML
run_litmus score calc.py --tests test_calc.py --db "$WORK/x.db" --no-progress
expect_eq "$RC" 2 "unknown operator in exclude-operators"
exit 0
