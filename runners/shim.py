# The Python side of a litmus zygote: starts the test runner (pytest in
# process, unittest or doctest), collects, pins the framework for the
# guards, and serves the engine's jobs, each in a forked child
# (child.py).  Its steps live in the modules it imports, each importing
# only those before it: shared, subjects, apply, failures, testrunners,
# child, fresh.  Compiled into the litmus binary; runs in the embedded
# interpreter.  SPDX-License-Identifier: MIT
import gc
import os
import sys
import time

import _litmus
import litmus_calls
from litmus_constants import (
    INIT_BARE, INIT_PRELOAD, INIT_RUNNER_MASK, INIT_RUNNER_SHIFT,
    RUNNER_DJANGO, RUNNER_PYTEST, RUNNER_UNITTEST)
import litmus_shared as shared
from litmus_shared import FAIL_IMPORT, FAIL_OTHER, FAIL_UNITTEST_SUITE
from litmus_subjects import (
    Subject, _import_names, _index_subjects, _is_project_module,
    _project_modules, _realpath)
from litmus_failures import (
    _MISSING, _exception_text, _explain_import_error, _explain_import_text)
from litmus_testrunners import (
    DjangoRunner, DoctestRunner, PytestRunner, UnittestRunner, _ArgumentError,
    _PROTOCOL, _describe, _prepare_hypothesis)
from litmus_child import child_main
from litmus_fresh import (
    _FRESH_FINDER, _fresh_make_collect_report, _fresh_run, _fresh_setup)


def _guard_snapshot():
    """Pins the framework in C before any child runs a candidate: every
    module but the subjects (pytest, the shim, builtins, test modules),
    sys.modules itself, and the collected test items."""
    names = set()
    paths = set()
    for subject in shared.SUBJECTS:
        paths.add(subject.path)
        for m in subject.modules:
            names.add(m.__name__)
    entries = [(sys.modules, "sys.modules")]
    # pytest's own tree: the framework is the project under test, whose
    # plugins set its classes' attributes during a session (legacypath's
    # Config.invocation_dir); it is code under test, not pinned.
    framework = ["pytest", "_pytest", "py"] \
        if _is_project_module(sys.modules.get("_pytest")) else []
    for name, mod in list(sys.modules.items()):
        if mod is None or name in names:
            continue
        if name.split(".", 1)[0] in framework:
            continue
        # An alias (py.test for pytest) is pinned under its own name.
        canonical = getattr(mod, "__name__", name)
        if canonical != name and sys.modules.get(canonical) is mod:
            continue
        d = getattr(mod, "__dict__", None)
        if isinstance(d, dict):
            entries.append((d, name))
    if shared.PYTEST_SESSION is not None:
        for item in shared.PYTEST_SESSION.items:
            d = getattr(item, "__dict__", None)
            if isinstance(d, dict):
                # pytest binds a unittest item's method anew each time it
                # sets the item up (TestCaseFunction.setup): not a change
                # of the candidate's.
                if type(item).__name__ == "TestCaseFunction":
                    entries.append((d, "item " + item.nodeid, ("_obj",)))
                else:
                    entries.append((d, "item " + item.nodeid))
    t0 = time.perf_counter()
    n = _litmus.guard_set(entries, sorted(paths), sorted(names), framework)
    if os.environ.get("LITMUS_DEBUG"):
        sys.__stderr__.write("litmus-zygote: %d guard entries in %.1f ms\n"
                             % (n, (time.perf_counter() - t0) * 1000))


def _hookimpl(**opts):
    """pytest.hookimpl(**opts), applied by _mark_hooks when pytest runs:
    the shim loads without importing pytest, which the unittest and
    doctest runners need not have."""
    def mark(f):
        f.litmus_hookimpl = opts
        return f
    return mark


def _mark_hooks(cls, pytest):
    for f in list(vars(cls).values()):
        opts = getattr(f, "litmus_hookimpl", None)
        if opts is not None:
            pytest.hookimpl(**opts)(f)


