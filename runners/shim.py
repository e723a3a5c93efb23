# The Python side of a litmus zygote: drives pytest in-process, applies a
# mutant in a forked child and reports each test through the C module
# `_litmus`.  Compiled into the litmus binary; runs in the embedded
# interpreter.  SPDX-License-Identifier: MIT
import gc
import os
import sys
import time
import types

import _litmus

# Outcome codes, mirrored from harness/wire.h.
PASSED, FAILED, SKIPPED, MEMORY = 0, 1, 2, 3
APPLY_OK, APPLY_INVALID, APPLY_RAISED, APPLY_EQUIVALENT = 0, 1, 2, 3
# Run flags, mirrored from runners/runner.h.
F_UNTRUSTED, F_COVERAGE, F_CAPTURE = 1, 2, 4
UNTRUSTED = False  # set in a child running a candidate

import litmus_calls
from litmus_codediff import code_diff, keyed_children as _keyed_children
from litmus_codediff import is_function_code as _is_function_code


_REALPATHS = {}


def _realpath(path):
    """os.path.realpath, memoised: indexing the subjects resolves the file
    of every function in the process, thousands of them from a few hundred
    files, and each resolution is a stat per path component."""
    real = _REALPATHS.get(path)
    if real is None:
        real = _REALPATHS[path] = os.path.realpath(path)
    return real


class Subject:
    """A file under mutation, as the zygote saw it before forking."""

    def __init__(self, path, source):
        self.path = path
        self.source = source
        self.code = compile(source, path, "exec", dont_inherit=True)
        self.modules = []
        self.functions = {}  # key path -> [function objects]

    def find_modules(self):
        """The live module(s) built from this file."""
        real = _realpath(self.path)
        self.modules = [m for m in list(sys.modules.values())
                        if isinstance(getattr(m, "__file__", None), str)
                        and _realpath(m.__file__) == real]

    def code_keys(self):
        """{(qualname, first line): key path} of the file's function code
        objects, to recognise the live functions built from them."""
        by_code = {}
        self._walk(self.code, (), by_code)
        return by_code

    def _walk(self, code, path, by_code):
        for key, child in _keyed_children(code).items():
            p = path + (key,)
            # An ordinal above 0 is ambiguous by (qualname, line); such
            # functions are left to re-execution.
            if key[2] == 0:
                by_code.setdefault((child.co_qualname, child.co_firstlineno), p)
            self._walk(child, p, by_code)


SUBJECTS = []
PYTEST_SESSION = None


def _index_subjects():
    """Finds each subject's live module(s) and the function objects built
    from it.  Done once in the zygote so that no child pays for it, in one
    walk of the heap for every subject: a walk per subject made a project
    of many files slow to start."""
    by_real = {}  # real path -> (subject, {(qualname, line): key path})
    for subject in SUBJECTS:
        subject.find_modules()
        if subject.modules:
            by_real[_realpath(subject.path)] = (subject, subject.code_keys())
    if not by_real:
        return
    for filename, functions in _litmus.functions_by_file(
            gc.get_objects()).items():
        entry = by_real.get(_realpath(filename))
        if entry is None:
            continue
        subject, by_code = entry
        for obj in functions:
            code = obj.__code__
            key = by_code.get((code.co_qualname, code.co_firstlineno))
            if key is not None:
                subject.functions.setdefault(key, []).append(obj)


_LIBRARY_DIRS = None
_MODULE_KIND = {}  # id(module) -> True when it is project code


def _is_project_module(mod):
    global _LIBRARY_DIRS
    kind = _MODULE_KIND.get(id(mod))
    if kind is not None:
        return kind
    if _LIBRARY_DIRS is None:
        import site
        import sysconfig
        dirs = set()
        for key in ("stdlib", "platstdlib", "purelib", "platlib"):
            path = sysconfig.get_paths().get(key)
            if path:
                dirs.add(os.path.realpath(path) + os.sep)
        for path in site.getsitepackages():
            dirs.add(os.path.realpath(path) + os.sep)
        _LIBRARY_DIRS = tuple(dirs)
    f = getattr(mod, "__file__", None)
    kind = isinstance(f, str) and \
        not _realpath(f).startswith(_LIBRARY_DIRS)
    _MODULE_KIND[id(mod)] = kind
    return kind


