# The traced baseline on CPython 3.12 and later takes its line events
# from sys.monitoring (runners/zygote_trace.c, "Line events from
# sys.monitoring"): each test's coverage is the one the system's 3.11
# records, for corpus programs (threads included) and for subjects' lines
# reached from library code (tests/fixtures/traced_calc, as in t0652);
# past a test's first 65536 line events the libraries' lines no longer
# come (the heavy test's work stays under 131072, where a tracer on for
# the whole test counts over a million);
# a test's own sys.settrace leaves the coverage whole.  Where a plugin
# already holds the monitoring tool id, the line tracer of before does
# the work: same coverage, every line counted, and one warning line says
# so and what it costs (once a run, whatever the tests and zygotes; none
# when the tool id is litmus's).  Each interpreter from
# 3.12 on that this machine has (pyenv's, python3.X on PATH) runs in a
# venv (the newest only under the sanitizers); with none, the test skips.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_pythons.sh"
SYS=/usr/bin/python3
"$SYS" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))' ||
  skip "$SYS is not CPython 3.11, whose coverage is the reference here"
lt_pythons | awk -F '[. ]' '$2 >= 12' >"$WORK/pythons"
# Under the sanitizers (make test), the newest of them only: the same C
# callbacks serve every version from 3.12, and each version costs the
# sanitized suite seven seconds; LT_E2E_FULL=1 runs them all.
if [ "${LT_SANITIZED:-0}" = 1 ] && [ "${LT_E2E_FULL:-0}" != 1 ]; then
  sort -t. -k2,2n "$WORK/pythons" | tail -n 1 >"$WORK/newest"
  mv "$WORK/newest" "$WORK/pythons"
fi
[ -s "$WORK/pythons" ] ||
  skip "no CPython 3.12 or later here (pyenv's, or python3.X on PATH)"

P=$WORK/proj
mkdir -p "$P"
for prog in lru_cache expr_parser thread_counter; do
  cp "$CORPUS/$prog"/*.py "$P/"
done
cp "$FIXTURES/traced_calc"/*.py "$P/"
subjects="lru_cache.py expr_parser.py thread_counter.py traced_calc.py"

# score_with PYTHON DB [ARGS...]: the baseline's coverage and work
# (--max-time 1: the run ends with the baseline, no mutant runs).
score_with() {
  local py=$1 db=$2
  shift 2
  (cd "$P" && "$LITMUS" score $subjects --tests . --db "$db" \
     --python "$py" --no-progress --max-time 1 "$@") >"$WORK/out" 2>"$WORK/err"
  [ "$?" -le 1 ] || fail "litmus under $py failed: $(tail -n 5 "$WORK/err")"
}
coverage_of() { # db: "nodeid coverage" per test, own tracer's left out
  q "$1" "SELECT nodeid || ' ' || replace(coverage, char(10), ' ') FROM tests
          WHERE nodeid NOT LIKE '%test_own_tracer' ORDER BY nodeid"
}
work_of() { # db test
  q "$1" "SELECT CAST(work AS INTEGER) FROM baseline_deps
          WHERE nodeid = 'test_traced_calc.py::$2'"
}
cov_of() { # db test
  q "$1" "SELECT coverage FROM tests
          WHERE nodeid = 'test_traced_calc.py::$2'" | tr -d '\n'
}

score_with "$SYS" "$WORK/ref.db"
coverage_of "$WORK/ref.db" >"$WORK/ref.cov"
[ "$(grep -c 'thread_counter.py:' "$WORK/ref.cov")" -ge 3 ] ||
  fail "reference coverage lacks the thread tests: $(cat "$WORK/ref.cov")"
# sys.settrace in a test takes 3.11's tracer away.
expect_eq "$(cov_of "$WORK/ref.db" test_own_tracer)" "" \
  "3.11: coverage of a test that set its own tracer"

while read -r v py; do
  venv=$WORK/venv-$v
  lt_test_venv "$py" "$venv" >"$WORK/venv.log" 2>&1 ||
    fail "cannot make a test venv of $py: $(tail -n 3 "$WORK/venv.log")"
  db=$WORK/mon-$v.db
  score_with "$venv/bin/python" "$db"
  coverage_of "$db" >"$WORK/mon.cov"
  diff "$WORK/ref.cov" "$WORK/mon.cov" >"$WORK/diff" ||
    fail "$v: coverage differs from 3.11's: $(cat "$WORK/diff")"
  heavy=$(work_of "$db" test_heavy) light=$(work_of "$db" test_light)
  [ -n "$heavy" ] && [ "$heavy" -ge 65536 ] && [ "$heavy" -lt 131072 ] ||
    fail "$v: test_heavy's work is $heavy: library lines came past the mark"
  [ -n "$light" ] && [ "$light" -gt 1000 ] && [ "$light" -lt 65536 ] ||
    fail "$v: test_light's work is $light: below the mark every line counts"
  expect_eq "$(cov_of "$db" test_own_tracer)" "$P/traced_calc.py:6,24,28" \
    "$v: coverage of a test that set its own tracer"
  ! grep -q "tool id" "$WORK/err" ||
    fail "$v: a warning of the tool id with sys.monitoring in use: $(cat "$WORK/err")"

  # A plugin holds tool id 3 (sys.monitoring): the line tracer instead.
  cat >"$P/conftest.py" <<'PYCODE'
import sys

sys.monitoring.use_tool_id(3, "a plugin of the project")
PYCODE
  db=$WORK/legacy-$v.db
  score_with "$venv/bin/python" "$db" --jobs 2
  rm -f "$P/conftest.py"
  n=$(grep -c "^litmus: warning: sys.monitoring's tool id 3 is taken.*line tracer.*slower baseline" "$WORK/err")
  expect_eq "$n" 1 "$v, tool id taken: warning lines ($(cat "$WORK/err"))"
  coverage_of "$db" >"$WORK/legacy.cov"
  diff "$WORK/ref.cov" "$WORK/legacy.cov" >"$WORK/diff" ||
    fail "$v, tool id taken: coverage differs from 3.11's: $(cat "$WORK/diff")"
  heavy=$(work_of "$db" test_heavy)
  [ -n "$heavy" ] && [ "$heavy" -ge 1000000 ] ||
    fail "$v, tool id taken: test_heavy's work is $heavy, not every line"
done <"$WORK/pythons"
no_leftovers