class LitmusPlugin:
    def __init__(self):
        self.collect_errors = []
        self.collect_error_files = []

    def pytest_collectreport(self, report):
        if report.failed:
            self.collect_errors.append(
                "%s: %s" % (report.nodeid or "<collection>", _describe(report)))
            if report.nodeid:
                self.collect_error_files.append(report.nodeid.split("::")[0])

    @_hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item, call):
        outcome = yield
        rep = outcome.get_result()
        if call.excinfo is not None:
            if shared.UNTRUSTED and call.excinfo.errisinstance(
                    (SystemExit, KeyboardInterrupt)):
                _litmus.tamper("raised %s in %s (%s)" % (
                    call.excinfo.typename, item.nodeid, call.when))
            if call.excinfo.errisinstance(MemoryError):
                rep.litmus_memory = True
            try:
                lines = [l.strip() for l in call.excinfo.exconly().splitlines()
                         if l.strip()]
            except Exception:
                lines = []
            if lines:
                rep.litmus_text = " ".join(lines[:2])[:300]

    @_hookimpl(tryfirst=True)
    def pytest_runtest_protocol(self, item, nextitem):
        # Inside the other plugins' wrappers (see _run_protocol); pytest's
        # own implementation would also log the reports to the terminal.
        from _pytest.runner import runtestprotocol
        _PROTOCOL["reports"] = runtestprotocol(item, log=False,
                                               nextitem=nextitem)
        return True

    def pytest_runtest_logreport(self, report):
        logged = _PROTOCOL["logged"]
        if logged is not None:
            logged.append(report)

    @_hookimpl(tryfirst=True)
    def pytest_runtestloop(self, session):
        try:
            self._serve(session)
        except BaseException as exc:
            # Whatever shape pytest's session has, a failure here is ours,
            # not an INTERNALERROR.
            _shim_failed(exc)
        return True

    def _serve(self, session):
        shared.PYTEST_SESSION = session
        errors = self.collect_errors or (
            ["%d errors" % session.testsfailed] if session.testsfailed
            else [])
        # --continue-on-collection-errors (repository candidates' wider
        # suite): the files that cannot be collected are left out, as
        # pytest itself would run the rest.
        if getattr(session.config.option, "continue_on_collection_errors",
                   False) and session.items:
            errors = []
        _serve_tests(PytestRunner(session, self.collect_error_files), errors)


def _shadowed(subject):
    """A message when the tests import another copy of the subject than
    the file litmus mutates (an installed copy, a copy elsewhere on the
    path); None when they import this file or it cannot be told."""
    real = _realpath(subject.path)
    for m in list(sys.modules.values()):
        f = getattr(m, "__file__", None)
        if isinstance(f, str) and _realpath(f) == real:
            return None
    stdlib = getattr(sys, "stdlib_module_names", ())
    for name in _import_names(subject.path):
        if name.split(".")[0] in stdlib:
            continue  # the standard library's module wins; not a copy
        mod = sys.modules.get(name)
        other = getattr(mod, "__file__", None) if mod is not None else None
        if mod is None:
            try:
                import importlib.util
                spec = importlib.util.find_spec(name)
            except Exception:
                spec = None
            if spec is not None and spec.has_location:
                other = spec.origin
        if isinstance(other, str) and _realpath(other) != real:
            return ("%s is not the file the tests import: they import '%s' "
                    "from %s (install the project editable, e.g. pip install "
                    "-e ., or put its directory first with PYTHONPATH or "
                    "pytest's pythonpath setting)"
                    % (subject.path, name, other))
    return None


def _installed_plugins():
    """The top-level modules of the pytest plugins installed for this
    interpreter (entry points of the pytest11 group)."""
    try:
        from importlib.metadata import entry_points
        eps = entry_points(group="pytest11")
    except Exception:
        return set()
    return {ep.value.split(":")[0].split(".")[0] for ep in eps}