def _project_modules():
    """Modules that may hold names imported from a subject: everything
    but the standard library and installed packages, which cannot have
    imported the user's code.  Classified once in the zygote."""
    return [m for m in list(sys.modules.values()) if _is_project_module(m)]


_SHARED_TYPES = (bool, int, float, complex, str, bytes, tuple, frozenset,
                 range, type(Ellipsis), type(NotImplemented))


_GONE = object()
_UNMOVED = object()


def _rebind(old, new_dict, drop_missing=False):
    """After re-executing a module, points other modules' names that held
    its old objects at the new ones (tests that did `from m import f`).
    drop_missing: a name the new module no longer defines is removed
    where others imported it, so using it fails as the import would have
    in a fresh interpreter."""
    moved = {}
    for name, value in old.items():
        # Immutable values may be shared or interned (small ints, strings,
        # None): matching them by identity would rewrite unrelated names.
        if value is None or isinstance(value, _SHARED_TYPES):
            continue
        if name in new_dict:
            if new_dict[name] is not value:
                moved[id(value)] = new_dict[name]
        elif drop_missing:
            moved[id(value)] = _GONE
    if not moved:
        return
    for mod in _project_modules():
        d = getattr(mod, "__dict__", None)
        if not isinstance(d, dict) or d is new_dict:
            continue
        for name, value in list(d.items()):
            # A mutant may rebind a name to None: absence is _UNMOVED.
            repl = moved.get(id(value), _UNMOVED)
            if repl is _GONE:
                del d[name]
            elif repl is not _UNMOVED:
                d[name] = repl


# What the import system put in a module's namespace, kept when a patch
# replaces the module's code; everything else comes from the patch alone.
_IMPORT_DUNDERS = frozenset(("__name__", "__file__", "__spec__", "__loader__",
                             "__package__", "__builtins__", "__path__",
                             "__cached__"))


def _install_loader_patch(path, code):
    """Any later import or reload of the file gets the mutated code, even
    through importlib machinery the tests drive themselves.  `code` may be
    the mutated source (bytes) instead: it is compiled on first use, so a
    child that swapped precompiled functions compiles nothing unless a
    test imports the file again."""
    from importlib import machinery
    real = _realpath(path)
    original_get_code = machinery.SourceFileLoader.get_code
    compiled = [code if not isinstance(code, bytes) else None]

    def get_code(self, fullname):
        if os.path.realpath(self.path) == real:
            if compiled[0] is None:
                compiled[0] = compile(code, path, "exec", dont_inherit=True)
            return compiled[0]
        return original_get_code(self, fullname)

    machinery.SourceFileLoader.get_code = get_code


def _apply_swap(subject, new_raw, swap):
    """Puts a mutant in place from the engine's swap payload: the changed
    function code objects, compiled and compared once in the planner.
    Returns an apply result, or None when the payload does not fit the
    live functions (the caller then compiles as usual)."""
    import marshal
    try:
        changed = marshal.loads(swap)
    except (ValueError, EOFError, TypeError):
        return None
    pairs = []
    for keypath, new_code in changed:
        funcs = subject.functions.get(keypath)
        if funcs:
            pairs.extend((f, new_code) for f in funcs)
        elif len(keypath) == 1 and _is_function_code(new_code):
            return None  # no live object: only re-execution places it
    done = []
    try:
        for f, new_code in pairs:
            old = f.__code__
            f.__code__ = new_code
            done.append((f, old))
    except ValueError:  # closure shape changed
        for f, old in done:
            f.__code__ = old
        return None
    _install_loader_patch(subject.path, new_raw)
    return APPLY_OK, "swapped %d function(s), precompiled" % len(pairs)


