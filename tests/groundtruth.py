#!/usr/bin/python3
# Ground-truth check of a litmus store: applies each selected mutant to a
# fresh copy of the project, runs the plain pytest command of the run there
# and compares pytest's outcome with the stored verdict.  Standard library
# only; run with /usr/bin/python3.  SPDX-License-Identifier: MIT
"""Checks litmus verdicts against plain pytest on a copy of the project.

For each selected mutant of the store (--db), the project is copied to a
temporary directory, the mutant's byte span is replaced in the copy of its
file, and the plain command

    PYTHON -m pytest -q -p no:cacheprovider -x TESTS PYTEST_ARGS

(TESTS and PYTEST_ARGS as the run stored them in its settings, absolute
paths inside the project rewritten into the copy) runs in the copy under a
timeout.  pytest's exit 0 means the mutant survived; any other exit (1
tests failed, 2 collection or import error, 3-5, a signal) or the timeout
means it was detected.

Comparison:  killed, timeout, crashed, memory  must be detected;
             survived, no_coverage, equivalent must be survived;
             invalid, error and mutants without a result are counted
             apart and not compared.

The project:  the run's cwd, when every mutated file and every test path
lies inside it; otherwise the deepest directory holding all of them (then
pytest runs in the copy of that directory, not in the cwd).  Not copied:
.git, .venv, __pycache__, .pytest_cache, directories named build*, files
named *.db*.  The stored source of each mutated file is written into the
copy (a warning says when the file on disk differs from it).

What the tests import:  python -m pytest puts the working directory (the
copy) first on sys.path.  When the project has a src/ directory (src
layout, often with an editable install), the copy's src/ is put first on
PYTHONPATH, ahead of site-packages and any .pth file of an editable
install.  Entries of the inherited PYTHONPATH that point inside the
project are rewritten into the copy.  A baseline run of the unmutated
copy records which files the tests import: if a mutated file is imported
from the original project instead of the copy, the check stops (exit 2)
naming both paths; if it is not imported at all, a warning says so.  The
baseline must pass (exit 2 otherwise).

Selections (--select, comma-separated, united):
  all                every mutant of the store
  structural         mutants that change module or class-body code (the
                     compiled module differs outside function code
                     objects, or its tree of code objects changes shape):
                     those a mutation engine has to re-execute
  no-coverage        mutants whose stored verdict is no_coverage
  outside-functions  mutants whose span is not inside the body of a def
                     (found with ast on the stored source): module-level
                     and class-body statements, decorators, default
                     values, annotations; a lambda's body counts as
                     outside unless the lambda is inside a def
  sample:N           N mutants drawn with a fixed seed (--seed) from the
                     union of the other selectors, or from all mutants

--verdict V[,V...] then keeps only the selected mutants whose stored
verdict is one of those (`--select outside-functions --verdict survived`:
the survivors among class-body and module-level mutants, the ones a too
narrow selection of tests would have made).

--fork: the mutants' runs are forks of this process, which imports
pytest once and calls pytest.main() in each fork as `PYTHON -m pytest`
would in a new interpreter (the copy first on sys.path, the environment
above, output captured, a new session killed at the timeout): the project
is only ever imported in the fork, and a run costs a third of the CPU
time.  Only when PYTHON is this interpreter and the environment keeps
this process's PYTHONPATH; otherwise (and for the baseline) the command
runs as above.

Exit status: 0 every checked verdict agrees, 1 some disagree, 2 bad input
(missing or unreadable store, unknown selection, failing baseline,
shadowed subject).
"""
import argparse
import ast
import concurrent.futures
import fnmatch
import json
import os
import random
import select as io_select
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import types

DETECTED_VERDICTS = {"killed", "timeout", "crashed", "memory"}
SURVIVED_VERDICTS = {"survived", "no_coverage", "equivalent"}
APART_VERDICTS = {"invalid", "error"}
SELECTORS = ("all", "structural", "no-coverage", "outside-functions")
TAIL_LINES = 4


class BadInput(Exception):
    """Input the check cannot work with: exit 2 with the message."""


# --- Reading the store ---------------------------------------------------

class Mutant:
    __slots__ = ("id", "file", "line", "col", "start", "end", "op",
                 "original", "replacement", "verdict", "killed_by")


