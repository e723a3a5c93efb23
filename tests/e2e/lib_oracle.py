"""Ground truth for the e2e tests of fresh imports: applies each mutant of
a litmus store to a copy of the project, runs plain pytest there and
compares its exit status with the stored verdict (killed, timeout, crashed,
memory: pytest must fail; survived, no_coverage, equivalent: it must pass).

usage: lib_oracle.py DB PROJECT_DIR [--print-verdicts]
ORACLE_TIMEOUT (seconds, default 20): a pytest run longer than that counts
as failing, as litmus's timeout counts as detected.
ORACLE_PLUGINS=1: pytest loads the installed plugins (entry points), for a
project whose tests need one (hypothesis); by default it loads none, which
halves its start-up.
ORACLE_EVERY=N: checks only every Nth mutant (in file and offset order),
for suites whose plain runs are slow.
ORACLE_CMD: the command run in the copy instead of pytest (split on
spaces), e.g. "python3 -m unittest discover tests" for --runner unittest.
pytest itself runs in a fork of this process, which imported it once
(forked_pytest.py), when this process is /usr/bin/python3.
Prints one line per disagreement and a summary; exit 1 on any."""
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile

DETECTED = {"killed", "timeout", "crashed", "memory"}
PASSING = {"survived", "no_coverage", "equivalent"}
PYTHON = "/usr/bin/python3"


def main():
    # The pytest command in a fork of this interpreter when it is the one
    # the command names (forked_pytest.py: a third of the CPU time).
    forked = None
    if not os.environ.get("ORACLE_CMD", "").split() and \
            os.path.realpath(sys.executable) == os.path.realpath(PYTHON):
        import forked_pytest as forked
    db, project = sys.argv[1], os.path.realpath(sys.argv[2])
    show = "--print-verdicts" in sys.argv[3:]
    con = sqlite3.connect(db)
    files = {p: bytes(s) for p, s in con.execute("SELECT path, source FROM files")}
    rows = con.execute(
        "SELECT m.id, m.file, m.line, m.op, m.start, m.end_off, m.replacement,"
        " coalesce(r.verdict, 'pending') FROM mutants m"
        " LEFT JOIN results r ON r.mutant_id = m.id ORDER BY m.file, m.start")
    checked = bad = 0
    work = tempfile.mkdtemp(prefix="litmus-oracle-")
    every = max(1, int(os.environ.get("ORACLE_EVERY", "1")))
    try:
        for k, (mid, path, line, op, start, end, repl, verdict) in \
                enumerate(rows):
            if verdict == "invalid" or k % every:
                continue
            copy = os.path.join(work, "p")
            shutil.rmtree(copy, ignore_errors=True)
            shutil.copytree(project, copy, ignore=shutil.ignore_patterns(
                "__pycache__", ".pytest_cache", "*.db*"))
            rel = os.path.relpath(os.path.realpath(path), project)
            src = files[path]
            with open(os.path.join(copy, rel), "wb") as f:
                f.write(src[:start] + repl.encode() + src[end:])
            env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
            if os.environ.get("ORACLE_PLUGINS") != "1":
                env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
            timeout = float(os.environ.get("ORACLE_TIMEOUT", "20"))
            cmd = os.environ.get("ORACLE_CMD", "").split() or \
                [PYTHON, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
            if forked:
                rc = forked.run(cmd[3:], copy, env, timeout)
                rc = -1 if rc is None else rc
            else:
                try:
                    rc = subprocess.run(
                        cmd, cwd=copy, env=env, stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL, timeout=timeout).returncode
                except subprocess.TimeoutExpired:
                    rc = -1
            checked += 1
            agree = (verdict in DETECTED and rc != 0) or \
                (verdict in PASSING and rc == 0)
            if show or not agree:
                print("%s %s:%d %s %r: litmus %s, oracle exit %d" % (
                    "ok      " if agree else "DISAGREE", rel, line, op, repl,
                    verdict, rc))
            bad += not agree
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("oracle: %d mutants checked, %d disagreements" % (checked, bad))
    return 1 if bad or not checked else 0


if __name__ == "__main__":
    sys.exit(main())
