# A job's child, in the order it runs: the sandbox (an untrusted job's
# child is inside before any of this runs: zygote_serve.c; a trusted one
# enters it after its change is applied), the child's scratch, the watch
# of what the tests need, the guards, the change (apply.py), then the
# tests, each reported through `_litmus` (child_main).  Part of the shim
# (shim.py); compiled into the litmus binary as litmus_child.
# SPDX-License-Identifier: MIT
import os
import sys
import time

import _litmus
import litmus_calls
from litmus_constants import (
    FAILED, F_CAPTURE, F_COVERAGE, F_FILES, F_PROCESSES, F_UNTRUSTED,
    MEMORY, MODE_BASELINE, MODE_CALLS, MODE_MUTANT, NEEDS_NETWORK,
    NEEDS_PROCESSES, NEEDS_UNTRACED, SKIPPED)
import litmus_shared as shared
from litmus_shared import APPLY_OK, APPLY_RAISED
from litmus_subjects import _project_modules, _realpath
from litmus_apply import apply_files, apply_mutant


# Written into a process-mode baseline's scratch as sitecustomize.py, first
# on PYTHONPATH: every Python process the tests start records the lines of
# the subjects it runs, for the test that started it.  "PID.start" when it
# starts (and in a forked child), "PID.lines" when it ends normally; a
# start without lines (os._exit, a kill) makes the test's reach unknown.
_SUBPROCESS_COVER = """\
def _litmus_cover():
    import os, sys
    out = os.environ.get("LITMUS_COVER_OUT")
    files = os.environ.get("LITMUS_COVER_FILES")
    if not out or not files:
        return
    wanted = frozenset(files.split(os.pathsep))
    seen, hits = {}, {}

    def subject(filename):
        name = seen.get(filename)
        if name is None:
            real = os.path.realpath(filename)
            name = seen[filename] = real if real in wanted else ""
        return name

    def local(frame, event, arg):
        if event == "line":
            hits.setdefault(subject(frame.f_code.co_filename),
                            set()).add(frame.f_lineno)
        return local

    def call(frame, event, arg):
        return local if subject(frame.f_code.co_filename) else None

    def mark(kind):
        try:
            with open(os.path.join(out, "%d.%s" % (os.getpid(), kind)),
                      "w") as f:
                for name, lines in hits.items():
                    f.write("%s\\t%s\\n" % (name, ",".join(map(str, lines))))
        except OSError:
            pass

    def forked():
        hits.clear()
        mark("start")

    import atexit, threading
    mark("start")
    atexit.register(mark, "lines")
    os.register_at_fork(after_in_child=forked)
    threading.settrace(call)
    sys.settrace(call)


try:
    _litmus_cover()
finally:
    del _litmus_cover

# The project's own sitecustomize, if one is further on the path.
import os as _os, sys as _sys
_here = _os.path.dirname(_os.path.abspath(__file__))
_sys.path[:] = [p for p in _sys.path if _os.path.abspath(p or ".") != _here]
del _sys.modules["sitecustomize"]
try:
    import sitecustomize  # noqa: F401
except ImportError:
    pass
"""


