#!/usr/bin/python3
"""litmus on a checkout of a real project, side by side in one run with
what mutmut 2.5.1 does, and a small change scored with --since against
the same run without the stored baseline.  Standard library only; the
project is never changed (runs go on a temporary copy).

    /usr/bin/python3 bench/project_bench.py LITMUS DIR --paths P [P...]
        --tests T [T...] [--sample N] [--since FILE:LINE]
        [--baseline [--rounds N] [--old LITMUS] [--litmus-args "A ..."]
         [--python PY]... [--floor] [--seed0]]
        [-- PYTEST_ARGS...]

Whole run: litmus's wall time for every mutant of the paths; the
comparator (a fresh `python -m pytest -x -q -p no:cacheprovider TESTS
PYTEST_ARGS` on the copy with the mutant applied, which is how mutmut
2.5.1 runs each mutant; a src/ layout with src/ on PYTHONPATH) on a
sample of N mutants (default 12), its mean
wall per mutant times the mutants litmus ran or decided by coverage; the
ratio.  The interpreter is the project's .venv/bin/python when there is
one, else BENCH_PYTHON or /usr/bin/python3.

With MUTMUT251 set to a mutmut 2.5.1 command (docs/real-projects.md
says how to install it here), mutmut itself also runs, on another copy:
`mutmut run --paths-to-mutate PATHS --runner "PYTHON -m pytest -x -q -p
no:cacheprovider TESTS PYTEST_ARGS" --tests-dir TESTS[0]`; its wall time,
its counts (from its .mutmut-cache) and the ratio to litmus's.

--since FILE:LINE: the copy is made a git repository, the whole run is
stored, a comment is appended to line LINE of FILE (a one-line change
with the line's mutants) and committed, and `litmus score --since HEAD~1`
runs twice on copies of the stored run: with --fresh-baseline (every
test collected and run again, as before reusing baselines) and without
(the stored baseline reused).  Printed: both times to the result and
their ratio.  Ratios, not absolute times: the machines are noisy.

--baseline: the traced baseline against plain pytest, nothing else.  In
each of N rounds (default 3), one after the other on the copy: `python
-m pytest -q -p no:cacheprovider TESTS PYTEST_ARGS` (wall and CPU time),
then `litmus score PATHS --tests TESTS --max-time 1` with a fresh store
(the run ends when the baseline does: start-up, collection and every
baseline run; its wall and CPU time, the zygotes' and children's
included), and with --old an earlier build the same way.  Printed: each
round's times and litmus/pytest ratios, then the medians (a litmus run
whose baseline fails, as a hypothesis deadline missed under the tracer
makes it, is said and left out).  --litmus-args
adds options to both litmus runs (e.g. "--baseline-runs 1 --jobs 1").
--python PY (repeatable): each round runs pytest and the builds under
each of these interpreters (litmus gets --python PY), and the medians
are printed one line per interpreter, side by side.  --floor: each round
also runs the same pytest through the interpreter's shared libpython (a
Py_BytesMain launcher built with cc): what running the tests in an
embedded interpreter costs (Debian's python3 is a static, faster build
of the same interpreter; litmus's zygotes run in the interpreter's own
executable, a sanitizer build's in libpython).  --seed0: each round also
runs the same pytest with --hypothesis-seed=0, the seed litmus gives
hypothesis, so that both draw the same examples (plain pytest draws new
ones each run, and a hypothesis-heavy suite's time moves with them); the
medians add litmus's ratio to it.
"""

import os
import random
import resource
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time