def apply_mutant(index, start, end, replacement, swap=b"", fresh=False):
    """Puts a change of subject `index` in place.  fresh: the change is a
    whole new file (a patch), so when the module must be re-executed it
    starts from an empty namespace, as a fresh import would: nothing the
    buggy file defined and the patch does not can linger."""
    subject = SUBJECTS[index]
    src = subject.source
    raw = src.encode("utf-8")
    new_raw = raw[:start] + replacement.encode("utf-8") + raw[end:]
    if swap and subject.modules:
        res = _apply_swap(subject, new_raw, swap)
        if res is not None:
            return res
    new_src = new_raw.decode("utf-8", "surrogateescape")
    try:
        code = compile(new_src, subject.path, "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as exc:
        return APPLY_INVALID, "%s: %s" % (type(exc).__name__, exc)
    changed, structural = code_diff(subject.code, code, quick=True)
    if not changed:
        return APPLY_EQUIVALENT, ""
    _install_loader_patch(subject.path, code)
    if not subject.modules:
        return APPLY_OK, "not imported yet"
    need_exec = bool(structural)
    swaps = []
    if not need_exec:
        for keypath, new_code in changed.items():
            if keypath == ():
                continue
            funcs = subject.functions.get(keypath)
            if funcs:
                swaps.extend((f, new_code) for f in funcs)
            elif len(keypath) == 1 and _is_function_code(new_code):
                # A top-level function with no live object: only
                # re-executing the module can put the mutant in place.
                # (A class body here changed only below it: the methods
                # that changed are swapped on their own.)
                need_exec = True
    if not need_exec:
        try:
            for f, new_code in swaps:
                f.__code__ = new_code
            return APPLY_OK, "swapped %d function(s)" % len(swaps)
        except ValueError:
            need_exec = True  # closure shape changed
    for mod in subject.modules:
        old = dict(mod.__dict__)
        if fresh:
            for name in list(mod.__dict__):
                if name not in _IMPORT_DUNDERS:
                    del mod.__dict__[name]
        try:
            exec(code, mod.__dict__)
        except BaseException as exc:  # the mutant broke module-level code
            return APPLY_RAISED, "%s: %s" % (type(exc).__name__, exc)
        _rebind(old, mod.__dict__, drop_missing=fresh)
    return APPLY_OK, "re-executed module"


def _describe(report):
    short = getattr(report, "litmus_text", None)
    if short:
        return short
    text = getattr(report, "longreprtext", "") or ""
    lines = [l for l in text.strip().splitlines() if l.strip()]
    if not lines:
        return report.when
    # The last "E   ..." line is pytest's summary of the exception.
    for line in reversed(lines):
        if line.startswith("E "):
            return line[1:].strip()[:300]
    return lines[-1].strip()[:300]


# The reports of the test being run: LitmusPlugin.pytest_runtest_protocol
# puts them here; pytest_runtest_logreport collects them instead when
# another plugin's protocol ran the test.
_PROTOCOL = {"reports": None, "logged": None}


def _run_protocol(item, nextitem):
    """Runs one test through pytest_runtest_protocol, so that every
    plugin's wrapper of the protocol applies as under `python -m pytest`:
    the warnings plugin's filters (filterwarnings in the ini, -W, the
    filterwarnings mark: warnings turned into errors fail the test),
    pytest-timeout and the like.  Calling runtestprotocol directly would
    skip them, and a mutant caught only by such a filter would survive."""
    _PROTOCOL["reports"] = None
    _PROTOCOL["logged"] = logged = []
    try:
        item.ihook.pytest_runtest_protocol(item=item, nextitem=nextitem)
    finally:
        _PROTOCOL["logged"] = None
    reports = _PROTOCOL["reports"]
    return logged if reports is None else reports


def run_tests(indices, stop_first, coverage=False, selected=None):
    """selected: the items for indices (a fresh child's own collection),
    None for a test that collection no longer produces: it is reported
    skipped, as plain pytest would not run it either."""
    if selected is None:
        items = PYTEST_SESSION.items
        selected = [items[i] for i in indices]
    if None in selected:
        for k, item in enumerate(selected):
            if item is None:
                _litmus.test_start(indices[k])
                _litmus.test_result(indices[k], SKIPPED, 0,
                                    "not collected under the mutant")
        indices = [i for i, it in zip(indices, selected) if it is not None]
        selected = [it for it in selected if it is not None]
    if coverage:
        import threading
        threading.settrace(_litmus.thread_trace_hook)
    for k, item in enumerate(selected):
        nxt = selected[k + 1] if k + 1 < len(selected) else None
        _litmus.test_start(indices[k])
        t0 = time.perf_counter_ns()
        if coverage:
            _litmus.trace_begin()
        reports = _run_protocol(item, nxt)
        if coverage:
            _litmus.trace_end(indices[k])
        dt = time.perf_counter_ns() - t0
        outcome, text = PASSED, ""
        for rep in reports:
            if rep.failed:
                outcome = MEMORY if getattr(rep, "litmus_memory", False) \
                    else FAILED
                text = _describe(rep)
                break
            if rep.when == "call" and rep.skipped:
                outcome = SKIPPED
            elif rep.when == "setup" and rep.skipped:
                outcome = SKIPPED
        _litmus.test_result(indices[k], outcome, dt, text)
        if outcome in (FAILED, MEMORY) and stop_first:
            return


def _child_setup(scratch):
    # Temporary files of the tests go to the child's scratch directory.
    import tempfile
    os.environ["TMPDIR"] = scratch
    tempfile.tempdir = scratch
    # Hypothesis keeps its example database under the working directory,
    # which is read-only here: the child's goes to scratch.
    hypothesis_config = sys.modules.get("hypothesis.configuration")
    if hypothesis_config is not None:
        hypothesis_config.set_hypothesis_home_dir(
            os.path.join(scratch, ".hypothesis"))
    if PYTEST_SESSION is None:
        return
    factory = getattr(PYTEST_SESSION.config, "_tmp_path_factory", None)
    if factory is not None:
        from pathlib import Path
        factory._given_basetemp = Path(scratch) / "basetemp"
        factory._basetemp = None


def child_main(mode, index, start, end, replacement, indices, stop_first,
               scratch, flags=0, extra="", swap=b""):
    """Runs in the forked child, before and after the sandbox.  A trusted
    change (our own mutant) is applied before the sandbox; an untrusted one
    (a patch) only after it, with the guards armed first."""
    global UNTRUSTED
    # pytest's own chatter went to a buffer; the tests' output goes to the
    # child's capped output pipe.
    sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
    untrusted = bool(flags & F_UNTRUSTED) or mode == 2
    if untrusted:
        UNTRUSTED = True
        _litmus.enter_sandbox()
        _child_setup(scratch)
        _litmus.arm(flags)
    if mode == 2:
        _litmus.applied(APPLY_OK, "calls")
        litmus_calls.main(extra)
        return
    if mode == 1:
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
        _litmus.enter_sandbox()
        _child_setup(scratch)
    if flags & F_CAPTURE:
        subject = SUBJECTS[index]
        litmus_calls.install_capture(subject.path, subject.modules,
                                     _project_modules())
    run_tests(indices, stop_first,
              coverage=(mode == 0 or bool(flags & F_COVERAGE)))


PRELOAD_GENERATOR = False


def _guard_snapshot():
    """Pins the framework in C before any child runs a candidate: every
    module but the subjects (pytest, the shim, builtins, test modules),
    sys.modules itself, and the collected test items."""
    names = set()
    paths = set()
    for subject in SUBJECTS:
        paths.add(subject.path)
        for m in subject.modules:
            names.add(m.__name__)
    entries = [(sys.modules, "sys.modules")]
    for name, mod in list(sys.modules.items()):
        if mod is None or name in names:
            continue
        # An alias (py.test for pytest) is pinned under its own name.
        canonical = getattr(mod, "__name__", name)
        if canonical != name and sys.modules.get(canonical) is mod:
            continue
        d = getattr(mod, "__dict__", None)
        if isinstance(d, dict):
            entries.append((d, name))
    if PYTEST_SESSION is not None:
        for item in PYTEST_SESSION.items:
            d = getattr(item, "__dict__", None)
            if isinstance(d, dict):
                entries.append((d, "item " + item.nodeid))
    path = next(iter(paths)) if len(paths) == 1 else ""
    modname = next(iter(names)) if len(names) == 1 else None
    t0 = time.perf_counter()
    n = _litmus.guard_set(entries, path, modname)
    if os.environ.get("LITMUS_DEBUG"):
        sys.__stderr__.write("litmus-zygote: %d guard entries in %.1f ms\n"
                             % (n, (time.perf_counter() - t0) * 1000))


def _fast_failure_reports():
    """A failing test's report keeps only the exception line: litmus
    stores nothing more, and pytest's formatting of the traceback (source
    lines read cold in every child) costs more than the test itself."""
    from _pytest import nodes

    def repr_failure_py(self, excinfo, style=None):
        try:
            return excinfo.exconly()
        except Exception:
            return "failed"
    nodes.Node._repr_failure_py = repr_failure_py


def _prepare_hypothesis():
    """When the tests use hypothesis: fixes its seed to 0 (as
    --hypothesis-seed=0 would, unless the user gave one: a verdict must
    not depend on the run), and creates and registers its global Random
    before the heap is frozen, as hypothesis itself would on the first
    test.  With a fixed seed hypothesis does that lazily, in the first
    test, and register_random warns (HypothesisWarning) when
    gc.get_referrers finds nothing holding the Random: after gc.freeze()
    the module that holds it is invisible to get_referrers, so the warning
    fired in every child, and a suite with `filterwarnings = error` failed
    its hypothesis tests (hypothesis reported them Flaky) where
    `python -m pytest` passes.  Called before _guard_snapshot."""
    core = sys.modules.get("hypothesis.core")
    if core is None:
        return
    if not _USER_HYPOTHESIS_SEED and getattr(core, "global_force_seed",
                                             0) is None:
        core.global_force_seed = 0
    if getattr(core, "_hypothesis_global_random", 0) is not None:
        return
    try:
        import random
        import warnings
        from hypothesis.internal.entropy import register_random
        core._hypothesis_global_random = random.Random()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            register_random(core._hypothesis_global_random)
    except Exception:
        pass


class LitmusPlugin:
    def __init__(self):
        self.collect_errors = []

    def pytest_collectreport(self, report):
        if report.failed:
            self.collect_errors.append(
                "%s: %s" % (report.nodeid or "<collection>", _describe(report)))

    import pytest as _pytest_mod

    @_pytest_mod.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item, call):
        outcome = yield
        rep = outcome.get_result()
        if call.excinfo is not None:
            if UNTRUSTED and call.excinfo.errisinstance(
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

    @_pytest_mod.hookimpl(tryfirst=True)
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

    @_pytest_mod.hookimpl(tryfirst=True)
    def pytest_runtestloop(self, session):
        try:
            self._serve(session)
        except BaseException as exc:
            # Whatever shape pytest's session has, a failure here is ours:
            # name the exception and where it came from, not an
            # INTERNALERROR.
            import traceback
            where = traceback.extract_tb(exc.__traceback__)[-1:]
            at = " at %s:%d" % (where[0].filename, where[0].lineno) \
                if where else ""
            _litmus.fail("the runner shim failed (a litmus bug): %s: %s%s"
                         % (type(exc).__name__, exc, at))
        return True

    def _serve(self, session):
        global PYTEST_SESSION
        PYTEST_SESSION = session
        if FRESH_JOB is not None:
            _fresh_run(self, session)  # never returns
        _FRESH_FINDER.remove()
        if self.collect_errors or session.testsfailed:
            _litmus.fail("collection failed: " + "; ".join(
                self.collect_errors or ["%d errors" % session.testsfailed]))
            return
        items = getattr(session, "items", None)
        if not items:
            _litmus.fail("no tests collected")
            return
        for subject in SUBJECTS:
            problem = _shadowed(subject)
            if problem:
                _litmus.fail(problem)
                return
        _fast_failure_reports()
        _prepare_hypothesis()
        if PRELOAD_GENERATOR:
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
        _litmus.ready([item.nodeid for item in items])
        _litmus.serve(child_main)


def _import_names(path):
    """The dotted names under which `path` can be imported from sys.path:
    every directory between a sys.path entry and the file must be a
    package (hold an __init__.py)."""
    real = _realpath(path)
    names = []
    for entry in sys.path:
        if not isinstance(entry, str):
            continue
        base = _realpath(entry or os.getcwd())
        if not real.startswith(base.rstrip(os.sep) + os.sep):
            continue
        rel = real[len(base.rstrip(os.sep)) + 1:]
        if not rel.endswith(".py"):
            continue
        parts = rel[:-3].split(os.sep)
        dirs = parts[:-1]
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if not parts or not all(p.isidentifier() for p in parts):
            continue
        ok = True
        d = base
        for part in dirs:
            d = os.path.join(d, part)
            if not os.path.exists(os.path.join(d, "__init__.py")):
                ok = False
                break
        if ok:
            names.append(".".join(parts))
    if not names:
        # Not importable from the path at all: the name its own package
        # chain gives it (the directories above that hold __init__.py).
        d, base = os.path.split(real[:-3] if real.endswith(".py") else real)
        parts = [] if base == "__init__" else [base]
        while os.path.exists(os.path.join(d, "__init__.py")):
            d, part = os.path.split(d)
            parts.insert(0, part)
        if parts and all(p.isidentifier() for p in parts):
            names.append(".".join(parts))
    return names


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
    global _USER_HYPOTHESIS_SEED
    plugins = _installed_plugins()
    joined = " ".join(args)
    _USER_HYPOTHESIS_SEED = "--hypothesis-seed" in joined
    extra = []
    if "pytest_cov" in plugins and "no:pytest_cov" not in joined:
        extra.append("--no-cov")
    if "xdist" in plugins and "no:xdist" not in joined:
        extra += ["-n", "0"]
    if "pytest_randomly" in plugins:
        extra += ["-p", "no:randomly"]
    return extra


_USER_HYPOTHESIS_SEED = False


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


### Fresh imports: module- and class-level mutants (docs/design.md)

FRESH_JOB = None  # in a child of the pre-import server: its job


def _statement_units(tree):
    """(first, last) lines of every multi-line simple statement, compound
    statement header (up to its body) and decorator: coverage counts such
    a unit as executed when any of its lines is."""
    import ast
    units = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.stmt):
            continue
        for dec in getattr(node, "decorator_list", ()):
            units.append((dec.lineno, dec.end_lineno))
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.stmt):
            units.append((node.lineno, max(node.lineno, body[0].lineno - 1)))
        else:
            units.append((node.lineno, node.end_lineno))
    return [(a, b) for a, b in units if b is not None and b > a]


