# The ground-truth check itself: 0 disagreements on an honest litmus run,
# a disagreement once a stored verdict is corrupted (killed -> survived),
# exit 2 on bad input.
. "$(dirname "$0")/lib.sh"
GT=$REPO/tests/groundtruth.py
P=$WORK/proj
mkdir -p "$P"
cat >"$P/clamp.py" <<'PY'
LOW = 0
HIGH = 10


def clamp(x, low=LOW, high=HIGH):
    if x < low:
        return low
    if x > high:
        return high
    return x


def unused(x, k=2):
    return x * k
PY
cat >"$P/test_clamp.py" <<'PY'
from clamp import clamp


def test_inside():
    assert clamp(5) == 5


def test_edges():
    assert clamp(-1) == 0
    assert clamp(11) == 10
    assert clamp(0) == 0
    assert clamp(10) == 10


def test_custom_bounds():
    assert clamp(7, 1, 3) == 3
    assert clamp(-7, -2, 3) == -2
PY
# The oracle's pytest runs load no installed plugin (the suite needs
# none): half the start-up of each.
gt() { PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 /usr/bin/python3 "$GT" "$@"; }
DB=$WORK/clamp.db
(cd "$P" && "$LITMUS" score clamp.py --tests test_clamp.py --db "$DB" --no-progress -j 2 >"$WORK/out" 2>"$WORK/err") ||
  fail "litmus score: $(cat "$WORK/err")"
killed=$(q "$DB" "SELECT count(*) FROM results WHERE verdict='killed'")
[ "$killed" -gt 0 ] || fail "nothing killed"
nocov=$(q "$DB" "SELECT count(*) FROM results WHERE verdict='no_coverage'")
[ "$nocov" -gt 0 ] || fail "expected no_coverage mutants in unused()"

# Honest run: every verdict agrees with plain pytest.
gt --db "$DB" --select all --jobs 2 >"$WORK/gt" 2>"$WORK/gterr"
rc=$?
expect_eq "$rc" 0 "groundtruth on an honest run ($(cat "$WORK/gt" "$WORK/gterr"))"
total=$(q "$DB" "SELECT count(*) FROM results WHERE verdict NOT IN ('invalid','error')")
grep -qx "groundtruth: $total checked, $total agree, 0 disagree" "$WORK/gt" ||
  fail "summary: $(tail -n 1 "$WORK/gt")"

# Corrupt one verdict: a killed mutant claimed as survived.  From here
# on, the runs are forks of the oracle (--fork), which must find the same.
id=$(q "$DB" "SELECT mutant_id FROM results WHERE verdict='killed' ORDER BY mutant_id LIMIT 1")
q "$DB" "UPDATE results SET verdict='survived' WHERE mutant_id='$id'"
gt --db "$DB" --select all --jobs 2 --fork >"$WORK/gt" 2>"$WORK/gterr"
rc=$?
expect_eq "$rc" 1 "groundtruth on a corrupted verdict ($(cat "$WORK/gt" "$WORK/gterr"))"
grep -q "^$id .* survived .* detected (failed" "$WORK/gt" || fail "the corrupted mutant is not listed: $(cat "$WORK/gt")"
grep -qx "groundtruth: $total checked, $((total - 1)) agree, 1 disagree" "$WORK/gt" ||
  fail "summary: $(tail -n 1 "$WORK/gt")"

# The other direction, and a no_coverage mutant claimed as killed, found
# by the no-coverage selection alone.
q "$DB" "UPDATE results SET verdict='killed' WHERE mutant_id='$id'"
nc=$(q "$DB" "SELECT mutant_id FROM results WHERE verdict='no_coverage' ORDER BY mutant_id LIMIT 1")
gt --db "$DB" --select no-coverage --jobs 2 --fork >"$WORK/gt" 2>&1
expect_eq "$?" 0 "no-coverage selection before corruption"
grep -qx "groundtruth: $nocov checked, $nocov agree, 0 disagree" "$WORK/gt" || fail "no-coverage summary: $(tail -n 1 "$WORK/gt")"
q "$DB" "UPDATE results SET verdict='timeout' WHERE mutant_id='$nc'"
gt --db "$DB" --select all --jobs 2 --fork >"$WORK/gt" 2>&1
expect_eq "$?" 1 "survivor claimed as a timeout"
grep -q "^$nc .* timeout .* survived (passed" "$WORK/gt" || fail "the survivor is not listed: $(cat "$WORK/gt")"

# outside-functions picks exactly the module-level constants and defaults.
gt --db "$DB" --select outside-functions -v --jobs 2 --fork >"$WORK/gt" 2>&1
lines=$(grep -E '^[0-9a-f]{16} ' "$WORK/gt" | awk '{print $2}' | sed 's/.*://' | sort -un | tr '\n' ' ')
expect_eq "$lines" "1 2 13 " "lines of the outside-functions mutants"

# Bad input: exit 2 with a message.
gt --db "$WORK/missing.db" >"$WORK/gt" 2>&1
expect_eq "$?" 2 "missing db"
grep -q "no such litmus store" "$WORK/gt" || fail "missing db message: $(cat "$WORK/gt")"
gt --db "$DB" --select nonsense >"$WORK/gt" 2>&1
expect_eq "$?" 2 "unknown selection"
grep -q "no such selection 'nonsense'" "$WORK/gt" || fail "selection message: $(cat "$WORK/gt")"
exit 0