class _NeedsWatch:
    """Baseline in process mode: what each test used that a plain child
    refuses (a process, a socket other than a unix one, a connect), so that
    only the mutants whose tests need it pay for process mode.  A process
    shows as an audit event, as a child this worker reaped (its page
    faults count in RUSAGE_CHILDREN), or as one still listed in the
    worker's own /proc (its namespace holds only its init and it).  The Python
    processes the tests start report the subjects' lines they run
    (_SUBPROCESS_COVER), which join the test's coverage; a test that ran
    subject code where it could not be traced is marked NEEDS_UNTRACED."""

    _SPAWN = frozenset(("subprocess.Popen", "os.system", "os.fork",
                        "os.forkpty", "os.posix_spawn", "os.exec",
                        "os.spawn", "pty.spawn"))
    _ISOLATING = frozenset(("-I", "-E", "-S"))

    def __init__(self, scratch):
        import resource
        import socket
        self._resource = resource
        self._unix = socket.AF_UNIX
        self.bits = 0
        self._index = {_realpath(sub.path): i
                       for i, sub in enumerate(shared.SUBJECTS)}
        self._python = os.path.realpath(sys.executable)
        here = os.path.join(scratch, ".litmus-cover")
        self._out = os.path.join(here, "out")
        try:
            os.makedirs(self._out, exist_ok=True)
            with open(os.path.join(here, "sitecustomize.py"), "w") as f:
                f.write(_SUBPROCESS_COVER)
        except OSError:
            # No usable scratch (a degraded sandbox): every process a
            # test starts then counts as untraced.
            self._out = None
        if self._out:
            old = os.environ.get("PYTHONPATH")
            os.environ["PYTHONPATH"] = here + (os.pathsep + old if old
                                               else "")
            os.environ["LITMUS_COVER_OUT"] = self._out
            os.environ["LITMUS_COVER_FILES"] = os.pathsep.join(self._index)
        # Only the events _hook reads reach Python (zygote_trace.c).
        watch = getattr(_litmus, "audit_watch", None)
        if watch is not None:
            watch(self._hook, tuple(self._SPAWN) + ("socket.__new__",
                                                    "socket.connect"))
        else:
            sys.addaudithook(self._hook)

    def _is_python(self, program):
        if not isinstance(program, (str, bytes, os.PathLike)):
            return False
        program = os.fsdecode(program)
        name = os.path.basename(program)
        return name.startswith("python") or \
            os.path.realpath(program) == self._python

    def _hook(self, event, args):
        if event == "socket.__new__":
            if len(args) > 1 and args[1] != self._unix:
                self.bits |= NEEDS_NETWORK
        elif event == "socket.connect":
            self.bits |= NEEDS_NETWORK
        elif event in self._SPAWN:
            self.bits |= NEEDS_PROCESSES
            # A copy of this process runs on untraced.
            if event in ("os.fork", "os.forkpty"):
                self.bits |= NEEDS_UNTRACED
            elif event == "subprocess.Popen" and len(args) >= 4:
                self._check_popen(*args[:4])

    def _check_popen(self, executable, argv, cwd, env):
        """An interpreter that will not read our sitecustomize: isolated,
        without site, or given an environment without our variables."""
        try:
            argv = [argv] if isinstance(argv, (str, bytes)) else list(argv)
        except TypeError:
            return
        if not (self._is_python(executable) or
                (argv and self._is_python(argv[0]))):
            return
        if self._ISOLATING.intersection(a for a in argv[1:]
                                        if isinstance(a, str)) or \
                (env is not None and "LITMUS_COVER_OUT" not in env):
            self.bits |= NEEDS_UNTRACED

    def _reaped(self):
        ru = self._resource.getrusage(self._resource.RUSAGE_CHILDREN)
        return ru.ru_minflt + ru.ru_majflt + ru.ru_nvcsw

    def begin(self):
        self.bits = 0
        self._before = self._reaped()

    def _collect(self):
        """Adds what the test's processes reported to its coverage; True
        when one of them started and did not report."""
        if self._out is None:
            return bool(self.bits & NEEDS_PROCESSES)
        try:
            names = os.listdir(self._out)
        except OSError:
            return False
        started = {n[:-6] for n in names if n.endswith(".start")}
        for n in names:
            if not n.endswith(".lines"):
                continue
            started.discard(n[:-6])
            try:
                with open(os.path.join(self._out, n)) as f:
                    for row in f:
                        path, _, lines = row.rstrip("\n").partition("\t")
                        i = self._index.get(path)
                        if i is not None and lines:
                            _litmus.cover_add(
                                i, [int(x) for x in lines.split(",")])
            except (OSError, ValueError):
                started.add(n)
        for n in names:
            try:
                os.unlink(os.path.join(self._out, n))
            except OSError:
                pass
        return bool(started)

    def end(self):
        """Called while the test is still being traced."""
        bits = self.bits
        if self._reaped() != self._before:
            bits |= NEEDS_PROCESSES
        elif os.getppid() == 1:
            # Process mode: the namespace holds its init (1) and us.
            ours = ("1", str(os.getpid()))
            try:
                if any(n.isdigit() and n not in ours
                       for n in os.listdir("/proc")):
                    bits |= NEEDS_PROCESSES
            except OSError:
                pass
        if self._collect():
            bits |= NEEDS_UNTRACED
        return bits


def _needs_watch(mode, flags, scratch):
    """The watch of what the tests need, for a run in process mode that
    traces coverage (the baseline, a candidate's layer 1), else None."""
    if flags & F_PROCESSES and (mode == MODE_BASELINE or flags & F_COVERAGE):
        return _NeedsWatch(scratch)
    return None


