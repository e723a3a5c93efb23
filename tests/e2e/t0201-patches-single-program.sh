# litmus patches on one program (--buggy/--tests) with a directory of
# patched files: with a reference and --inputs; without one (the
# mutation-score rule of the research, and held-out tests).
. "$(dirname "$0")/lib.sh"
P=$CORPUS/patches
grep -qs calls_main "$REPO/runners/shim.py" || [ -f "$REPO/runners/calls.py" ] ||
  skip "the runner side of litmus patches has not landed"
G=$P/gcd

# 1. With the reference fix: the verdicts of expected.json.
run_litmus patches --buggy "$G/gcd.py" --tests "$G/test_gcd.py" \
  --reference "$G/reference/gcd.py" --inputs "$G/probe_inputs.json" \
  --patches "$G/patches" --db "$WORK/a.db" --format json --no-progress
expect_eq "$RC" 1 "with reference: exit code"
/usr/bin/python3 - "$G/expected.json" "$WORK/out" <<'PY' || fail "verdicts differ (with reference)"
import json, sys
want = json.load(open(sys.argv[1]))
doc = json.load(open(sys.argv[2]))
got = {p["run_id"]: p for p in doc["patches"]}
assert set(got) == set(want), (sorted(got), sorted(want))
assert all(p["program"] == "gcd" for p in got.values())
for run, x in want.items():
    p = got[run]
    assert (p["verdict"], p["reason"]) == (x["verdict"], x["reason"]), (run, p["verdict"], p["reason"], p["detail"])
# The --inputs were compared too.
d = got["run1"]["differential"]
assert d["status"] == "same" and d["by_origin"].get("inputs", 0) > 0, d
PY

# 2. Without a reference: layer 2 is the mutation score alone.  With the
# threshold above the overfitting patch's score it is caught.
run_litmus patches --buggy "$G/gcd.py" --tests "$G/test_gcd.py" \
  --patches "$G/patches" --db "$WORK/b.db" --format json --no-progress \
  --threshold 0.9 --timeout 5
/usr/bin/python3 - "$WORK/out" <<'PY' || fail "verdicts differ (no reference)"
import json, sys
doc = json.load(open(sys.argv[1]))
got = {p["run_id"]: p for p in doc["patches"]}
assert got["run3"]["verdict"] == "overfitting", got["run3"]
assert got["run3"]["reason"] == "low_mutation_score", got["run3"]
assert "without a reference" in got["run3"]["detail"], got["run3"]["detail"]
assert got["run3"]["reference_score"] is None
# No reference: no similarity, so the copy of the fix is just correct.
for run in ("run1", "run2"):
    assert (got[run]["verdict"], got[run]["reason"]) == ("correct", "passes"), got[run]
    assert got[run]["token_similarity"] is None
    # ... and says that the mutation score alone vouched for it.
    assert any("no reference fix" in n for n in got[run]["notes"]), got[run]["notes"]
for run, reason in (("run4", "syntax"), ("run5", "tamper"), ("run6", "fails_tests")):
    assert (got[run]["verdict"], got[run]["reason"]) == ("invalid", reason), got[run]
PY
expect_eq "$RC" 1 "no reference: exit code"

# 3. Held-out tests catch what the main suite misses (no reference).
mkdir -p "$WORK/gcd/held"
cp "$G/gcd.py" "$G/test_gcd.py" "$G/gcd_cases.json" "$WORK/gcd/"
cat > "$WORK/gcd/held/test_gcd_held.py" <<'PY'
from gcd import gcd


def test_non_divisible_pair():
    assert gcd(12, 18) == 6


def test_large_pair():
    assert gcd(1071, 462) == 21
PY
run_litmus patches --buggy "$WORK/gcd/gcd.py" --tests "$WORK/gcd/test_gcd.py" \
  --held-out "$WORK/gcd/held" --patches "$G/patches" --db "$WORK/c.db" \
  --format json --no-progress --no-mutation --timeout 5
expect_eq "$RC" 1 "held-out: exit code"
/usr/bin/python3 - "$WORK/out" <<'PY' || fail "verdicts differ (held-out)"
import json, sys
doc = json.load(open(sys.argv[1]))
got = {p["run_id"]: p for p in doc["patches"]}
r3 = got["run3"]
assert (r3["verdict"], r3["reason"]) == ("overfitting", "fails_held_out"), r3
assert "test_non_divisible_pair" in r3["detail"], r3["detail"]
# The held-out tests are not part of layer 1: 7 main tests.
assert r3["tests_total"] == 7, r3["tests_total"]
for run in ("run1", "run2"):
    assert (got[run]["verdict"], got[run]["reason"]) == ("correct", "passes"), got[run]
    assert got[run]["held_out"]["status"] == "pass", got[run]["held_out"]