class _FreshFinder:
    """First on sys.meta_path in the zygote until the first import of a
    subject file.  At that import the zygote forks its pre-import server
    (which stays paused right here); a child of that server comes back out
    of preimport_fork() with a job, puts the mutated code in the loader and
    lets the import, and the rest of collection, happen fresh.  The spec
    is resolved by the finders after this one, as importlib would."""

    def __init__(self):
        self.reals = set()
        self.done = False

    def remove(self):
        self.done = True
        if self in sys.meta_path:
            sys.meta_path.remove(self)

    def find_spec(self, name, path=None, target=None):
        if self.done:
            return None
        spec = None
        mine = False
        for finder in list(sys.meta_path):
            if finder is self:
                mine = True
                continue
            find = getattr(finder, "find_spec", None)
            if not mine or find is None:
                continue
            spec = find(name, path, target)
            if spec is not None:
                break
        if spec is None:
            return None
        origin = spec.origin
        if not isinstance(origin, str) or \
                _realpath(origin) not in self.reals:
            return spec
        self.done = True
        job = _litmus.preimport_fork()
        if job is not None:
            _fresh_child_begin(job)
        return spec


_FRESH_FINDER = _FreshFinder()


def _fresh_setup():
    """Zygote, before pytest starts: coverage units of each subject and
    the import hook that forks the pre-import server."""
    import ast
    for i, subject in enumerate(SUBJECTS):
        try:
            units = _statement_units(ast.parse(subject.source))
        except (SyntaxError, ValueError):
            units = []
        _litmus.set_units(i, units)
        _FRESH_FINDER.reals.add(_realpath(subject.path))
    sys.meta_path.insert(0, _FRESH_FINDER)