def open_store(path):
    if not os.path.isfile(path):
        raise BadInput("%s: no such litmus store" % path)
    try:
        # Read-only: the check never changes the store it judges.
        db = sqlite3.connect("file:%s?mode=ro" % os.path.abspath(path),
                             uri=True)
        names = {r[0] for r in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.DatabaseError as e:
        raise BadInput("%s: not a litmus store (%s)" % (path, e))
    missing = {"meta", "files", "mutants", "results"} - names
    if missing:
        raise BadInput("%s: not a litmus store (no table %s)"
                       % (path, ", ".join(sorted(missing))))
    return db


def read_settings(db, path):
    row = db.execute("SELECT value FROM meta WHERE key = 'settings'"
                     ).fetchone()
    if row is None:
        raise BadInput("%s: no run settings in the meta table (not a "
                       "litmus score store?)" % path)
    s = {"file": [], "tests": [], "arg": [], "cwd": None}
    for line in row[0].splitlines():
        key, sep, value = line.partition("=")
        if not sep:
            continue
        if key in ("file", "tests", "arg"):
            s[key].append(value)
        else:
            s[key] = value
    if not s["cwd"]:
        raise BadInput("%s: the run's settings name no cwd" % path)
    return s


def read_mutants(db):
    sources = {}
    for path, src in db.execute("SELECT path, source FROM files"):
        sources[path] = src if isinstance(src, bytes) else src.encode()
    out = []
    rows = db.execute(
        "SELECT m.id, m.file, m.line, m.col, m.start, m.end_off, m.op,"
        " m.original, m.replacement, r.verdict, r.killed_by"
        " FROM mutants m LEFT JOIN results r ON r.mutant_id = m.id"
        " ORDER BY m.file, m.start, m.id")
    for row in rows:
        m = Mutant()
        (m.id, m.file, m.line, m.col, m.start, m.end, m.op, m.original,
         m.replacement, m.verdict, m.killed_by) = row
        src = sources.get(m.file)
        if src is None:
            raise BadInput("mutant %s: its file %s is not in the store"
                           % (m.id, m.file))
        if (m.start is None or m.end is None or
                not 0 <= m.start <= m.end <= len(src) or
                src[m.start:m.end] != (m.original or "").encode()):
            raise BadInput("mutant %s: the span %s..%s of %s does not hold "
                           "its original text %r" % (m.id, m.start, m.end,
                                                     m.file, m.original))
        out.append(m)
    return sources, out


# --- Selections ----------------------------------------------------------

def function_bodies(src):
    """Byte ranges [start, end) of the bodies of every def in src."""
    tree = ast.parse(src)
    line_off = [0]
    for line in src.splitlines(keepends=True):
        line_off.append(line_off[-1] + len(line))

    def off(lineno, col):  # ast columns are UTF-8 byte offsets
        return line_off[lineno - 1] + col

    out = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            first = node.body[0]
            out.append((off(first.lineno, first.col_offset),
                        off(node.end_lineno, node.end_col_offset)))
    return out


def outside_functions(sources, mutants):
    bodies = {}
    for path, src in sources.items():
        try:
            bodies[path] = function_bodies(src)
        except SyntaxError as e:
            raise BadInput("%s: the stored source does not parse: %s"
                           % (path, e))
    return {m.id for m in mutants
            if not any(a <= m.start and m.end <= b
                       for a, b in bodies[m.file])}


def _const_key(value):
    if isinstance(value, types.CodeType):
        return ("code", value.co_qualname)
    if isinstance(value, float):
        return ("float", repr(value))
    if isinstance(value, complex):
        return ("complex", repr(value))
    if isinstance(value, (tuple, frozenset)):
        return (type(value).__name__,
                tuple(sorted(map(repr, map(_const_key, value))))
                if isinstance(value, frozenset)
                else tuple(_const_key(v) for v in value))
    return (type(value).__name__, repr(value))


def _own_code(code):
    """A code object without its positions and nested code objects."""
    return (code.co_code, code.co_names, code.co_varnames,
            code.co_flags, code.co_argcount, code.co_kwonlyargcount,
            tuple(_const_key(c) for c in code.co_consts))


def _changes_structure(a, b):
    kids_a = [c for c in a.co_consts if isinstance(c, types.CodeType)]
    kids_b = [c for c in b.co_consts if isinstance(c, types.CodeType)]
    if [c.co_qualname for c in kids_a] != [c.co_qualname for c in kids_b]:
        return True
    is_function = bool(a.co_flags & 0x0002)  # CO_NEWLOCALS
    if not is_function and _own_code(a) != _own_code(b):
        return True
    return any(_changes_structure(x, y) for x, y in zip(kids_a, kids_b))


def structural(sources, mutants):
    out = set()
    base = {}
    for m in mutants:
        src = sources[m.file]
        if m.file not in base:
            base[m.file] = compile(src, m.file, "exec", dont_inherit=True)
        mutated = apply_mutant(src, m)
        try:
            code = compile(mutated, m.file, "exec", dont_inherit=True)
        except (SyntaxError, ValueError):
            continue  # invalid: never run by either side
        if _changes_structure(base[m.file], code):
            out.add(m.id)
    return out


def select(spec, sources, mutants, seed):
    parts = [p.strip() for p in spec.split(",") if p.strip()]
    if not parts:
        raise BadInput("--select: empty selection")
    chosen = None
    sample = None
    for p in parts:
        if p.startswith("sample:"):
            try:
                sample = int(p[len("sample:"):])
            except ValueError:
                sample = -1
            if sample <= 0:
                raise BadInput("--select %s: sample:N needs a positive "
                               "count" % p)
            continue
        if p not in SELECTORS:
            raise BadInput("--select: no such selection %r (choose from "
                           "%s, sample:N)" % (p, ", ".join(SELECTORS)))
        if p == "all":
            ids = {m.id for m in mutants}
        elif p == "no-coverage":
            ids = {m.id for m in mutants if m.verdict == "no_coverage"}
        elif p == "outside-functions":
            ids = outside_functions(sources, mutants)
        else:
            ids = structural(sources, mutants)
        chosen = ids if chosen is None else chosen | ids
    if chosen is None:
        chosen = {m.id for m in mutants}
    picked = [m for m in mutants if m.id in chosen]
    if sample is not None and sample < len(picked):
        rng = random.Random(seed)
        keep = set(rng.sample(sorted(m.id for m in picked), sample))
        picked = [m for m in picked if m.id in keep]
    return picked


# --- The project and its copy --------------------------------------------

def inside(path, root):
    return path == root or path.startswith(root.rstrip("/") + "/")


class Project:
    """Where the project is, where pytest runs, and the command."""

    def __init__(self, settings, python):
        self.cwd = os.path.realpath(settings["cwd"])
        if not os.path.isdir(self.cwd):
            raise BadInput("the run's cwd %s is not a directory"
                           % settings["cwd"])
        self.files = [os.path.realpath(f) for f in settings["file"]]
        self.tests = [os.path.realpath(os.path.join(self.cwd, t))
                      for t in settings["tests"]]
        for t in self.tests:
            if not os.path.exists(t):
                raise BadInput("the run's test path %s does not exist" % t)
        members = self.files + self.tests
        if all(inside(p, self.cwd) for p in members):
            self.root = self.cwd
        else:
            self.root = os.path.commonpath(
                [p if os.path.isdir(p) else os.path.dirname(p)
                 for p in members])
        self.run_rel = (os.path.relpath(self.cwd, self.root)
                        if inside(self.cwd, self.root) else ".")
        for f in self.files:
            rel = os.path.relpath(f, self.root)
            if skipped_path(rel):
                raise BadInput("%s lies in a directory the copy leaves out"
                               % f)
        self.args = settings["arg"]
        self.python = python
        self.src_layout = os.path.isdir(os.path.join(self.root, "src"))

    def into(self, path, copy):
        """An absolute path inside the project, moved into the copy."""
        real = os.path.realpath(path)
        if inside(real, self.root):
            return os.path.normpath(
                os.path.join(copy, os.path.relpath(real, self.root)))
        return path

    def command(self, copy):
        tests = [self.into(t, copy) for t in self.tests]
        args = []
        for a in self.args:
            opt, eq, val = a.partition("=")
            if a.startswith("/"):
                args.append(self.into(a, copy))
            elif eq and opt.startswith("-") and val.startswith("/"):
                args.append(opt + "=" + self.into(val, copy))
            else:
                args.append(a)
        return [self.python, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                "-x"] + tests + args

    def environment(self, copy, extra_path=()):
        env = dict(os.environ)
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        path = list(extra_path)
        if self.src_layout:
            path.append(os.path.join(copy, "src"))
        for p in env.get("PYTHONPATH", "").split(os.pathsep):
            if p:
                path.append(self.into(p, copy) if os.path.isabs(p) else p)
        if path:
            env["PYTHONPATH"] = os.pathsep.join(path)
        else:
            env.pop("PYTHONPATH", None)
        return env


def skipped_path(rel):
    parts = rel.split(os.sep)
    for i, name in enumerate(parts):
        last = i == len(parts) - 1
        if name in (".git", ".venv", "__pycache__", ".pytest_cache"):
            return True
        if fnmatch.fnmatch(name, "*.db*"):
            return True
        if not last and fnmatch.fnmatch(name, "build*"):
            return True
    return False


def copy_ignore(directory, names):
    out = []
    for n in names:
        full = os.path.join(directory, n)
        if n in (".git", ".venv", "__pycache__", ".pytest_cache"):
            out.append(n)
        elif fnmatch.fnmatch(n, "*.db*") and not os.path.isdir(full):
            out.append(n)
        elif fnmatch.fnmatch(n, "build*") and os.path.isdir(full):
            out.append(n)
    return out


def make_copy(project, sources, workdir, mutant=None):
    """Copies the project into a new directory of workdir, writes the
    stored source of every mutated file (mutant applied) and returns the
    copy's path."""
    base = tempfile.mkdtemp(prefix="gt-", dir=workdir)
    copy = os.path.join(base, "project")
    shutil.copytree(project.root, copy, symlinks=True, ignore=copy_ignore)
    for path, src in sources.items():
        if mutant is not None and path == mutant.file:
            src = apply_mutant(src, mutant)
        dst = project.into(path, copy)
        if not inside(dst, copy):
            raise BadInput("%s lies outside the project %s"
                           % (path, project.root))
        # A symlink in the copy may point back into the project: replace
        # the link, never write through it.
        if os.path.lexists(dst):
            os.unlink(dst)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        with open(dst, "wb") as f:
            f.write(src)
    return base, copy


def apply_mutant(src, m):
    return src[:m.start] + (m.replacement or "").encode() + src[m.end:]


# --- Running pytest ------------------------------------------------------

def run_pytest(project, copy, timeout, extra_args=(), extra_path=(),
               extra_env=None):
    """Runs the plain command in the copy.  Returns (outcome, rc,
    output, seconds); outcome is "survived" or "detected"."""
    cmd = project.command(copy) + list(extra_args)
    env = project.environment(copy, extra_path)
    if extra_env:
        env.update(extra_env)
    start = time.monotonic()
    proc = subprocess.Popen(cmd, cwd=os.path.join(copy, project.run_rel),
                            env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=timeout)
        rc = proc.returncode
    except subprocess.TimeoutExpired:
        # The whole session: a mutant may have started children.
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, _ = proc.communicate()
        rc = None
    secs = time.monotonic() - start
    text = out.decode("utf-8", "replace")
    return rc, text, secs


def describe(rc):
    if rc is None:
        return "timeout"
    return {0: "passed", 1: "failed", 2: "collection-error",
            3: "internal-error", 4: "usage-error",
            5: "no-tests"}.get(rc, "signal %d" % -rc if rc < 0
                               else "exit %d" % rc)


PROBE = '''
import json, os, sys
def pytest_sessionfinish(session, exitstatus):
    out = {}
    for name, mod in list(sys.modules.items()):
        f = getattr(mod, "__file__", None)
        if isinstance(f, str):
            out[name] = os.path.realpath(f)
    with open(os.environ["GROUNDTRUTH_PROBE_OUT"], "w") as fh:
        json.dump(out, fh)
'''


def baseline(project, sources, workdir, timeout):
    """Runs the unmutated copy with a probe plugin that lists the files
    the tests imported.  Returns its duration; raises BadInput when it
    fails or when a mutated file is imported from outside the copy."""
    base, copy = make_copy(project, sources, workdir)
    probe_dir = os.path.join(base, "probe")
    os.mkdir(probe_dir)
    with open(os.path.join(probe_dir, "_groundtruth_probe.py"), "w") as f:
        f.write(PROBE)
    probe_out = os.path.join(base, "imported.json")
    rc, text, secs = run_pytest(
        project, copy, timeout, ["-p", "_groundtruth_probe"], [probe_dir],
        {"GROUNDTRUTH_PROBE_OUT": probe_out})
    if rc != 0:
        raise BadInput("the unmutated project fails under plain pytest in "
                       "the copy (%s); command: %s\n%s"
                       % (describe(rc), " ".join(project.command(copy)),
                          tail(text, 15)))
    try:
        with open(probe_out) as f:
            imported = set(json.load(f).values())
    except (OSError, ValueError) as e:
        raise BadInput("the baseline's import probe wrote nothing: %s" % e)
    for path in sources:
        real = os.path.realpath(path)
        in_copy = project.into(real, copy)
        if in_copy in imported:
            continue
        if real in imported:
            raise BadInput("the tests import %s from the project, not the "
                           "copy's %s: mutants applied to the copy would "
                           "never run (editable install? put the package "
                           "on PYTHONPATH or use a src/ layout)"
                           % (real, in_copy))
        print("groundtruth: warning: the tests never import %s; its "
              "mutants can only survive" % path, file=sys.stderr)
    shutil.rmtree(base, ignore_errors=True)
    return secs


def expected(verdict):
    if verdict in DETECTED_VERDICTS:
        return "detected"
    if verdict in SURVIVED_VERDICTS:
        return "survived"
    return None


def tail(text, n):
    lines = [l for l in text.rstrip().splitlines() if l.strip()]
    return "\n".join(lines[-n:])


def check_one(project, sources, workdir, timeout, m):
    base, copy = make_copy(project, sources, workdir, m)
    try:
        rc, text, secs = run_pytest(project, copy, timeout)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    outcome = "survived" if rc == 0 else "detected"
    return m, outcome, describe(rc), tail(text, TAIL_LINES), secs


def can_fork(project, copy):
    """Whether a fork of this process can stand for the plain command."""
    return (os.path.realpath(project.python) ==
            os.path.realpath(sys.executable) and
            project.environment(copy).get("PYTHONPATH") ==
            os.environ.get("PYTHONPATH"))


def forked_child(args, cwd, env, out):
    """In a fork: `python -m pytest ARGS` in cwd, its output to the file
    out, in a session of its own (tests/e2e/forked_pytest.py); never
    returns."""
    fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    null = os.open(os.devnull, os.O_RDONLY)
    _forked_pytest().child(args, cwd, env, null, fd, new_session=True)


def _forked_pytest():
    """tests/e2e/forked_pytest.py, loaded once (it imports pytest)."""
    mod = sys.modules.get("litmus_forked_pytest")
    if mod is None:
        import importlib.util
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                            "e2e", "forked_pytest.py")
        spec = importlib.util.spec_from_file_location("litmus_forked_pytest",
                                                      path)
        mod = importlib.util.module_from_spec(spec)
        sys.modules["litmus_forked_pytest"] = mod
        spec.loader.exec_module(mod)
    return mod