def _neutralising_args(args):
    """Arguments appended after the user's (so they win over addopts) that
    keep plugins from doing litmus's job or breaking it: coverage (litmus
    traces lines itself), distribution (litmus is the runner), random
    order (every zygote must collect the same order).  Hypothesis' seed
    is fixed after collection (_prepare_hypothesis): passing
    --hypothesis-seed would make its plugin import hypothesis in every
    zygote, used or not (a tenth of a second)."""
    plugins = _installed_plugins()
    joined = " ".join(args)
    shared.USER_HYPOTHESIS_SEED = "--hypothesis-seed" in joined
    extra = []
    if "pytest_cov" in plugins and "no:pytest_cov" not in joined:
        extra.append("--no-cov")
    if "xdist" in plugins and "no:xdist" not in joined:
        extra += ["-n", "0"]
    if "pytest_randomly" in plugins:
        extra += ["-p", "no:randomly"]
    return extra


def _cache_reads_only():
    """pytest's cache is read (--lf, --ff work as the user expects) but
    never written into the project: values are dropped and directories a
    plugin asks for are made under the temporary directory (the child's
    scratch)."""
    import tempfile
    from pathlib import Path
    from _pytest import cacheprovider

    def set_(self, key, value):
        return None

    def mkdir(self, name):
        path = Path(tempfile.gettempdir()) / "litmus-pytest-cache" / name
        path.mkdir(parents=True, exist_ok=True)
        return path
    cacheprovider.Cache.set = set_
    cacheprovider.Cache.mkdir = mkdir


def _serve_tests(runner, errors):
    """The zygote once its runner has collected: checks, the snapshot of
    the framework, READY with the test ids, then the fork server.  In a
    fresh child, runs its job instead (never returns)."""
    shared.RUNNER = runner
    _MISSING.remove()  # the children import as under plain pytest
    if shared.FRESH_JOB is not None:
        _fresh_run(runner, errors)  # never returns
    _FRESH_FINDER.remove()
    if errors:
        explained = [_explain_import_text(e) for e in errors]
        cause = FAIL_OTHER
        if getattr(runner, "unittest_suite", lambda: 0)():
            cause = FAIL_UNITTEST_SUITE
        elif any(imported for _, imported in explained):
            cause = FAIL_IMPORT
        _litmus.fail("collection failed: "
                     + "; ".join(text for text, _ in explained)
                     + runner.hint(), cause)
        return
    if not runner.items:
        _litmus.fail("no tests collected" + runner.hint())
        return
    for subject in shared.SUBJECTS:
        problem = _shadowed(subject)
        if problem:
            _litmus.fail(problem)
            return
    runner.prepare()
    _prepare_hypothesis()
    if shared.PRELOAD_GENERATOR:
        # Imported here, once, and pinned by the guards with the rest
        # of the framework (not in each differential child).
        litmus_calls.preload_generator()
    _index_subjects()
    _project_modules()  # classify every module before forking
    _guard_snapshot()
    # Everything shared by the children happens before this point;
    # freeze the heap so forks do not copy it on the next collection.
    gc.collect()
    gc.freeze()
    _litmus.ready(runner.ids())
    _litmus.serve(child_main)


def _shim_failed(exc):
    """A failure of the shim itself: named with where it was raised, as a
    litmus bug, never as the framework's internal error."""
    import traceback
    where = traceback.extract_tb(exc.__traceback__)[-1:]
    at = " at %s:%d" % (where[0].filename, where[0].lineno) if where else ""
    _litmus.fail("the runner shim failed (a litmus bug): %s: %s%s"
                 % (type(exc).__name__, exc, at))


def _main_without_pytest(kind, args):
    """The zygote's life under --runner unittest or doctest, or Django's
    runner: collect (the output of imports goes nowhere, as pytest's
    chatter), then serve as under pytest."""
    import io
    try:
        runner = (UnittestRunner if kind == RUNNER_UNITTEST else
                  DjangoRunner if kind == RUNNER_DJANGO
                  else DoctestRunner)(args)
    except _ArgumentError as exc:
        _litmus.fail(str(exc))
        return
    chatter = io.StringIO()
    sys.stdout = sys.stderr = chatter
    try:
        runner.collect()
    except BaseException as exc:  # SystemExit from a test module's import
        runner.errors.append("collection: " + _exception_text(type(exc), exc))
    finally:
        sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
    try:
        _serve_tests(runner, runner.errors)
    except BaseException as exc:
        _shim_failed(exc)