def args_of(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    o = {"litmus": os.path.abspath(argv[1]), "dir": os.path.abspath(argv[2]),
         "paths": [], "tests": [], "sample": 12, "since": None,
         "pytest": [], "baseline": False, "rounds": 3, "old": None,
         "litmus_args": [], "pythons": [], "floor": False,
         "seed0": False}
    key = None
    rest = argv[3:]
    while rest:
        a = rest.pop(0)
        if a == "--":
            o["pytest"] = rest
            break
        if a in ("--paths", "--tests"):
            key = a[2:]
        elif a == "--sample":
            o["sample"] = int(rest.pop(0))
        elif a == "--since":
            o["since"] = rest.pop(0)
        elif a == "--baseline":
            o["baseline"] = True
        elif a == "--rounds":
            o["rounds"] = int(rest.pop(0))
        elif a == "--old":
            o["old"] = os.path.abspath(rest.pop(0))
        elif a == "--litmus-args":
            o["litmus_args"] = rest.pop(0).split()
        elif a == "--python":
            o["pythons"].append(rest.pop(0))
        elif a == "--floor":
            o["floor"] = True
        elif a == "--seed0":
            o["seed0"] = True
        elif key:
            o[key].append(a)
        else:
            sys.exit("unexpected argument %s" % a)
    if not o["paths"] or not o["tests"]:
        sys.exit("--paths and --tests are needed")
    return o


def env_of(root):
    """A src/ layout is imported from src/, as litmus and an editable
    install would do."""
    env = dict(os.environ)
    src = os.path.join(root, "src")
    if os.path.isdir(src):
        env["PYTHONPATH"] = src + (":" + env["PYTHONPATH"]
                                   if env.get("PYTHONPATH") else "")
    return env


def python_of(root):
    venv = os.path.join(root, ".venv", "bin", "python")
    if os.path.exists(venv):
        return venv
    return os.environ.get("BENCH_PYTHON", "/usr/bin/python3")


def score(o, root, db, extra=()):
    cmd = [o["litmus"], "score"] + o["paths"] + \
        sum((["--tests", t] for t in o["tests"]), []) + \
        ["--db", db, "--no-progress"] + list(extra)
    if o["pytest"]:
        cmd += ["--"] + o["pytest"]
    t0 = time.monotonic()
    p = subprocess.run(cmd, cwd=root, capture_output=True, text=True)
    wall = time.monotonic() - t0
    if p.returncode not in (0, 1):
        sys.exit("litmus failed (%d): %s" % (p.returncode, p.stderr[-2000:]))
    return wall, p.stderr


def comparator(o, root, db):
    """mutmut 2.5.1's way, on a sample: the file changed on disk, a fresh
    pytest -x, the file restored."""
    con = sqlite3.connect(db)
    rows = con.execute(
        "SELECT m.file, m.start, m.end_off, m.replacement, r.verdict "
        "FROM mutants m JOIN results r ON r.mutant_id = m.id "
        "WHERE r.verdict IN ('killed', 'survived', 'timeout', "
        "'no_coverage') ORDER BY m.id").fetchall()
    con.close()
    counted = len(rows)
    random.Random(7).shuffle(rows)
    rows = rows[:o["sample"]]
    python = python_of(root)
    walls, agree = [], 0
    for path, start, end, repl, verdict in rows:
        with open(path, "rb") as f:
            original = f.read()
        try:
            with open(path, "wb") as f:
                f.write(original[:start] + repl.encode() + original[end:])
            t0 = time.monotonic()
            try:
                p = subprocess.run(
                    [python, "-m", "pytest", "-x", "-q", "-p",
                     "no:cacheprovider"] + o["tests"] + o["pytest"],
                    cwd=root, capture_output=True, timeout=600,
                    env=env_of(root))
                detected = p.returncode != 0
            except subprocess.TimeoutExpired:
                detected = True
            walls.append(time.monotonic() - t0)
        finally:
            with open(path, "wb") as f:
                f.write(original)
        agree += detected == (verdict in ("killed", "timeout"))
    return walls, agree, counted


def mutmut251(o, tmp, wall):
    """mutmut 2.5.1 itself on a copy of its own; prints its figures."""
    cmd = os.environ.get("MUTMUT251")
    if not cmd:
        return
    root = os.path.join(tmp, "mutmut-" + os.path.basename(o["dir"]))
    copy_project(o["dir"], root)
    runner = " ".join([python_of(root), "-m", "pytest", "-x", "-q", "-p",
                       "no:cacheprovider"] + o["tests"] + o["pytest"])
    t0 = time.monotonic()
    p = subprocess.run([cmd, "run", "--paths-to-mutate",
                        ",".join(o["paths"]), "--runner", runner,
                        "--tests-dir", o["tests"][0]], cwd=root,
                       capture_output=True, text=True,
                       stdin=subprocess.DEVNULL, env=env_of(root))
    mwall = time.monotonic() - t0
    counts = {}
    try:
        con = sqlite3.connect(os.path.join(root, ".mutmut-cache"))
        counts = dict(con.execute("SELECT status, count(*) FROM Mutant "
                                  "GROUP BY status").fetchall())
        con.close()
    except sqlite3.Error:
        pass
    if not counts or p.returncode & 1:
        print("mutmut 2.5.1 failed (exit %d): %s"
              % (p.returncode, (p.stdout + p.stderr)[-1500:]), flush=True)
        return
    print("mutmut 2.5.1: %.1f s for %d mutants (%s); litmus %.1fx faster"
          % (mwall, sum(counts.values()),
             ", ".join("%s %d" % kv for kv in sorted(counts.items())),
             mwall / wall if wall else 0.0), flush=True)


def copy_project(src, dst):
    def ignore(d, names):
        return [n for n in names if n in (".git", "__pycache__", ".venv",
                                          ".pytest_cache", ".litmus.db",
                                          ".hypothesis")]
    shutil.copytree(src, dst, symlinks=True, ignore=ignore)
    venv = os.path.join(src, ".venv")
    if os.path.isdir(venv) and not os.path.exists(os.path.join(dst,
                                                               ".venv")):
        os.symlink(venv, os.path.join(dst, ".venv"))


def git(root, *args):
    subprocess.run(["git", "-c", "user.email=bench@litmus",
                    "-c", "user.name=bench"] + list(args), cwd=root,
                   check=True, capture_output=True)


def timed(cmd, root, env=None):
    """Wall and CPU seconds of cmd (its processes' included), and the
    completed process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    p = subprocess.run(cmd, cwd=root, capture_output=True, text=True,
                       env=env, stdin=subprocess.DEVNULL)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + \
        (after.ru_stime - before.ru_stime)
    return wall, cpu, p


SHARED_LAUNCHER = """#include <Python.h>
int main(int argc, char **argv) { return Py_BytesMain(argc, argv); }
"""

LIBPYTHON_OF = """import json, os, sys, sysconfig
v = sysconfig.get_config_var
name = v('INSTSONAME') or ''
lib = ''
for d in (v('LIBDIR'), os.path.join(v('LIBDIR') or '', v('MULTIARCH') or ''),
          os.path.join(sys.base_prefix, 'lib')):
    if '.so' in name and d and os.path.isfile(os.path.join(d, name)):
        lib = os.path.realpath(os.path.join(d, name))
        break
print(json.dumps([lib, sysconfig.get_paths()['include'], sys.prefix,
                  sys.base_prefix]))
"""


def shared_python(python, tmp):
    """An executable that runs `python` from its shared libpython, as
    litmus's processes do (in a copy of its venv's layout when it is a
    venv's, so that the venv's packages are found); None, said, when
    there is no shared libpython or no cc."""
    import json
    info = subprocess.run([python, "-c", LIBPYTHON_OF], capture_output=True,
                          text=True)
    lib, include, prefix, base = json.loads(info.stdout) \
        if info.returncode == 0 else ("", "", "", "")
    if not lib:
        print("floor: %s has no shared libpython" % python, flush=True)
        return None
    home = tempfile.mkdtemp(prefix="shared-", dir=tmp)
    os.makedirs(os.path.join(home, "bin"))
    exe = os.path.join(home, "bin", "python")
    if prefix != base:
        shutil.copy(os.path.join(prefix, "pyvenv.cfg"), home)
        os.symlink(os.path.join(prefix, "lib"), os.path.join(home, "lib"))
    src = os.path.join(home, "launcher.c")
    with open(src, "w") as f:
        f.write(SHARED_LAUNCHER)
    cc = subprocess.run(["cc", "-O2", "-I", include, src, "-o", exe, lib,
                         "-Wl,-rpath," + os.path.dirname(lib)],
                        capture_output=True, text=True)
    if cc.returncode != 0:
        print("floor: cannot build the launcher: %s" % cc.stderr[-300:],
              flush=True)
        return None
    return exe


def baseline_bench(o, root, tmp):
    """--baseline: rounds of plain pytest, litmus's baseline and the old
    build's, one after the other, under each interpreter; prints each
    round and the medians."""
    pythons = o["pythons"] or [python_of(root)]
    for n, python in enumerate(pythons):
        if len(pythons) > 1 or o["floor"]:
            ver = subprocess.run([python, "-c", "import sys; print("
                                  "sys.version.split()[0])"],
                                 capture_output=True, text=True)
            print("== %s (%s)" % (python, ver.stdout.strip()), flush=True)
        baseline_rounds(o, root, os.path.join(tmp, "python-%d" % n), python)


def baseline_rounds(o, root, tmp, python):
    """One interpreter's rounds; its stores in tmp."""
    os.makedirs(tmp)
    pytest_args = ["-m", "pytest", "-q", "-p", "no:cacheprovider"] + \
        o["tests"] + o["pytest"]
    pytest_cmd = [python] + pytest_args
    sides = [("litmus", o["litmus"])]
    if o["old"]:
        sides.append(("old", o["old"]))
    got = {"pytest": [], "floor": [], "seed0": []}
    for name, _ in sides:
        got[name] = []
    launcher = shared_python(python, tmp) if o["floor"] else None
    for k in range(o["rounds"]):
        wall, cpu, p = timed(pytest_cmd, root, env_of(root))
        if p.returncode not in (0, 5):
            sys.exit("pytest failed (%d): %s"
                     % (p.returncode, (p.stdout + p.stderr)[-1500:]))
        got["pytest"].append((wall, cpu))
        line = "round %d: pytest %.1f s (cpu %.1f s)" % (k + 1, wall, cpu)
        if launcher:
            fwall, fcpu, fp = timed([launcher] + pytest_args, root,
                                    env_of(root))
            if fp.returncode in (0, 5):
                got["floor"].append((fwall, fcpu))
                line += "; pytest on libpython.so %.1f s (cpu %.1f s), " \
                        "%.2fx" % (fwall, fcpu, fwall / wall if wall else 0)
            else:
                got["floor"].append(None)
                line += "; pytest on libpython.so failed (%d)" % \
                    fp.returncode
        if o["seed0"]:
            swall, scpu, sp = timed(pytest_cmd + ["--hypothesis-seed=0"],
                                    root, env_of(root))
            if sp.returncode not in (0, 5):
                sys.exit("pytest --hypothesis-seed=0 failed (%d): %s"
                         % (sp.returncode, (sp.stdout + sp.stderr)[-1500:]))
            got["seed0"].append((swall, scpu))
            line += "; pytest seed 0 %.1f s (cpu %.1f s)" % (swall, scpu)
        for name, binary in sides:
            db = os.path.join(tmp, "baseline-%s-%d.db" % (name, k))
            cmd = [binary, "score"] + o["paths"] + \
                sum((["--tests", t] for t in o["tests"]), []) + \
                ["--db", db, "--no-progress", "--max-time", "1"] + \
                o["litmus_args"]
            if o["pythons"]:
                cmd += ["--python", python]
            if o["pytest"]:
                cmd += ["--"] + o["pytest"]
            lwall, lcpu, lp = timed(cmd, root)
            if lp.returncode not in (0, 1) or \
                    "start-up and baseline took" not in lp.stderr:
                # A baseline that fails (a hypothesis deadline missed
                # under the tracer) is said, and left out of the medians.
                why = [x for x in lp.stderr.splitlines()
                       if "error" in x or "fail" in x][:2]
                line += "; %s failed after %.1f s (exit %d: %s)" % (
                    name, lwall, lp.returncode, " / ".join(why)[:300])
                got[name].append(None)
                continue
            got[name].append((lwall, lcpu))
            line += "; %s %.1f s (cpu %.1f s), %.2fx" % (
                name, lwall, lcpu, lwall / wall if wall else 0.0)
            if o["seed0"]:
                line += " (%.2fx seed 0)" % (lwall / got["seed0"][-1][0])
        print(line, flush=True)

    def median(xs):
        xs = sorted(xs)
        return xs[len(xs) // 2]
    pw = median([w for w, _ in got["pytest"]])
    pc = median([c for _, c in got["pytest"]])
    out = "median: pytest %.1f s (cpu %.1f s)" % (pw, pc)
    if got["seed0"]:
        out += "; pytest seed 0 %.1f s (cpu %.1f s)" % (
            median([w for w, _ in got["seed0"]]),
            median([c for _, c in got["seed0"]]))
    pairs = [(f, p) for f, p in zip(got["floor"], got["pytest"]) if f]
    if pairs:
        out += "; pytest on libpython.so %.2fx pytest's time (cpu %.2fx)" % (
            median([fw / w for (fw, _), (w, _) in pairs if w]),
            median([fc / c for (_, fc), (_, c) in pairs if c]))
    for name, _ in sides:
        pairs = [(g, p) for g, p in zip(got[name], got["pytest"]) if g]
        if not pairs:
            out += "; %s failed in every round" % name
            continue
        ratios = [lw / w for (lw, _), (w, _) in pairs if w]
        cpus = [lc / c for (_, lc), (_, c) in pairs if c]
        out += "; %s baseline %.1f s (cpu %.1f s), %.2fx pytest's time " \
               "(cpu %.2fx)" % (
                   name, median([w for (w, _), _ in pairs]),
                   median([c for (_, c), _ in pairs]), median(ratios),
                   median(cpus))
        seeded = [(g, s) for g, s in zip(got[name], got["seed0"]) if g]
        if seeded:
            out += ", %.2fx seed 0's (cpu %.2fx)" % (
                median([lw / sw for (lw, _), (sw, _) in seeded if sw]),
                median([lc / sc for (_, lc), (_, sc) in seeded if sc]))
        if len(pairs) != len(got[name]):
            out += ", %d of %d rounds failed" % (len(got[name]) - len(pairs),
                                                 len(got[name]))
    print(out, flush=True)


def main():
    o = args_of(sys.argv)
    with tempfile.TemporaryDirectory(prefix="litmus-pb-") as tmp:
        root = os.path.join(tmp, os.path.basename(o["dir"]))
        copy_project(o["dir"], root)
        if o["baseline"]:
            baseline_bench(o, root, tmp)
            return
        if o["since"]:
            git(root, "init", "-q", ".")
            git(root, "add", "-A", ".")
            git(root, "commit", "-qm", "base")
        db = os.path.join(tmp, "run.db")
        wall, _ = score(o, root, db)
        con = sqlite3.connect(db)
        n = con.execute("SELECT count(*) FROM results").fetchone()[0]
        con.close()
        walls, agree, counted = comparator(o, root, db)
        per = sum(walls) / len(walls) if walls else 0.0
        comp = per * counted
        print("whole run: litmus %.1f s for %d mutants; comparator (mutmut "
              "2.5.1's way) %.0f ms/mutant over %d, so %.1f s for the %d "
              "it must run; ratio %.1fx; verdicts agree %d/%d"
              % (wall, n, 1000 * per, len(walls), comp, counted,
                 comp / wall if wall else 0.0, agree, len(walls)),
              flush=True)
        mutmut251(o, tmp, wall)
        if not o["since"]:
            return
        path, line = o["since"].rsplit(":", 1)
        full = os.path.join(root, path)
        with open(full) as f:
            lines = f.read().split("\n")
        lines[int(line) - 1] += "  # a one-line change"
        with open(full, "w") as f:
            f.write("\n".join(lines))
        git(root, "commit", "-qam", "one line")
        times = {}
        for label, extra in (("fresh baseline", ["--fresh-baseline"]),
                             ("baseline reused", [])):
            db2 = os.path.join(tmp, "since-%d.db" % len(times))
            shutil.copy(db, db2)
            t, err = score(o, root, db2, ["--since", "HEAD~1"] + extra)
            times[label] = t
            said = [l for l in err.splitlines() if "reused" in l]
            print("--since HEAD~1, %s: %.2f s to the result (%s)"
                  % (label, t, "; ".join(said) or "nothing reused"),
                  flush=True)
        print("--since HEAD~1: %.1fx faster with the baseline reused"
              % (times["fresh baseline"] / times["baseline reused"]))


if __name__ == "__main__":
    main()