def check_forked(project, sources, workdir, timeout, mutants, jobs):
    """check_one of every one of the mutants, up to jobs forks at a time, from
    this (single) thread; the same results in the same order."""
    sys.dont_write_bytecode = True
    _forked_pytest()  # pytest imported once, for every fork
    pending = list(mutants)
    running = {}
    done = {}
    while pending or running:
        while pending and len(running) < jobs:
            m = pending.pop(0)
            base, copy = make_copy(project, sources, workdir, m)
            out = os.path.abspath(os.path.join(base, "pytest.out"))
            sys.stdout.flush()
            sys.stderr.flush()
            start = time.monotonic()
            pid = os.fork()
            if pid == 0:
                forked_child(project.command(copy)[3:],
                             os.path.join(copy, project.run_rel),
                             project.environment(copy), out)
            running[os.pidfd_open(pid)] = (m, base, out, pid, start)
        first = min(r[4] for r in running.values())
        ready = io_select.select(list(running), [], [],
                              max(0, first + timeout - time.monotonic()))[0]
        now = time.monotonic()
        for fd in list(running):
            m, base, out, pid, start = running[fd]
            if fd in ready:
                rc = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
            elif now - start >= timeout:
                # The whole session: a mutant may have started children.
                try:
                    os.killpg(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                os.waitpid(pid, 0)
                rc = None
            else:
                continue
            os.close(fd)
            del running[fd]
            try:
                with open(out, "rb") as f:
                    text = f.read().decode("utf-8", "replace")
            except OSError:
                text = ""
            shutil.rmtree(base, ignore_errors=True)
            outcome = "survived" if rc == 0 else "detected"
            done[m.id] = (m, outcome, describe(rc), tail(text, TAIL_LINES),
                          now - start)
    return [done[m.id] for m in mutants]


# --- Main ----------------------------------------------------------------

def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="groundtruth.py",
        description=__doc__.split("\n\n", 1)[0],
        epilog=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--db", required=True, metavar="F",
                   help="the litmus store (SQLite) of a score run")
    p.add_argument("--select", default="all", metavar="SEL",
                   help="which mutants to check (default: all; see below)")
    p.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1,
                   metavar="N", help="pytest runs at a time (default: "
                   "number of cores)")
    p.add_argument("--python", default="/usr/bin/python3", metavar="PY",
                   help="the interpreter that runs pytest (default: "
                   "/usr/bin/python3)")
    p.add_argument("--timeout", type=float, default=None, metavar="S",
                   help="seconds per mutant (default: 10 x the baseline "
                   "run + 10)")
    p.add_argument("--verdict", default=None, metavar="V[,V...]",
                   help="keep only the selected mutants whose stored "
                   "verdict is one of these (survived: the check of a "
                   "narrowed selection)")
    p.add_argument("--seed", type=int, default=20261124,
                   help="seed of sample:N (default: 20261124)")
    p.add_argument("--verbose", "-v", action="store_true",
                   help="also list the mutants that agree")
    p.add_argument("--fork", action="store_true",
                   help="run pytest in forks of this process, which "
                   "imports it once (see below)")
    args = p.parse_args(argv)
    if args.jobs < 1:
        p.error("--jobs must be at least 1")
    if args.timeout is not None and args.timeout <= 0:
        p.error("--timeout must be positive")
    return args


