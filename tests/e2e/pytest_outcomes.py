"""Compares the baseline test outcomes litmus stored (table `tests`) with
what `python -m pytest -rA` reports in the same directory and environment.

    pytest_outcomes.py DB PYTHON [PYTEST_ARGS...]

Runs PYTHON -m pytest --collect-only -q ARGS (every node id) and
PYTHON -m pytest -rA ARGS (the outcome of each) in the working directory,
maps pytest's outcomes to litmus's (PASSED and XPASS: passed; SKIPPED,
XFAIL and collected-but-unreported: skipped; FAILED, ERROR: failed) and
prints every difference.  Exit 0 when they agree, 1 when not, 2 when
pytest could not be run.  Used by the t04xx project-shape tests."""
import re
import sqlite3
import subprocess
import sys

SUMMARY = re.compile(r"^(PASSED|FAILED|ERROR|XFAIL|XPASS|SKIPPED) (.*)$")
MAPPED = {"PASSED": "passed", "XPASS": "passed", "XFAIL": "skipped",
          "SKIPPED": "skipped", "FAILED": "failed", "ERROR": "failed"}


def pytest_run(python, args):
    proc = subprocess.run([python, "-m", "pytest"] + args, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    return proc.returncode, proc.stdout


def reported_nodeid(rest, collected):
    """The node id a summary line names: the whole rest of the line, or
    the longest collected id followed by a space and a message (ids
    may hold spaces; XPASS lines have no " - " before the reason)."""
    if rest in collected:
        return rest
    best = None
    for nodeid in collected:
        if rest.startswith(nodeid + " ") and \
                (best is None or len(nodeid) > len(best)):
            best = nodeid
    return best


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    db, python, args = argv[1], argv[2], argv[3:]
    rc, out = pytest_run(python, ["--collect-only", "-q"] + args)
    collected = [line.strip() for line in out.splitlines()
                 if "::" in line and not line.startswith(" ")]
    if rc != 0 or not collected:
        print("pytest --collect-only failed (exit %d):\n%s" % (rc, out))
        return 2
    rc, out = pytest_run(python, ["-rA"] + args)
    expected = {nodeid: "skipped" for nodeid in collected}
    in_summary = False
    for line in out.splitlines():
        if "short test summary info" in line:
            in_summary = True
            continue
        m = SUMMARY.match(line) if in_summary else None
        # SKIPPED lines name a location ("[1] file:line: reason"), not a
        # node id: such tests stay "skipped" from the collection.
        nodeid = m and reported_nodeid(m.group(2), expected)
        if nodeid:
            expected[nodeid] = MAPPED[m.group(1)]
    if not in_summary:
        print("pytest -rA printed no summary (exit %d):\n%s" % (rc, out))
        return 2
    con = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
    stored = dict(con.execute("SELECT nodeid, outcome FROM tests"))
    con.close()
    problems = []
    for nodeid in sorted(set(expected) | set(stored)):
        want, got = expected.get(nodeid), stored.get(nodeid)
        if want != got:
            problems.append("  %s: pytest %s, litmus %s"
                            % (nodeid, want or "(not collected)",
                               got or "(not stored)"))
    counts = {}
    for outcome in expected.values():
        counts[outcome] = counts.get(outcome, 0) + 1
    summary = ", ".join("%s %d" % kv for kv in sorted(counts.items()))
    if problems:
        print("baseline outcomes differ from pytest -rA (%s):" % summary)
        print("\n".join(problems))
        return 1
    if counts.get("passed", 0) == 0:
        print("pytest passed no test: nothing to compare")
        return 1
    print("baseline outcomes match pytest -rA: %s" % summary)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