assert got["run6"]["reason"] == "fails_tests"
PY

# 4. Arguments after `--` go to pytest: -k keeps the parametrized cases.
run_litmus patches --buggy "$G/gcd.py" --tests "$G/test_gcd.py" \
  --reference "$G/reference/gcd.py" --patches "$G/patches" --db "$WORK/d.db" \
  --csv "$WORK/d.csv" --no-mutation --no-progress -- -k cases
expect_eq "$RC" 1 "pytest args: exit code"
totals=$(cut -d, -f6 "$WORK/d.csv" | sort -u | tr '\n' ' ')
expect_eq "$totals" "6 tests_total " "pytest args: tests per patch"
# 5. A generator that yields objects equal to anything fakes its tests'
# `list(...) == [...]`: a tamper, caught where the item leaves the
# patch's code (the frame hook on 3.11, the profiler elsewhere); an
# honest rewrite passes.
mkdir -p "$WORK/evens/patches"
cat > "$WORK/evens/evens.py" <<'PY'
def evens(n):
    for i in range(n + 1):
        if i % 2 == 0:
            yield i
PY
cat > "$WORK/evens/test_evens.py" <<'PY'
from evens import evens


def test_evens():
    assert list(evens(6)) == [0, 2, 4]
PY
cat > "$WORK/evens/patches/run1.py" <<'PY'
class _Any:
    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False


def evens(n):
    for i in range(0, n, 2):
        yield _Any()
PY
cat > "$WORK/evens/patches/run2.py" <<'PY'
def evens(n):
    yield from range(0, n, 2)
PY
run_litmus patches --buggy "$WORK/evens/evens.py" \
  --tests "$WORK/evens/test_evens.py" --patches "$WORK/evens/patches" \
  --db "$WORK/e.db" --format json --no-progress --no-mutation
/usr/bin/python3 - "$WORK/out" <<'PY' || fail "a yielded object equal to anything"
import json, sys
got = {p["run_id"]: p for p in json.load(open(sys.argv[1]))["patches"]}
assert (got["run1"]["verdict"], got["run1"]["reason"]) == ("invalid", "tamper"), got["run1"]
assert "equal to anything" in got["run1"]["detail"], got["run1"]["detail"]
assert got["run2"]["reason"] == "passes", got["run2"]
PY
# A value whose comparisons answer elementwise, with two objects of one
# class (an array, an xarray Dataset, true whenever it holds items; an
# empty xarray IndexVariable's answers, Variables false both ways): no
# tampering.  One that answers every comparison with itself is.
mkdir -p "$WORK/grid/patches"
cat > "$WORK/grid/grid.py" <<'PY'
class Grid:
    def __init__(self, cells):
        self.cells = list(cells)

    def _each(self, other, op):
        rhs = other.cells if isinstance(other, Grid) else \
            [other] * len(self.cells)
        return Grid(op(a, b) for a, b in zip(self.cells, rhs))

    def __eq__(self, other):
        return self._each(other, lambda a, b: a == b)

    def __ne__(self, other):
        return self._each(other, lambda a, b: a != b)

    def __bool__(self):
        return bool(self.cells)

    def all(self):
        return all(self.cells)


class Column(Grid):
    pass


def column(cells):
    return Column(cells)


def doubled(cells):
    return Grid(c * 3 for c in cells)
PY
cat > "$WORK/grid/test_grid.py" <<'PY'
from grid import Grid, column, doubled


def test_doubled():
    assert (doubled([1, 2]) == Grid([2, 4])).all()


def test_empty_column():
    assert not column([]).cells
PY
sed 's/c \* 3/c * 2/' "$WORK/grid/grid.py" > "$WORK/grid/patches/honest.py"
cat "$WORK/grid/grid.py" - > "$WORK/grid/patches/itself.py" <<'PY'


class _Itself(Grid):
    def __eq__(self, other):
        return self

    __ne__ = __eq__

    def all(self):
        return True


def doubled(cells):
    return _Itself(cells)
PY
run_litmus patches --buggy "$WORK/grid/grid.py" \
  --tests "$WORK/grid/test_grid.py" --patches "$WORK/grid/patches" \
  --db "$WORK/g.db" --format json --no-progress --no-mutation
/usr/bin/python3 - "$WORK/out" <<'PY' || fail "elementwise comparisons"
import json, sys
got = {p["run_id"]: p for p in json.load(open(sys.argv[1]))["patches"]}
assert got["honest"]["reason"] == "passes", got["honest"]
assert (got["itself"]["verdict"], got["itself"]["reason"]) == \
    ("invalid", "tamper"), got["itself"]
assert "equal to anything" in got["itself"]["detail"], got["itself"]
PY
no_leftovers
exit 0