def _fresh_child_begin(job):
    """In a fresh child, inside the import of the first subject: every
    later import of the mutated file (the one under way included, when it
    is that file) loads the mutant."""
    global FRESH_JOB
    FRESH_JOB = job
    index, start, end, replacement = job[1:5]
    subject = SUBJECTS[index]
    raw = subject.source.encode("utf-8")
    new_raw = raw[:start] + replacement.encode("utf-8") + raw[end:]
    try:
        code = compile(new_raw.decode("utf-8", "surrogateescape"),
                       subject.path, "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as exc:
        _litmus.applied(APPLY_INVALID, "%s: %s" % (type(exc).__name__, exc))
        _litmus.fresh_end()
    _install_loader_patch(subject.path, code)


def _fresh_run(plugin, session):
    """A fresh child after its own collection: map the engine's test
    indices to its items by node id, then run them as child_main does."""
    indices, stop_first, scratch = FRESH_JOB[5:8]
    sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
    if plugin.collect_errors or session.testsfailed:
        _litmus.fresh_abort("collection failed: " + "; ".join(
            plugin.collect_errors or ["%d errors" % session.testsfailed]))
    if not session.items:
        _litmus.fresh_abort("no tests collected")
    by_id = {item.nodeid: item for item in session.items}
    ids = _litmus.fresh_ids()
    selected = [by_id.get(ids[i]) if i < len(ids) else None
                for i in indices]
    _fast_failure_reports()
    _prepare_hypothesis()
    _litmus.applied(APPLY_OK, "fresh import")
    gc.collect()
    gc.freeze()
    _litmus.enter_sandbox()
    _child_setup(scratch)
    run_tests(indices, stop_first, selected=selected)
    _litmus.fresh_end()


def main(args, subjects, flags=0):
    """The zygote's life: flags bit 0, a bare zygote (call evaluation, no
    tests); bit 1, preload the differential input generator."""
    global PRELOAD_GENERATOR
    import pytest
    sys.dont_write_bytecode = True
    bare = flags & 1
    PRELOAD_GENERATOR = bool(flags & 2)
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
            SUBJECTS.append(Subject(path, source))
        except (SyntaxError, ValueError) as exc:
            _litmus.fail("%s does not compile: %s" % (path, exc))
            return
    _fresh_setup()
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
    try:
        code = pytest.main(forced + args, plugins=[plugin])
    except SystemExit as exc:
        code = exc.code
    except BaseException as exc:
        code = "%s: %s" % (type(exc).__name__, exc)
    finally:
        sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
    lines = [l.strip() for l in chatter.getvalue().splitlines() if l.strip()]
    said = " | ".join(lines[-4:])
    _litmus.fail("pytest ended before running tests (exit status %s)%s"
                 % (code, ": " + said if said else ""))
