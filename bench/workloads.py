#!/usr/bin/python3
"""Field workloads for litmus's speed (issue 14), side by side with a
process-per-mutant comparator in the same run.  Standard library only.

    /usr/bin/python3 bench/workloads.py LITMUS [WORKLOAD...]

Workloads, generated into a temporary directory (never committed):
  iopkg    a 6-module package whose 60 tests each wait 30 ms (I/O-bound),
           with module-level constants and __init__.py imports;
  iopkg9   the same shape with 9 modules and 135 tests of 50 ms each;
  slowrec  a small program with one slow test (exponential recursion,
           about 1.5 s) among fast ones;
  heavy    a module of a hundred constants and a table built at import
           (PRIMES = tuple(sieve(211))), each read by a few tests, and
           one slow test (about 1.5 s) that reads none of them: mutants
           of import-time lines must not run it.

For each: litmus's whole run (wall), mutants, wall per mutant; the
comparator (what mutmut 2.5.1 does: a fresh `python -m pytest -x` on a
copy with the mutant applied) on a sample of BENCH_SAMPLE mutants (default
12), its wall per mutant; the ratio; litmus's baseline time; and the
bound of any tool that runs each mutant's tests in 2 children (what
mutmut 3 does, in-process, with 2 children): the test time the verdicts
need (a killed mutant: its killing test; any other: every test litmus
ran for it, at the suite's mean test time) over 2.  An I/O-bound suite
must spend that time whatever the engine; litmus beats it only by
running more children.  Ratios, not absolute times: the machines are
shared and noisy.
Environment: BENCH_SAMPLE=N, BENCH_JOBS=N (litmus --jobs), BENCH_PYTHON.
"""

import os
import random
import sqlite3
import subprocess
import sys
import tempfile
import time

PYTHON = os.environ.get("BENCH_PYTHON", "/usr/bin/python3")


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def make_iopkg(root, modules=("pricing", "stock", "orders", "ship", "tax",
                               "report"), wait=0.03, inputs=(3, 30)):
    """A package whose tests wait on I/O (sleep), a test per function and
    input, module-level constants used by the functions."""
    init = "".join("from .%s import *  # noqa\n" % m for m in modules)
    write(os.path.join(root, "shop", "__init__.py"),
          "VERSION = (1, 4)\n" + init)
    tests = ["import time\n\nimport shop\n\n\n"
             "def wait():\n    time.sleep(%g)\n\n\n" % wait]
    for k, m in enumerate(modules):
        src = ["LIMIT_%d = %d\nRATE_%d = %d\nNAMES_%d = [\n" % (k, 10 + k, k,
                                                             3 + k, k)]
        src += ['    "%s_%d",\n' % (m, j) for j in range(3)]
        src.append("]\n\n__all__ = [\n")
        src += ['    "%s_f%d",\n' % (m, j) for j in range(5)]
        src.append("]\n\n")
        for j in range(5):
            src.append(
                "def %s_f%d(x, y):\n"
                "    if x > LIMIT_%d:\n"
                "        return x * RATE_%d - y\n"
                "    total = 0\n"
                "    for i in range(x):\n"
                "        total += i + y\n"
                "    return total + len(NAMES_%d)\n\n\n" % (m, j, k, k, k))
        write(os.path.join(root, "shop", m + ".py"), "".join(src))
        for j in range(5):
            for t, x in enumerate(inputs):
                tests.append(
                    "def test_%s_f%d_%d():\n    wait()\n"
                    "    assert shop.%s_f%d(%d, 2) == %r\n\n\n"
                    % (m, j, t, m, j, x, _iopkg_value(k, x, 2)))
    write(os.path.join(root, "tests", "test_shop.py"), "".join(tests))
    return ["shop"], ["tests"]


def _iopkg_value(k, x, y):
    if x > 10 + k:
        return x * (3 + k) - y
    return sum(i + y for i in range(x)) + 3


