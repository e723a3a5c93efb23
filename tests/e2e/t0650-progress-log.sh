# Long runs report themselves (issue 25): when stderr is not a terminal,
# `litmus score` writes a plain progress line when the mutants start, then
# one per interval (30 s; LITMUS_PROGRESS_INTERVAL for tests) and a last
# one, each with done/total, the tally, the time so far and an estimate of
# the time left; on a terminal the live line carries the same estimate;
# --progress keeps the live line anywhere; --no-progress silences both.
# A run stopped with SIGTERM keeps what it committed, and the same command
# runs only the rest.  The fixture's one test waits 0.15 s without using
# the CPU, so each of its 12 mutants takes that long at little cost.
. "$(dirname "$0")/lib.sh"
FX=$FIXTURES/slow_tests
N=12
LINE="^litmus: [0-9]+/$N mutants, [0-9]+ killed, [0-9]+ survived, [0-9]+ other; [0-9hms]+ elapsed(, (estimating|(about [0-9hms]+|under 5s) left))?\$"

score() { # db, then more arguments: stdout and stderr to $WORK/out, err
  local db=$1; shift
  "$LITMUS" score "$FX" --tests "$FX" --db "$db" -j 1 "$@" \
    >"$WORK/out" 2>"$WORK/err"
  RC=$?
}
# The mutants' lines (the phases before them, the compilation, the
# collection and the baseline, have lines of their own when they last:
# t0651).
progress_lines() { grep -E '^litmus: [0-9]+/[0-9]+ mutants,' "$WORK/err"; }

# A log: a line every 0.05 s here.
LITMUS_PROGRESS_INTERVAL=0.05 score "$WORK/log.db"
expect_eq "$RC" 0 "exit code ($(cat "$WORK/err"))"
grep -q $'[\r\e]' "$WORK/err" && fail "control characters in a log: $(cat -A "$WORK/err")"
progress_lines >"$WORK/lines"
[ "$(wc -l <"$WORK/lines")" -ge 4 ] || fail "too few progress lines: $(cat "$WORK/err")"
bad=$(grep -Ev "$LINE" "$WORK/lines")
[ -z "$bad" ] || fail "malformed progress lines: $bad"
expect_eq "$(head -1 "$WORK/lines")" \
  "litmus: 0/$N mutants, 0 killed, 0 survived, 0 other; 0s elapsed, estimating" \
  "first line, when the mutants start"
grep -Eq ' left$' "$WORK/lines" || fail "no estimate of the time left: $(cat "$WORK/lines")"
sed -E 's|^litmus: ([0-9]+)/.*|\1|' "$WORK/lines" | sort -n -c 2>/dev/null ||
  fail "the count went down: $(cat "$WORK/lines")"
killed=$(q "$WORK/log.db" "SELECT count(*) FROM results WHERE verdict IN ('killed','timeout','crashed','memory')")
survived=$(q "$WORK/log.db" "SELECT count(*) FROM results WHERE verdict = 'survived'")
other=$(( $(q "$WORK/log.db" "SELECT count(*) FROM results") - killed - survived ))
last=$(tail -1 "$WORK/lines")
[[ $last =~ ^litmus:\ $N/$N\ mutants,\ $killed\ killed,\ $survived\ survived,\ $other\ other\;\ [0-9hms]+\ elapsed$ ]] ||
  fail "last line '$last': expected $N/$N, $killed killed, $survived survived, $other other, no estimate"

# The default interval, 30 s, is longer than this run: the first line
# and the last.
score "$WORK/default.db"
expect_eq "$RC" 0 "exit code, default interval"
expect_eq "$(progress_lines | wc -l)" 2 "lines at the default interval ($(cat "$WORK/err"))"
progress_lines | tail -1 | grep -q "^litmus: $N/$N mutants" || fail "no last line: $(cat "$WORK/err")"

# --no-progress: nothing.
LITMUS_PROGRESS_INTERVAL=0.05 score "$WORK/quiet.db" --no-progress
expect_eq "$RC" 0 "exit code, --no-progress"
grep -q 'elapsed' "$WORK/err" && fail "--no-progress printed progress: $(cat "$WORK/err")"

# --progress keeps its meaning: the live line, even into a file.
score "$WORK/live.db" --progress
expect_eq "$RC" 0 "exit code, --progress"
grep -q $'\r\e\\[K0/'"$N mutants" "$WORK/err" || fail "--progress: no live line: $(cat -A "$WORK/err")"
grep -Eq '^litmus: [0-9]+/' "$WORK/err" && fail "--progress: log lines as well: $(cat -A "$WORK/err")"

# A terminal: the live line, redrawn in place, with the estimate.
# (--no-progress is decided before stderr is looked at: the run above
# stands for a terminal too.)
if command -v script >/dev/null 2>&1; then
  script -qec "'$LITMUS' score '$FX' --tests '$FX' --db '$WORK/tty.db' -j 1" \
    /dev/null >"$WORK/tty" 2>&1 </dev/null || fail "terminal run failed: $(cat -A "$WORK/tty")"
  grep -q $'\r\e\\[K0/'"$N mutants, 0 killed, 0 survived, 0 other; 0s elapsed, estimating" "$WORK/tty" ||
    fail "terminal: no first live line: $(cat -A "$WORK/tty")"
  grep -Eq $'\r\e\\[K[0-9]+/'"$N mutants, .*; [0-9hms]+ elapsed, (about [0-9hms]+|under 5s) left" "$WORK/tty" ||
    fail "terminal: no estimate: $(cat -A "$WORK/tty")"
  grep -Eq $'\r\e\\[K'"$N/$N mutants, .* elapsed"$'\r?$' "$WORK/tty" ||
    fail "terminal: the live line does not end the run: $(cat -A "$WORK/tty")"
fi

# SIGTERM once a few mutants are done (read from the log, not the clock):
# exit 130, the last line says how many were done, the store holds at
# least those, and the same command runs only the rest.
db=$WORK/term.db
LITMUS_PROGRESS_INTERVAL=0.05 "$LITMUS" score "$FX" --tests "$FX" --db "$db" -j 1 \
  >/dev/null 2>"$WORK/err" &
pid=$!
for _ in $(seq 300); do
  grep -Eq "^litmus: ([2-9]|1[01])/$N mutants," "$WORK/err" && break
  sleep 0.05
done
kill -TERM "$pid"
wait "$pid"
expect_eq "$?" 130 "exit code after SIGTERM ($(cat "$WORK/err"))"
last=$(progress_lines | tail -1)
done_n=${last#litmus: }; done_n=${done_n%%/*}
stored=$(q "$db" "SELECT count(*) FROM results")
{ [ "$done_n" -ge 2 ] && [ "$done_n" -lt $N ]; } || fail "stopped after $done_n of $N: $(cat "$WORK/err")"
[ "$stored" -ge "$done_n" ] || fail "$done_n mutants done, $stored stored"
LITMUS_PROGRESS_INTERVAL=0.05 score "$db"
expect_eq "$RC" 0 "exit code of the resumed run ($(cat "$WORK/err"))"
expect_eq "$(progress_lines | head -1 | sed -E 's|^litmus: [0-9]+/([0-9]+) .*|\1|')" \
  $((N - stored)) "mutants left to the resumed run"
expect_eq "$(q "$db" "SELECT count(*) FROM results")" $N "results after the resumed run"
no_leftovers