def run_tests(indices, stop_first, coverage=False, selected=None,
              needs=None, probe=False):
    """selected: the items for indices (a fresh child's own collection),
    None for a test that collection no longer produces: it is reported
    skipped, as plain pytest would not run it either.  probe: the probes
    of litmus_probe observe each test by its index."""
    if probe:
        import litmus_probe
    if selected is None:
        items = shared.RUNNER.items
        selected = [items[i] for i in indices]
    if None in selected:
        for k, item in enumerate(selected):
            if item is None:
                _litmus.test_start(indices[k])
                _litmus.test_result(indices[k], SKIPPED, 0,
                                    "not collected under the mutant")
        indices = [i for i, it in zip(indices, selected) if it is not None]
        selected = [it for it in selected if it is not None]
    if coverage and _litmus.threads_need_tracer():
        import threading
        threading.settrace(_litmus.thread_trace_hook)
    for k, item in enumerate(selected):
        nxt = selected[k + 1] if k + 1 < len(selected) else None
        _litmus.test_start(indices[k])
        if needs is not None:
            needs.begin()
        t0 = time.perf_counter_ns()
        if coverage:
            _litmus.trace_begin()
        if probe:
            litmus_probe.begin_test(indices[k])
        outcome, text = shared.RUNNER.run(item, nxt)
        if probe:
            litmus_probe.end_test()
        if needs is not None:
            bits = needs.end()
            if bits:
                _litmus.test_needs(indices[k], bits)
        if coverage:
            _litmus.trace_end(indices[k])
        dt = time.perf_counter_ns() - t0
        _litmus.test_result(indices[k], outcome, dt, text)
        if outcome in (FAILED, MEMORY) and stop_first:
            return


def _child_setup(scratch):
    # Temporary files of the tests go to the child's scratch directory.
    import tempfile
    os.environ["TMPDIR"] = scratch
    os.environ["HOME"] = scratch
    tempfile.tempdir = scratch
    # Hypothesis keeps its example database under the working directory,
    # which is read-only here: the child's goes to scratch.
    hypothesis_config = sys.modules.get("hypothesis.configuration")
    if hypothesis_config is not None:
        hypothesis_config.set_hypothesis_home_dir(
            os.path.join(scratch, ".hypothesis"))
    if shared.PYTEST_SESSION is None:
        return
    factory = getattr(shared.PYTEST_SESSION.config, "_tmp_path_factory", None)
    if factory is not None:
        from pathlib import Path
        factory._given_basetemp = Path(scratch) / "basetemp"
        factory._basetemp = None


def _job_files(mode, flags, extra):
    """A repository candidate's change (mode mutant with F_FILES): its
    files [(path, text or None)], the pinned names its probes let go of
    and its probe job; else (None, (), None)."""
    if mode != MODE_MUTANT or not flags & F_FILES:
        return None, (), None
    import json
    change = json.loads(extra)
    files = [(f[0], f[1]) for f in change["files"]]
    unpin = [str(n) for n in change.get("unpin", ())]
    return files, unpin, change.get("probe")


def child_main(mode, index, start, end, replacement, indices, stop_first,
               scratch, flags=0, extra="", swap=b""):
    """Runs in the forked child.  A trusted change (our own mutant) is
    applied before the sandbox; an untrusted one (a patch) runs in a
    child that the zygote's C put in the sandbox before calling here
    (zygote_serve.c), and is applied with the guards armed first."""
    # pytest's own chatter went to a buffer; the tests' output goes to the
    # child's capped output pipe.
    sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
    untrusted = bool(flags & F_UNTRUSTED) or mode == MODE_CALLS
    if untrusted != _litmus.sandboxed():
        raise RuntimeError("an untrusted run outside the sandbox"
                           if untrusted else
                           "a trusted run sandboxed before its change")
    files, unpin, probe = _job_files(mode, flags, extra)
    if untrusted:
        shared.UNTRUSTED = True
        _child_setup(scratch)
        # Before the guards: the watch writes its sitecustomize.py.
        needs = _needs_watch(mode, flags, scratch)
        if unpin:
            _litmus.guard_unpin(unpin)
        _litmus.arm(flags, scratch)
    if mode == MODE_CALLS:
        _litmus.applied(APPLY_OK, "calls")
        litmus_calls.main(extra)
        return
    if mode == MODE_MUTANT:
        if files is not None:
            status, text = apply_files(files)
        else:
            status, text = apply_mutant(index, start, end, replacement,
                                        b"" if untrusted else swap,
                                        fresh=untrusted)
        if untrusted and status == APPLY_RAISED and \
                text.startswith(("SystemExit", "KeyboardInterrupt")):
            _litmus.tamper("raised %s while being imported" % text)
        _litmus.applied(status, text)
        if status != APPLY_OK:
            return
    else:
        _litmus.applied(APPLY_OK, "baseline")
    if not untrusted:
        # In process mode the zygote's C binds the changed files (the
        # mutant's subject, a candidate's files) for the tests' processes.
        _litmus.enter_sandbox()
        _child_setup(scratch)
        needs = _needs_watch(mode, flags, scratch)
    if flags & F_CAPTURE:
        subject = shared.SUBJECTS[index]
        litmus_calls.install_capture(subject.path, subject.modules,
                                     _project_modules(),
                                     200 if files is not None else 0)
    if probe:
        import litmus_probe
        litmus_probe.install(probe, _project_modules())
    run_tests(indices, stop_first,
              coverage=(mode == MODE_BASELINE or bool(flags & F_COVERAGE)),
              needs=needs, probe=bool(probe))