def make_slowrec(root):
    """Fast tests and one slow test (exponential recursion) of the same
    module: the slow one must be paid once on the critical path."""
    write(os.path.join(root, "fibs.py"),
          "def fib(n):\n"
          "    if n < 2:\n"
          "        return n\n"
          "    return fib(n - 1) + fib(n - 2)\n\n\n"
          "def fib_fast(n):\n"
          "    a, b = 0, 1\n"
          "    for _ in range(n):\n"
          "        a, b = b, a + b\n"
          "    return a\n\n\n"
          "def is_even(n):\n"
          "    return n % 2 == 0\n")
    write(os.path.join(root, "test_fibs.py"),
          "from fibs import fib, fib_fast, is_even\n\n\n"
          "def test_fib_small():\n    assert [fib(i) for i in range(8)] == "
          "[0, 1, 1, 2, 3, 5, 8, 13]\n\n\n"
          "def test_fib_large():\n    assert fib(27) == 196418\n\n\n"
          "def test_fast():\n    assert fib_fast(50) == 12586269025\n\n\n"
          "def test_even():\n    assert is_even(4) and not is_even(7)\n")
    return ["fibs.py"], ["test_fibs.py"]


def make_iopkg9(root):
    """The shape of issue 14's I/O-bound package: 9 modules, 135 tests
    that each wait 50 ms, three per function."""
    return make_iopkg(root, ("pricing", "stock", "orders", "ship", "tax",
                             "report", "users", "audit", "promo"),
                      0.05, (3, 30, 7))


def make_heavy(root, constants=120, slow=1.5):
    """The shape of issue 27's heavy suite: a module with a hundred
    constants and a table that a constant builds at import with two
    ordinary functions (PRIMES = tuple(sieve(211))), each read by a few
    tests, some of them loosely (their mutants survive), and one slow
    test that reads none of them.  Every line of the constants and of the
    two functions runs at import."""
    src = ['"""Units, primes and a slow search."""\n\n']
    for k in range(constants):
        src.append("UNIT_%d = %d\n" % (k, 10 + k))
    src.append(
        "\n\ndef _multiples(i, n):\n"
        "    return range(i * i, n, i)\n\n\n"
        "def sieve(n):\n"
        "    flags = [True] * n\n"
        "    out = []\n"
        "    for i in range(2, n):\n"
        "        if flags[i]:\n"
        "            out.append(i)\n"
        "            for j in _multiples(i, n):\n"
        "                flags[j] = False\n"
        "    return out\n\n\n"
        "PRIMES = tuple(sieve(211))\n\n\n"
        "def is_prime(k):\n"
        "    return k in PRIMES\n\n\n"
        "def search(n):\n"
        "    total = 0\n"
        "    for i in range(n):\n"
        "        total += i % 7\n"
        "    return total\n\n\n")
    groups = constants // 10
    for g in range(groups):
        src.append("def group_%d(x):\n    return x + %s\n\n\n"
                   % (g, " + ".join("UNIT_%d" % (10 * g + i)
                                    for i in range(10))))
    write(os.path.join(root, "units.py"), "".join(src))
    tests = ["import units\n\n\n"]
    for g in range(groups):
        exact = sum(10 + 10 * g + i for i in range(10))
        # Half the groups are checked exactly, half loosely.
        check = ("== %d" % (1 + exact)) if g % 2 == 0 else "> 0"
        tests.append("def test_group_%d():\n    assert units.group_%d(1) %s"
                     "\n\n\n" % (g, g, check))
    tests.append("def test_primes():\n"
                 "    assert units.is_prime(7) and not units.is_prime(9)\n"
                 "\n\n")
    # About `slow` seconds of CPU on this machine's Python.
    n = int(slow * 1.5e7)
    tests.append("def test_search():\n    assert units.search(%d) > 0\n"
                 % n)
    write(os.path.join(root, "test_units.py"), "".join(tests))
    return ["units.py"], ["test_units.py"]


WORKLOADS = {"iopkg": make_iopkg, "iopkg9": make_iopkg9,
             "slowrec": make_slowrec, "heavy": make_heavy}


def run_litmus(litmus, root, paths, tests, db):
    cmd = [litmus, "score"] + paths + sum((["--tests", t] for t in tests),
                                          []) + ["--db", db, "--no-progress"]
    if os.environ.get("BENCH_JOBS"):
        cmd += ["--jobs", os.environ["BENCH_JOBS"]]
    t0 = time.monotonic()
    p = subprocess.run(cmd, cwd=root, capture_output=True, text=True)
    wall = time.monotonic() - t0
    if p.returncode not in (0, 1):
        sys.exit("litmus failed on %s: %s" % (root, p.stderr[-2000:]))
    return wall