def location(project, m):
    try:
        rel = os.path.relpath(m.file, project.cwd)
    except ValueError:
        rel = m.file
    if rel.startswith(".."):
        rel = m.file
    return "%s:%s" % (rel, m.line)


def main(argv):
    args = parse_args(argv)
    try:
        db = open_store(args.db)
        settings = read_settings(db, args.db)
        sources, mutants = read_mutants(db)
        db.close()
        picked = select(args.select, sources, mutants, args.seed)
        if args.verdict:
            keep = {v.strip() for v in args.verdict.split(",")}
            picked = [m for m in picked if m.verdict in keep]
        project = Project(settings, args.python)
        if not os.access(args.python, os.X_OK):
            raise BadInput("--python %s is not an executable" % args.python)
        for path, src in sources.items():
            try:
                with open(path, "rb") as f:
                    on_disk = f.read()
            except OSError:
                on_disk = None
            if on_disk != src:
                print("groundtruth: warning: %s differs from the source the "
                      "run mutated; checking against the stored source"
                      % path, file=sys.stderr)
        workdir = tempfile.mkdtemp(prefix="groundtruth-")
        try:
            base_secs = baseline(project, sources, workdir,
                                 args.timeout or 600)
            timeout = args.timeout or 10 * base_secs + 10
            return compare(args, project, sources, workdir, timeout, picked)
        finally:
            shutil.rmtree(workdir, ignore_errors=True)
    except BadInput as e:
        print("groundtruth: %s" % e, file=sys.stderr)
        return 2


