# The traced baseline traces the subjects' frames, not the libraries'
# (issue "Heavy and hypothesis-driven real suites", part 2): past a
# test's first 65536 line events the frames that start run traced only
# when their code is a subject's (runners/zygote_trace.c, CPython 3.11;
# the frames running at the mark keep the tracer until they return).  A
# test's work (its line events, which order the tests) then stays near
# the mark however much library code it starts after it; a test below
# the mark still counts every line.  The subjects' lines reached from library code (a key
# function heapq calls, a generator statistics consumes, __getitem__,
# a call after the library returned) are all covered, and a test's own
# sys.settrace replaces ours as it always did.  Were the libraries'
# frames traced again, test_heavy's work would be over a million.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
[ -x "$PY" ] && "$PY" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))' ||
  skip "$PY is not CPython 3.11 (the frame hook knows 3.11's frames only)"
P=$WORK/proj
cp -r "$FIXTURES/traced_calc" "$P"
(cd "$P" && "$LITMUS" score traced_calc.py --tests test_traced_calc.py --db "$WORK/r.db" \
   --python "$PY" --no-progress) >"$WORK/out" 2>"$WORK/err"
expect_eq "$?" 0 "exit code ($(cat "$WORK/err"))"
expect_eq "$(q "$WORK/r.db" "SELECT verdict || ' ' || count(*) FROM results GROUP BY verdict")" \
  "killed 11" "verdicts"
work() { q "$WORK/r.db" "SELECT CAST(work AS INTEGER) FROM baseline_deps WHERE nodeid = 'test_traced_calc.py::$1'"; }
heavy=$(work test_heavy) light=$(work test_light)
[ -n "$heavy" ] && [ "$heavy" -ge 65536 ] && [ "$heavy" -lt 131072 ] ||
  fail "test_heavy's work is $heavy: the libraries' frames were traced past the mark"
[ -n "$light" ] && [ "$light" -gt 1000 ] && [ "$light" -lt 65536 ] ||
  fail "test_light's work is $light: below the mark every line counts (pytest's too)"
cov() { q "$WORK/r.db" "SELECT coverage FROM tests WHERE nodeid = 'test_traced_calc.py::$1'" | tr -d '\n'; }
expect_eq "$(cov test_heavy)" "$P/traced_calc.py:6,10-12,17,20,24,28,32" "test_heavy's coverage"
expect_eq "$(cov test_light)" "$P/traced_calc.py:24" "test_light's coverage"
expect_eq "$(cov test_own_tracer)" "" "coverage of a test that set its own tracer"
no_leftovers