def comparator(root, tests, db, sample):
    """mutmut 2.5.1's way: for each mutant a copy of the file is changed
    and a fresh pytest runs the suite, stopping at the first failure."""
    con = sqlite3.connect(db)
    rows = con.execute(
        "SELECT m.id, m.file, m.start, m.end_off, m.replacement, r.verdict "
        "FROM mutants m JOIN results r ON r.mutant_id = m.id "
        "WHERE r.verdict IN ('killed', 'survived', 'no_coverage') "
        "ORDER BY m.id").fetchall()
    con.close()
    random.Random(7).shuffle(rows)
    rows = rows[:sample]
    walls, agree = [], 0
    for mid, path, start, end, repl, verdict in rows:
        with open(path, "rb") as f:
            original = f.read()
        mutated = original[:start] + repl.encode() + original[end:]
        try:
            with open(path, "wb") as f:
                f.write(mutated)
            t0 = time.monotonic()
            p = subprocess.run([PYTHON, "-m", "pytest", "-x", "-q",
                                "-p", "no:cacheprovider"] + tests, cwd=root,
                               capture_output=True, timeout=300)
            walls.append(time.monotonic() - t0)
        finally:
            with open(path, "wb") as f:
                f.write(original)
        detected = p.returncode != 0
        agree += detected == (verdict == "killed")
    return walls, agree, len(rows)


def figures(db):
    con = sqlite3.connect(db)
    n = con.execute("SELECT count(*) FROM results WHERE verdict NOT IN "
                    "('equivalent', 'invalid')").fetchone()[0]
    ran = con.execute("SELECT avg(tests_run) FROM results WHERE verdict IN "
                      "('killed', 'survived')").fetchone()[0] or 0.0
    n_tests = con.execute("SELECT count(*) FROM tests").fetchone()[0]
    meta = dict(con.execute("SELECT key, value FROM meta").fetchall())
    times = dict(con.execute("SELECT nodeid, baseline_ms FROM tests "
                             "WHERE outcome = 'passed'").fetchall())
    mean = sum(times.values()) / len(times) if times else 0.0
    need = 0.0
    for verdict, killer, ran in con.execute(
            "SELECT verdict, killed_by, tests_run FROM results"):
        if verdict == "killed" and killer in times:
            need += times[killer]
        elif verdict not in ("equivalent", "invalid", "no_coverage"):
            need += (ran or 0) * mean
    con.close()
    return n, meta, need / 2.0 / 1000.0, ran, n_tests


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: bench/workloads.py LITMUS [WORKLOAD...]")
    litmus = os.path.abspath(sys.argv[1])
    names = sys.argv[2:] or list(WORKLOADS)
    sample = int(os.environ.get("BENCH_SAMPLE", "12"))
    for name in names:
        if name not in WORKLOADS:
            sys.exit("unknown workload %s (have: %s)"
                     % (name, ", ".join(WORKLOADS)))
        with tempfile.TemporaryDirectory(prefix="litmus-wl-") as tmp:
            root = os.path.join(tmp, name)
            paths, tests = WORKLOADS[name](root)
            db = os.path.join(tmp, "run.db")
            wall = run_litmus(litmus, root, paths, tests, db)
            n, meta, bound2, ran, n_tests = figures(db)
            walls, agree, k = comparator(root, tests, db, sample)
            per = wall / n if n else 0.0
            cper = sum(walls) / len(walls) if walls else 0.0
            bper = bound2 / n if n else 0.0
            print("%-8s litmus %.1f s for %d mutants (%.0f ms/mutant; "
                  "baseline %s s, %s children); comparator %.0f ms/mutant "
                  "over %d; ratio %.1fx; verdicts agree %d/%d; "
                  "2-children bound %.0f ms/mutant (litmus %.1fx faster); "
                  "tests run per mutant %.1f of %d"
                  % (name, wall, n, 1000 * per,
                     "%.2f" % float(meta.get("run_baseline_s", "nan")),
                     meta.get("run_jobs", "?"), 1000 * cper, len(walls),
                     cper / per if per else 0.0, agree, k, 1000 * bper,
                     bper / per if per else 0.0, ran, n_tests), flush=True)


if __name__ == "__main__":
    main()