def main(args, subjects, flags=0):
    """The zygote's life: flags bit 0, a bare zygote (call evaluation, no
    tests); bit 1, preload the differential input generator; bits 2-3,
    the runner (RUNNER_PYTEST, RUNNER_UNITTEST, RUNNER_DOCTEST,
    RUNNER_DJANGO).  What
    raises before READY is reported as the start-up's failure, in a line
    (an import that failed: the module, who imported it, the interpreter
    and where it looked), then raised on."""
    try:
        _main(args, subjects, flags)
    except BaseException as exc:
        text, imported = _explain_import_error(exc)
        _litmus.fail("the runner could not start: " + text,
                     FAIL_IMPORT if imported else FAIL_OTHER)
        raise


def _main(args, subjects, flags):
    kind = (flags >> INIT_RUNNER_SHIFT) & INIT_RUNNER_MASK
    shared.RUNNER_KIND = kind
    bare = flags & INIT_BARE
    if not bare:
        _MISSING.install()
    if kind == RUNNER_PYTEST:
        try:
            import pytest
        except Exception as exc:
            # A pytest that cannot be imported: one of its own
            # dependencies (or a plugin it imports) is missing.
            text, imported = _explain_import_error(exc)
            _litmus.fail("cannot import pytest: " + text,
                         FAIL_IMPORT if imported else FAIL_OTHER)
            return
    sys.dont_write_bytecode = True
    shared.PRELOAD_GENERATOR = bool(flags & INIT_PRELOAD)
    if bare:
        # Call evaluation only: no tests to collect.
        _guard_snapshot()
        gc.collect()
        gc.freeze()
        _litmus.ready([])
        _litmus.serve(child_main)
        return
    for path, source in subjects:
        try:
            shared.SUBJECTS.append(Subject(path, source))
        except (SyntaxError, ValueError) as exc:
            _litmus.fail("%s does not compile: %s" % (path, exc))
            return
    _fresh_setup()
    if kind != RUNNER_PYTEST:
        _main_without_pytest(kind, args)
        return
    if getattr(pytest, "version_tuple", (0,)) >= (7,):
        LitmusPlugin.pytest_make_collect_report = _hookimpl(tryfirst=True)(
            _fresh_make_collect_report)
    _mark_hooks(LitmusPlugin, pytest)
    plugin = LitmusPlugin()
    # Native tracebacks cost half as much per failing test as pytest's
    # long ones; litmus keeps only the exception line anyway.  A --tb in
    # the user's arguments comes later and wins.
    forced = ["-p", "no:faulthandler", "--capture=no", "-q", "--tb=native"]
    _cache_reads_only()
    args = list(args) + _neutralising_args(args)
    import io
    chatter = io.StringIO()
    sys.stdout = sys.stderr = chatter
    raised = None
    try:
        code = pytest.main(forced + args, plugins=[plugin])
    except SystemExit as exc:
        code = exc.code
    except BaseException as exc:
        code = "%s: %s" % (type(exc).__name__, exc)
        raised = exc
    finally:
        sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
    if raised is not None:
        # A plugin that pytest loads could not be imported, or pytest
        # itself failed.
        text, imported = _explain_import_error(raised)
        _litmus.fail("pytest ended before running tests: " + text,
                     FAIL_IMPORT if imported else FAIL_OTHER)
        return
    lines = [l.strip() for l in chatter.getvalue().splitlines() if l.strip()]
    # A conftest file that cannot import a module: pytest said which
    # ("ImportError while loading conftest 'F'.", then "E   ...Error: No
    # module named 'x'"); that, with who imported it and where the
    # interpreter looked, is the line.
    for line in reversed(lines):
        text, imported = _explain_import_text(
            line[1:].strip() if line.startswith("E ") else line)
        if imported:
            loading = [l.rstrip(".") for l in lines
                       if l.startswith("ImportError while loading")]
            _litmus.fail("pytest ended before running tests (exit status "
                         "%s): %s%s" % (code, loading[0] + ": " if loading
                                        else "", text), FAIL_IMPORT)
            return
    said = " | ".join(lines[-4:])
    _litmus.fail("pytest ended before running tests (exit status %s)%s"
                 % (code, ": " + said if said else ""))