def compare(args, project, sources, workdir, timeout, picked):
    to_run = [m for m in picked if expected(m.verdict) is not None]
    apart = {}
    for m in picked:
        if expected(m.verdict) is None:
            key = m.verdict or "no result"
            apart[key] = apart.get(key, 0) + 1
    results = []
    if args.fork and can_fork(project, os.path.join(workdir, "project")):
        results = check_forked(project, sources, workdir, timeout, to_run,
                               args.jobs)
    else:
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
            futs = [ex.submit(check_one, project, sources, workdir, timeout,
                              m) for m in to_run]
            for f in futs:
                results.append(f.result())
    disagree = [r for r in results if r[1] != expected(r[0].verdict)]
    disagree_ids = {r[0].id for r in disagree}
    rows = disagree if not args.verbose else results
    if rows:
        print("%-16s  %-36s  %-10s  %-12s  %s" % (
            "mutant", "file:line", "operator", "litmus", "pytest"))
        for m, outcome, how, text, secs in rows:
            mark = "  DISAGREE" if args.verbose and m.id in disagree_ids \
                else ""
            print("%-16s  %-36s  %-10s  %-12s  %s (%s, %.1fs)%s" % (
                m.id, location(project, m), m.op, m.verdict, outcome, how,
                secs, mark))
            print("    %s -> %s" % (one_line(m.original),
                                   one_line(m.replacement)))
            if m.killed_by:
                print("    litmus killed by: %s" % m.killed_by)
            for line in text.splitlines():
                print("    | " + line)
    if apart:
        print("groundtruth: not compared: " + ", ".join(
            "%d %s" % (n, k) for k, n in sorted(apart.items())))
    print("groundtruth: %d checked, %d agree, %d disagree"
          % (len(results), len(results) - len(disagree), len(disagree)))
    return 1 if disagree else 0


def one_line(s):
    s = s or ""
    return repr(s) if len(s) <= 60 else repr(s[:57] + "...")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
