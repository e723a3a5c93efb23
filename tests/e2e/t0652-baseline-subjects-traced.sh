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
mkdir -p "$P"
cat >"$P/calc.py" <<'PYCODE'
import heapq
import statistics


def key(x):
    return -x


def evens(n):
    for i in range(n):
        if i % 2 == 0:
            yield i


class Box:
    def __init__(self, items):
        self.items = list(items)

    def __getitem__(self, i):
        return self.items[i] * 3


def late(x):
    return x + 1


def top3(data):
    return heapq.nsmallest(3, data, key=key)


def mean_evens(n):
    return statistics.mean(evens(n))
PYCODE
cat >"$P/test_calc.py" <<'PYCODE'
import difflib
import sys

from calc import Box, late, mean_evens, top3


def library_work():
    # Pure-Python library code: about 500000 line events.
    a = ["line %d of text" % i for i in range(900)]
    b = ["line %d of text" % (i * 7 % 900) for i in range(900)]
    return sum(1 for _ in difflib.unified_diff(a, b, lineterm=""))


def test_heavy():
    assert library_work() > 0
    assert top3([5, 1, 9, 7]) == [9, 7, 5]
    assert mean_evens(10) == 4
    box = Box(range(50))
    assert sum(box[i] for i in range(50)) == 3 * sum(range(50))
    assert library_work() > 0
    assert late(1) == 2


def test_light():
    assert late(2) == 3


def test_own_tracer():
    assert library_work() > 0
    seen = []

    def tracer(frame, event, arg):
        seen.append(event)

    sys.settrace(tracer)
    late(5)
    sys.settrace(None)
    assert "call" in seen
    assert top3([1, 2]) == [2, 1]
PYCODE
(cd "$P" && "$LITMUS" score calc.py --tests test_calc.py --db "$WORK/r.db" \
   --python "$PY" --no-progress) >"$WORK/out" 2>"$WORK/err"
expect_eq "$?" 0 "exit code ($(cat "$WORK/err"))"
expect_eq "$(q "$WORK/r.db" "SELECT verdict || ' ' || count(*) FROM results GROUP BY verdict")" \
  "killed 11" "verdicts"
work() { q "$WORK/r.db" "SELECT CAST(work AS INTEGER) FROM baseline_deps WHERE nodeid = 'test_calc.py::$1'"; }
heavy=$(work test_heavy) light=$(work test_light)
[ -n "$heavy" ] && [ "$heavy" -ge 65536 ] && [ "$heavy" -lt 131072 ] ||
  fail "test_heavy's work is $heavy: the libraries' frames were traced past the mark"
[ -n "$light" ] && [ "$light" -gt 1000 ] && [ "$light" -lt 65536 ] ||
  fail "test_light's work is $light: below the mark every line counts (pytest's too)"
cov() { q "$WORK/r.db" "SELECT coverage FROM tests WHERE nodeid = 'test_calc.py::$1'" | tr -d '\n'; }
expect_eq "$(cov test_heavy)" "$P/calc.py:6,10-12,17,20,24,28,32" "test_heavy's coverage"
expect_eq "$(cov test_light)" "$P/calc.py:24" "test_light's coverage"
expect_eq "$(cov test_own_tracer)" "" "coverage of a test that set its own tracer"
no_leftovers
