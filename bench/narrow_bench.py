#!/usr/bin/python3
"""Tests run per class-body and import-time mutant, by two litmus builds
side by side on a copy of a real project, and the survivors of the newer
one checked against plain pytest.  Standard library only; the project is
never changed (runs go on temporary copies).

    /usr/bin/python3 bench/narrow_bench.py BEFORE AFTER DIR --paths P [P...]
        --tests T [T...] --lines FILE:L[,L|L-L...] [--lines ...]
        [--check] [--keep] [-- PYTEST_ARGS...]

BEFORE and AFTER are litmus binaries (say a copy of an older build/ and
build/litmus).  The copy of DIR becomes a git repository; a space is
appended to each line of --lines (FILE relative to DIR) and the score of
the paths runs with `--since HEAD`, so that only those lines' mutants are
scored, once per binary, each on its own copy:

    LITMUS score PATHS --tests TESTS --since HEAD --db DB --no-progress
        [-- PYTEST_ARGS]

Printed: per mutant (line, operator), each build's verdict and tests run
(the stored tests_run: the whole selection for a survivor, the tests up
to the first failure for a killed mutant); per build the wall time, the
tests run in all, and the tests run per survivor; and whether the
verdicts agree.  With --check, tests/groundtruth.py then runs every
survivor of AFTER's store in plain pytest on a mutated copy
(`--select all --verdict survived`): its exit status (0: no
disagreement) is this script's.  The interpreter is BENCH_PYTHON or
/usr/bin/python3.
"""

import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
IGNORE = shutil.ignore_patterns(".git", "__pycache__", ".pytest_cache",
                                ".litmus.db*", "*.db", "*.db-*", ".venv",
                                ".tox", ".nox")


def usage(msg):
    print("narrow_bench: %s" % msg, file=sys.stderr)
    print(__doc__.split("\n\n")[1], file=sys.stderr)
    sys.exit(2)


def parse(argv):
    o = {"paths": [], "tests": [], "lines": [], "check": False,
         "keep": False, "pytest": []}
    if "--" in argv:
        i = argv.index("--")
        argv, o["pytest"] = argv[:i], argv[i + 1:]
    if len(argv) < 3:
        usage("BEFORE, AFTER and DIR are needed")
    o["before"], o["after"], o["dir"] = (os.path.abspath(a)
                                         for a in argv[:3])
    rest, key = argv[3:], None
    for a in rest:
        if a in ("--paths", "--tests", "--lines"):
            key = a[2:]
        elif a in ("--check", "--keep"):
            o[a[2:]] = True
            key = None
        elif key:
            o[key].append(a)
        else:
            usage("unexpected %r" % a)
    if not o["paths"] or not o["tests"] or not o["lines"]:
        usage("--paths, --tests and --lines are needed")
    return o


def line_numbers(spec):
    out = set()
    for part in spec.split(","):
        a, _, b = part.partition("-")
        out.update(range(int(a), int(b or a) + 1))
    return out


def git(cwd, *args):
    subprocess.run(["git", "-c", "user.name=bench", "-c",
                    "user.email=bench@localhost", *args], cwd=cwd,
                   check=True, stdout=subprocess.DEVNULL)


def marked_copy(o, dest):
    """The project copied to dest, committed, then the lines marked."""
    shutil.copytree(o["dir"], dest, ignore=IGNORE, symlinks=True)
    git(dest, "init", "-q")
    git(dest, "add", "-A")
    git(dest, "commit", "-q", "-m", "base")
    for spec in o["lines"]:
        rel, _, nums = spec.rpartition(":")
        path = os.path.join(dest, rel)
        with open(path, "rb") as f:
            lines = f.read().split(b"\n")
        for n in line_numbers(nums):
            lines[n - 1] += b" "
        with open(path, "wb") as f:
            f.write(b"\n".join(lines))


def run(o, litmus, tree, db):
    cmd = [litmus, "score", *o["paths"]]
    for t in o["tests"]:
        cmd += ["--tests", t]
    cmd += ["--since", "HEAD", "--db", db, "--no-progress"]
    if o["pytest"]:
        cmd += ["--", *o["pytest"]]
    t0 = time.monotonic()
    p = subprocess.run(cmd, cwd=tree, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - t0
    if p.returncode not in (0, 1):
        sys.stderr.write(p.stderr[-3000:])
        print("narrow_bench: %s exited %d" % (litmus, p.returncode),
              file=sys.stderr)
        sys.exit(3)
    con = sqlite3.connect(db)
    rows = con.execute(
        "SELECT m.file, m.line, m.op, m.start, r.verdict, r.tests_run "
        "FROM mutants m JOIN results r ON r.mutant_id = m.id "
        "ORDER BY m.file, m.start, m.op").fetchall()
    con.close()
    return " ".join(cmd), wall, rows


def main(argv):
    o = parse(argv)
    work = tempfile.mkdtemp(prefix="narrow-bench-")
    try:
        base = os.path.join(work, "marked")
        marked_copy(o, base)
        out = {}
        for name in ("before", "after"):
            tree = os.path.join(work, name)
            shutil.copytree(base, tree, symlinks=True)
            db = os.path.join(work, name + ".db")
            out[name] = run(o, o[name], tree, db) + (db, tree)
            print("%s: %s  (%.1f s)" % (name, out[name][0], out[name][1]))
        before, after = out["before"][2], out["after"][2]
        print("\n%-34s %-9s %10s %10s" % ("mutant", "op", "before",
                                          "after"))
        agree = 0
        for b, a in zip(before, after):
            where = "%s:%d" % (os.path.basename(b[0]), b[1])
            print("%-34s %-9s %10s %10s" % (
                where, b[2], "%s/%s" % (b[4][:4], b[5]),
                "%s/%s" % (a[4][:4], a[5])))
            agree += b[4] == a[4]
        for name in ("before", "after"):
            rows = out[name][2]
            surv = [r[5] or 0 for r in rows if r[4] == "survived"]
            print("%s: %d mutants, %.1f s, %d tests run, %d survivors "
                  "running %.1f tests each" % (
                      name, len(rows), out[name][1],
                      sum(r[5] or 0 for r in rows), len(surv),
                      sum(surv) / len(surv) if surv else 0))
        print("verdicts equal: %d of %d%s" % (
            agree, len(before), "" if len(before) == len(after)
            else " (the builds scored different mutants)"))
        rc = 0
        if o["check"]:
            cmd = [os.environ.get("BENCH_PYTHON", "/usr/bin/python3"),
                   os.path.join(HERE, "..", "tests", "groundtruth.py"),
                   "--db", out["after"][3], "--select", "all", "--verdict",
                   "survived", "--jobs", "2"]
            print("\nsurvivor check: %s" % " ".join(cmd), flush=True)
            rc = subprocess.run(cmd).returncode
            print("survivor check: exit %d (0: every survivor survives "
                  "plain pytest too)" % rc)
        return rc
    finally:
        if o["keep"]:
            print("kept: %s" % work)
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
