# The baseline reports itself (issue "Heavy and hypothesis-driven real
# suites"): while every test runs on the original code, litmus shows the
# test runs done of those to do, and the time; in a log (stderr not a
# terminal) a plain line per interval (30 s; LITMUS_PROGRESS_INTERVAL
# here), on a terminal the live line the mutants use.  A baseline over
# before the interval writes nothing; --no-progress silences it.  The
# count is of tests the children finished: while the first test (which
# waits 1.5 s and covers nothing) runs in both runs, every line says 0.
. "$(dirname "$0")/lib.sh"
P=$WORK/proj
mkdir -p "$P"
cat >"$P/calc.py" <<'PY'
def double(x):
    return x * 2
PY
cat >"$P/test_calc.py" <<'PY'
import time

import pytest

from calc import double


def test_a_waits():
    time.sleep(1.5)


@pytest.mark.parametrize("n", range(11))
def test_double(n):
    time.sleep(0.05)
    assert double(n) == 2 * n
PY
score() { # db, then more arguments: stderr to $WORK/err
  local db=$1; shift
  (cd "$P" && "$LITMUS" score calc.py --tests test_calc.py --db "$db" -j 2 "$@") \
    >"$WORK/out" 2>"$WORK/err"
  RC=$?
}
baseline_lines() { grep -E '^litmus: [0-9]+/[0-9]+ baseline test' "$WORK/err"; }
counts() { sed -E 's|^litmus: ([0-9]+)/.*|\1|'; }

# 1. A log, a line every 0.2 s: two runs of 12 tests side by side.
LITMUS_PROGRESS_INTERVAL=0.2 score "$WORK/log.db"
expect_eq "$RC" 0 "exit code ($(cat "$WORK/err"))"
grep -q $'[\r\e]' "$WORK/err" && fail "control characters in a log: $(cat -A "$WORK/err")"
expect_eq "$(q "$WORK/log.db" "SELECT count(*) FROM tests")" 12 "tests stored"
baseline_lines >"$WORK/lines"
[ "$(wc -l <"$WORK/lines")" -ge 4 ] || fail "too few baseline lines: $(cat "$WORK/err")"
LINE='^litmus: [0-9]+/24 baseline test runs, 12 tests x 2 runs; [0-9hms]+ elapsed(, (estimating|(about [0-9hms]+|under 5s) left))?$'
bad=$(grep -Ev "$LINE" "$WORK/lines")
[ -z "$bad" ] || fail "malformed baseline lines: $bad"
[ "$(grep -c '^litmus: 0/24 ' "$WORK/lines")" -ge 2 ] ||
  fail "the count moved while no test had finished: $(cat "$WORK/lines")"
counts <"$WORK/lines" | sort -n -c 2>/dev/null || fail "the count went down: $(cat "$WORK/lines")"
[[ $(tail -1 "$WORK/lines") =~ ^litmus:\ 24/24\ baseline\ test\ runs,\ 12\ tests\ x\ 2\ runs\;\ [0-9hms]+\ elapsed$ ]] ||
  fail "last baseline line: $(tail -1 "$WORK/lines")"
first_mutants=$(grep -n -m1 -E '^litmus: [0-9]+/[0-9]+ mutants,' "$WORK/err" | cut -d: -f1)
last_baseline=$(grep -n -E '^litmus: [0-9]+/[0-9]+ baseline test' "$WORK/err" | tail -1 | cut -d: -f1)
[ -n "$first_mutants" ] && [ "$last_baseline" -lt "$first_mutants" ] ||
  fail "the baseline's lines do not come before the mutants': $(cat "$WORK/err")"

# 2. One run: tests, not test runs.
LITMUS_PROGRESS_INTERVAL=0.2 score "$WORK/one.db" --baseline-runs 1
expect_eq "$RC" 0 "exit code, --baseline-runs 1 ($(cat "$WORK/err"))"
baseline_lines >"$WORK/lines"
bad=$(grep -Ev '^litmus: [0-9]+/12 baseline tests; [0-9hms]+ elapsed(, (estimating|(about [0-9hms]+|under 5s) left))?$' "$WORK/lines")
[ -z "$bad" ] && [ -s "$WORK/lines" ] || fail "--baseline-runs 1: $(cat "$WORK/err")"
tail -1 "$WORK/lines" | grep -q '^litmus: 12/12 baseline tests; ' ||
  fail "--baseline-runs 1: last line $(tail -1 "$WORK/lines")"

# 3. At the default interval (30 s) a baseline of two seconds writes no
# line; the mutants' first and last lines stay.  --no-progress: nothing.
score "$WORK/default.db"
expect_eq "$RC" 0 "exit code, default interval"
baseline_lines && fail "a short baseline wrote lines: $(cat "$WORK/err")"
expect_eq "$(grep -cE '^litmus: [0-9]+/[0-9]+ mutants' "$WORK/err")" 2 "mutants' lines ($(cat "$WORK/err"))"
LITMUS_PROGRESS_INTERVAL=0.2 score "$WORK/quiet.db" --no-progress
expect_eq "$RC" 0 "exit code, --no-progress"
grep -q 'elapsed' "$WORK/err" && fail "--no-progress printed progress: $(cat "$WORK/err")"

# 4. A terminal: the live line, drawn once the baseline has lasted a
# second, and ended before the mutants' own.
if command -v script >/dev/null 2>&1; then
  (cd "$P" && script -qec "'$LITMUS' score calc.py --tests test_calc.py --db '$WORK/tty.db' -j 2" \
     /dev/null >"$WORK/tty" 2>&1 </dev/null) || fail "terminal run failed: $(cat -A "$WORK/tty")"
  grep -q $'\r\e\\[K0/24 baseline test runs, 12 tests x 2 runs; 1s elapsed' "$WORK/tty" ||
    fail "terminal: no live baseline line: $(cat -A "$WORK/tty")"
  grep -Eq $'\r\e\\[K24/24 baseline test runs, 12 tests x 2 runs; [0-9]s elapsed\r?$' "$WORK/tty" ||
    fail "terminal: the baseline's live line does not end: $(cat -A "$WORK/tty")"
fi
no_leftovers
