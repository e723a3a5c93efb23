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
# Why the zygote could not start or collect (_litmus.fail; wire.h,
# enum lt_fail_cause).
FAIL_OTHER, FAIL_UNITTEST_SUITE, FAIL_IMPORT = 0, 1, 2
# Run flags, mirrored from runners/runner.h.
F_UNTRUSTED, F_COVERAGE, F_CAPTURE, F_PROCESSES, F_FILES = 1, 2, 4, 64, 128
NEEDS_PROCESSES, NEEDS_NETWORK, NEEDS_UNTRACED = 1, 2, 4
UNTRUSTED = False  # set in a child running a candidate

import litmus_calls
from litmus_codediff import code_diff, keyed_children as _keyed_children
from litmus_codediff import is_function_code as _is_function_code
from litmus_codediff import qualname as _qualname


_REALPATHS = {}
try:
    from abc import ABCMeta as _ABCMETA
except ImportError:  # pragma: no cover
    _ABCMETA = type


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
                by_code.setdefault((_qualname(child), child.co_firstlineno), p)
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
            key = by_code.get((_qualname(code), code.co_firstlineno))
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
    imported the user's code, and litmus's own modules (litmus_shim,
    litmus_calls, ...: their names are pinned by the guards of an
    untrusted run).  Classified once in the zygote."""
    return [m for name, m in list(sys.modules.items())
            if not name.startswith("litmus_") and _is_project_module(m)]


_SHARED_TYPES = (bool, int, float, complex, str, bytes, tuple, frozenset,
                 range, type(Ellipsis), type(NotImplemented))


_GONE = object()
_UNMOVED = object()


def _imported_from_elsewhere(value, module_name):
    """Whether a module's function or class came from another module
    (`from math import gcd`): other modules may hold the same object
    through their own imports, which a patch that no longer imports it
    must not take from them."""
    if isinstance(value, (types.FunctionType, types.BuiltinFunctionType,
                          type)):
        try:
            owner = value.__module__
        except Exception:
            return False
        return isinstance(owner, str) and owner != module_name
    return False


def _rebind(old, new_dict, drop_missing=False):
    """After re-executing a module, points other modules' names that held
    its old objects at the new ones (tests that did `from m import f`).
    drop_missing: a name the new module no longer defines is removed
    where others imported it, so using it fails as the import would have
    in a fresh interpreter.  Modules (`import heapq`) are shared by every
    module that imports them, litmus's own too: they never move.  What
    the old module imported from elsewhere is not dropped where others
    imported it too."""
    moved = {}
    module_name = new_dict.get("__name__")
    for name, value in old.items():
        # Immutable values may be shared or interned (small ints, strings,
        # None): matching them by identity would rewrite unrelated names.
        if value is None or isinstance(value, _SHARED_TYPES) or \
                isinstance(value, types.ModuleType):
            continue
        if name in new_dict:
            if new_dict[name] is not value:
                moved[id(value)] = new_dict[name]
        elif drop_missing and \
                not _imported_from_elsewhere(value, module_name):
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
    _rebind_params(moved)


def _rebind_params(moved):
    """The values pytest took at collection for parametrized tests
    (`parametrize("cls", [LRI, LRU])`, or in tuples of them) are the old
    objects too: each test's parameters are pointed at the new ones, as a
    fresh import and collection would have made them."""
    if PYTEST_SESSION is None:
        return

    def new_value(v):
        repl = moved.get(id(v), _UNMOVED)
        if repl is not _UNMOVED and repl is not _GONE:
            return repl
        if type(v) in (tuple, list):
            items = [new_value(x) for x in v]
            if any(x is not y for x, y in zip(items, v)):
                return type(v)(items)
        return v

    for item in getattr(PYTEST_SESSION, "items", ()):
        params = getattr(getattr(item, "callspec", None), "params", None)
        if not isinstance(params, dict):
            continue
        for name, value in list(params.items()):
            repl = new_value(value)
            if repl is not value:
                params[name] = repl


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
        if keypath == ("<rebind>",):
            # One module-level statement executed again in the imported
            # module: the engine found that nothing read what it binds
            # while the module and the tests were imported.
            for mod in subject.modules:
                try:
                    exec(new_code, mod.__dict__)
                except BaseException as exc:
                    return APPLY_RAISED, "%s: %s" % (type(exc).__name__, exc)
            _install_loader_patch(subject.path, new_raw)
            return APPLY_OK, "re-executed the mutated statement"
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
        if fresh:
            _keep_classes(old, mod.__dict__)
        _rebind(old, mod.__dict__, drop_missing=fresh)
    return APPLY_OK, "re-executed module"


_CLASS_SKIP = frozenset(("__dict__", "__weakref__"))


def _keep_classes(old, new_dict):
    """After a patch's module is re-executed: each class it defines again
    (same name, same kind, bases and slots) keeps its identity, its
    attributes replaced by the new definition's.  A subclass another
    module made at import (a test's conftest subclassing the package's
    app class) then inherits the patched methods, as it would after a
    fresh import; replacing the class would leave it on the old one."""
    module_name = new_dict.get("__name__")
    kept = {}  # id(new class) -> the class kept in its place
    for name, was in old.items():
        now = new_dict.get(name)
        if not isinstance(was, type) or not isinstance(now, type) or \
                was is now or was.__module__ != module_name or \
                now.__module__ != module_name or \
                was.__qualname__ != now.__qualname__:
            continue
        if _merge_class(was, now, kept):
            kept[id(now)] = was
            new_dict[name] = was
    if kept:
        _retype_instances(new_dict, kept)


def _retype_instances(new_dict, kept):
    """Objects the re-executed module made of a class that was then kept
    in the new one's place (`settings = _Settings()` at module level, or
    in a module-level list or dict) are of the dropped class: their
    methods' super() names the kept one, so they become its instances,
    as a fresh import would have made them."""
    def retype(v):
        new_cls = type(v)
        was = kept.get(id(new_cls))
        if was is None:
            return
        # Past the class's own __setattr__ (it may use super()): the
        # first one a built-in base defines (threading.local's, object's).
        for base in new_cls.__mro__:
            setter = base.__dict__.get("__setattr__")
            if setter is not None and \
                    not isinstance(setter, types.FunctionType):
                try:
                    setter(v, "__class__", was)
                except TypeError:  # another layout: left as it is
                    pass
                return
    for v in list(new_dict.values()):
        if isinstance(v, type):
            continue
        retype(v)
        if type(v) in (list, tuple, set, frozenset):
            for x in list(v)[:1000]:
                retype(x)
        elif type(v) is dict:
            for x in list(v.values())[:1000]:
                retype(x)


def _merge_class(was, now, kept):
    """Puts now's attributes on was; False (was untouched) when the two
    cannot be one class: another metaclass, other bases (a base kept in
    place of a new one counts as that one) or slots."""
    bases = tuple(kept.get(id(b), b) for b in now.__bases__)
    if type(was) is not type(now) or type(was) not in (type, _ABCMETA) or \
            was.__bases__ != bases or \
            was.__dict__.get("__slots__") != now.__dict__.get("__slots__"):
        return False
    # The slots' descriptors stay the kept class's own (the same slots):
    # the new class's would not apply to the kept class's objects.
    slot_types = (types.MemberDescriptorType, types.GetSetDescriptorType)
    new_attrs = {k: v for k, v in now.__dict__.items()
                 if k not in _CLASS_SKIP and not isinstance(v, slot_types)}
    try:
        for k in [k for k, v in was.__dict__.items()
                  if k not in _CLASS_SKIP and k not in new_attrs and
                  not isinstance(v, slot_types)]:
            delattr(was, k)
        for k, v in new_attrs.items():
            if k in ("__module__", "__qualname__"):
                continue
            setattr(was, k, v)
            _retarget_class_cell(v, now, was)
    except (TypeError, AttributeError):
        return False
    return True


def _retarget_class_cell(value, now, was):
    """A method that uses super() or __class__ holds its class in a cell:
    the new class, which is dropped; it must be the one kept."""
    funcs = []
    f = getattr(value, "__func__", value)
    if isinstance(f, types.FunctionType):
        funcs.append(f)
    if isinstance(value, property):
        funcs.extend(g for g in (value.fget, value.fset, value.fdel)
                     if isinstance(g, types.FunctionType))
    for f in funcs:
        for var, cell in zip(f.__code__.co_freevars, f.__closure__ or ()):
            try:
                if var == "__class__" and cell.cell_contents is now:
                    cell.cell_contents = was
            except ValueError:  # an empty cell
                pass


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


def _sandbox_args(flags, scratch, index=None, start=0, end=0,
                  replacement=None):
    """The arguments of _litmus.enter_sandbox for a run: process mode when
    the engine asks for it, with the mutated file (when there is one)
    written to scratch, to be bound over the subject for every process the
    tests start."""
    if not flags & F_PROCESSES:
        return ()
    if replacement is None:
        return (1,)
    subject = SUBJECTS[index]
    raw = subject.source.encode("utf-8")
    new_raw = raw[:start] + replacement.encode("utf-8") + raw[end:]
    where = os.path.join(scratch, ".litmus-mutant")
    os.makedirs(where, exist_ok=True)
    path = os.path.join(where, os.path.basename(subject.path))
    with open(path, "wb") as f:
        f.write(new_raw)
    return (1, ((path, subject.path),))


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
                       for i, sub in enumerate(SUBJECTS)}
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
    if flags & F_PROCESSES and (mode == 0 or flags & F_COVERAGE):
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
        items = RUNNER.items
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
        outcome, text = RUNNER.run(item, nxt)
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


def _files_sandbox_args(flags, scratch, files):
    """enter_sandbox's arguments for a change of whole files (a repository
    candidate): in process mode every changed file that exists is written
    to scratch and bound over the original, so that the processes the
    tests start, and the files the tests read, see the candidate."""
    if not flags & F_PROCESSES:
        return ()
    where = os.path.join(scratch, ".litmus-files")
    binds = []
    for n, (path, text) in enumerate(files):
        if text is None or not os.path.exists(path):
            continue
        copy = os.path.join(where, str(n))
        os.makedirs(copy, exist_ok=True)
        copy = os.path.join(copy, os.path.basename(path))
        with open(copy, "wb") as f:
            f.write(text.encode("utf-8", "surrogateescape"))
        binds.append((copy, path))
    return (1, binds)


class _NewFileFinder:
    """Finds the Python files a candidate adds (they exist only in the
    candidate): `import pkg.new` looks in pkg.__path__, a top-level
    `import new` in sys.path."""

    def __init__(self, files):
        self.files = files  # real path -> source text

    def find_spec(self, name, path=None, target=None):
        from importlib.util import spec_from_loader
        last = name.rpartition(".")[2]
        for entry in (path if path is not None else sys.path):
            if not isinstance(entry, str):
                continue
            base = os.path.join(os.path.realpath(entry or "."), last)
            for file, package in ((base + ".py", False),
                                  (os.path.join(base, "__init__.py"), True)):
                if file in self.files:
                    loader = _NewFileLoader(file, self.files[file], package)
                    spec = spec_from_loader(name, loader, origin=file,
                                            is_package=package)
                    spec.has_location = True
                    if package:
                        spec.submodule_search_locations = [base]
                    return spec
        return None


class _NewFileLoader:
    def __init__(self, path, text, package):
        self.path, self.text, self.package = path, text, package

    def create_module(self, spec):
        return None

    def is_package(self, fullname):
        return self.package

    def get_source(self, fullname):
        return self.text

    def exec_module(self, module):
        module.__file__ = self.path
        code = compile(self.text, self.path, "exec", dont_inherit=True)
        exec(code, module.__dict__)


def apply_files(files):
    """Puts a change of whole files in place (a repository candidate):
    each changed subject re-executed from its new text as a fresh import
    would (apply_mutant with fresh), each new Python file importable.
    files: [(path, text or None for a deleted file)].  Returns an apply
    status and text."""
    by_path = {s.path: i for i, s in enumerate(SUBJECTS)}
    new = {}
    done = []
    status, text = APPLY_OK, ""
    for path, src in files:
        if src is not None and path.endswith(".py") and \
                _realpath(path) not in by_path and not os.path.exists(path):
            new[_realpath(path)] = src
    # New modules first: a changed module may import them.
    if new:
        sys.meta_path.insert(0, _NewFileFinder(new))
    # Syntax first, over every file: a candidate that does not compile is
    # invalid whatever order its files come in.
    for path, src in files:
        if src is not None and path.endswith(".py"):
            try:
                compile(src, path, "exec", dont_inherit=True)
            except (SyntaxError, ValueError) as exc:
                return APPLY_INVALID, "%s: %s (%s)" % (type(exc).__name__,
                                                      exc, path)
    for path, src in files:
        if src is None or not path.endswith(".py"):
            continue
        index = by_path.get(_realpath(path))
        if index is None:
            continue
        raw = SUBJECTS[index].source.encode("utf-8")
        status, text = apply_mutant(index, 0, len(raw), src, fresh=True)
        if status == APPLY_EQUIVALENT:
            status, text = APPLY_OK, ""
            continue
        if status != APPLY_OK:
            return status, "%s (%s)" % (text, path)
        done.append(os.path.basename(path))
    done.extend(os.path.basename(p) + " (new)" for p in sorted(new))
    return APPLY_OK, "files: " + (", ".join(done) if done else "no code change")


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
    files = None
    unpin = ()
    probe = None
    if mode == 1 and flags & F_FILES:
        import json
        change = json.loads(extra)
        files = [(f[0], f[1]) for f in change["files"]]
        unpin = [str(n) for n in change.get("unpin", ())]
        probe = change.get("probe")
    if untrusted:
        UNTRUSTED = True
        # The candidate's text is only written to scratch here (for the
        # processes its tests start): it runs after the sandbox.
        if files is not None:
            _litmus.enter_sandbox(*_files_sandbox_args(flags, scratch, files))
        elif mode == 1:
            _litmus.enter_sandbox(*_sandbox_args(flags, scratch, index, start,
                                                 end, replacement))
        else:
            _litmus.enter_sandbox()
        _child_setup(scratch)
        # Before the guards: the watch writes its sitecustomize.py.
        needs = _needs_watch(mode, flags, scratch)
        if unpin:
            _litmus.guard_unpin(unpin)
        _litmus.arm(flags)
    if mode == 2:
        _litmus.applied(APPLY_OK, "calls")
        litmus_calls.main(extra)
        return
    if mode == 1:
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
        if files is not None:
            _litmus.enter_sandbox(*_files_sandbox_args(flags, scratch, files))
        elif mode == 1:
            _litmus.enter_sandbox(*_sandbox_args(flags, scratch, index, start,
                                                 end, replacement))
        else:
            _litmus.enter_sandbox(*_sandbox_args(flags, scratch))
        _child_setup(scratch)
        needs = _needs_watch(mode, flags, scratch)
    if flags & F_CAPTURE:
        subject = SUBJECTS[index]
        litmus_calls.install_capture(subject.path, subject.modules,
                                     _project_modules(),
                                     200 if files is not None else 0)
    if probe:
        import litmus_probe
        litmus_probe.install(probe, _project_modules())
    run_tests(indices, stop_first,
              coverage=(mode == 0 or bool(flags & F_COVERAGE)),
              needs=needs, probe=bool(probe))


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
                # pytest binds a unittest item's method anew each time it
                # sets the item up (TestCaseFunction.setup): not a change
                # of the candidate's.
                if type(item).__name__ == "TestCaseFunction":
                    entries.append((d, "item " + item.nodeid, ("_obj",)))
                else:
                    entries.append((d, "item " + item.nodeid))
    t0 = time.perf_counter()
    n = _litmus.guard_set(entries, sorted(paths), sorted(names))
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
        global PYTEST_SESSION
        PYTEST_SESSION = session
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


### Runners: how the tests are collected and run (--runner)
#
# One runner object per zygote: `items` (its collected tests, in order),
# `ids()` (their names, as the engine stores them), `prepare()` (once
# after collection, before the heap is frozen) and `run(item, nextitem)`
# -> (outcome, text).  run_tests, child_main and the fresh children go
# through it alone, so that every runner gets the same coverage,
# selection, timeouts and verdicts.

RUNNER = None  # this zygote's runner, set once the tests are collected
RUNNER_PYTEST, RUNNER_UNITTEST, RUNNER_DOCTEST = 0, 1, 2  # runner.h
RUNNER_KIND = RUNNER_PYTEST  # this zygote's (main)


def _unique_ids(names):
    """Test names made unique: a name met again (unittest's load_tests
    may add one test method several times, with other arguments) gets
    "#2", "#3"... so that every id maps to one test, in the zygote and in
    a fresh child alike."""
    seen = {}
    ids = []
    for name in names:
        n = seen.get(name, 0) + 1
        seen[name] = n
        ids.append(name if n == 1 else "%s#%d" % (name, n))
    return ids


def _exception_text(exc_type, exc):
    """An exception in a line or two, as litmus stores it."""
    import traceback
    try:
        text = "".join(traceback.format_exception_only(exc_type, exc))
    except Exception:
        text = exc_type.__name__
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    return " ".join(lines[:2])[:300] if lines else exc_type.__name__


class _ArgumentError(Exception):
    pass


def _argument_parser(prog):
    """An argparse parser that raises instead of printing and exiting."""
    import argparse

    class Parser(argparse.ArgumentParser):
        def error(self, message):
            raise _ArgumentError("%s: %s" % (prog, message))
    return Parser(prog=prog, add_help=False)


### Start-up failures of the user's environment

class _MissingModules:
    """Last on sys.meta_path while the zygote starts (pytest, its plugins,
    conftest files, the test modules): asked only for a module that no
    other finder found, just before the import raises
    ModuleNotFoundError, it keeps who asked and where the module was
    looked for, which the error's own text does not say."""

    def __init__(self):
        # name -> ("file:line" of the importing code or None, the
        # package directories searched, or None for sys.path)
        self.seen = {}

    def find_spec(self, name, path=None, target=None):
        try:
            where = [str(p) for p in path] if path is not None else None
        except Exception:
            where = None
        self.seen[name] = (_importer_of(sys._getframe(1)), where)
        return None

    def install(self):
        if self not in sys.meta_path:
            sys.meta_path.append(self)

    def remove(self):
        try:
            sys.meta_path.remove(self)
        except ValueError:
            pass


_MISSING = _MissingModules()


def _in_import_system(filename):
    return (filename.startswith("<frozen ")
            or os.path.basename(os.path.dirname(filename)) == "importlib"
            or filename == "<litmus shim>")


def _importer_of(frame):
    """'FILE:LINE' of the code that asked for an import, from the frame
    where the import system was entered: the first frame outside it, or
    None."""
    depth = 0
    while frame is not None and depth < 100:
        name = frame.f_code.co_filename
        if not _in_import_system(name):
            return "%s:%d" % (name, frame.f_lineno)
        frame = frame.f_back
        depth += 1
    return None


def _importer_in_traceback(tb):
    """'FILE:LINE' of the innermost frame of a traceback outside the
    import system (the import statement that failed), or None."""
    found = None
    while tb is not None:
        name = tb.tb_frame.f_code.co_filename
        if not _in_import_system(name):
            found = "%s:%d" % (name, tb.tb_lineno)
        tb = tb.tb_next
    return found


def _missing_module_context(name, importer=None):
    """Who imported the missing module `name`, the interpreter and where
    it looked: "imported by F:L; not found by /v/bin/python on its
    sys.path, packages in /v/lib/python3.11/site-packages"."""
    seen = _MISSING.seen.get(name)
    where = None
    if seen is not None:
        importer = importer or seen[0]
        where = seen[1]
    if where:
        looked = "in %s" % ", ".join(where)
    else:
        sites = [p for p in sys.path if os.path.basename(
            p.rstrip(os.sep)) in ("site-packages", "dist-packages")]
        looked = "on its sys.path%s" % (
            ", packages in %s" % ", ".join(sites) if sites else "")
    return "%snot found by %s %s" % (
        "imported by %s; " % importer if importer else "",
        sys.executable or "the interpreter", looked)


_NO_MODULE = None  # re.compile(r"No module named '([^']+)'"), made on use


def _explain_import_text(text):
    """An error as litmus reports it ("tests/t.py: ModuleNotFoundError:
    No module named 'x'"), with who imported the module, the interpreter
    and where it looked when it names a module that cannot be imported;
    and 1 when it does (else 0)."""
    global _NO_MODULE
    if _NO_MODULE is None:
        import re
        _NO_MODULE = re.compile(r"No module named '([^']+)'")
    found = None
    for found in _NO_MODULE.finditer(text):
        pass
    if found is None:
        return text, 0
    return "%s (%s)" % (text, _missing_module_context(found.group(1))), 1


def _explain_import_error(exc):
    """An exception raised before the first test, in a line; for an
    ImportError, with the import that failed (file and line), the
    interpreter and where it looked; and 1 when it is one (else 0)."""
    text = _exception_text(type(exc), exc)
    if not isinstance(exc, ImportError):
        return text, 0
    importer = _importer_in_traceback(exc.__traceback__)
    if isinstance(exc, ModuleNotFoundError) and exc.name:
        return "%s (%s)" % (text, _missing_module_context(exc.name,
                                                          importer)), 1
    # One that wraps a missing module ('Error importing plugin "x": No
    # module named 'x''): the module's own importer.
    explained, found = _explain_import_text(text)
    if found:
        return explained, 1
    return "%s (%sin %s)" % (text, "imported by %s; " % importer
                             if importer else "",
                             sys.executable or "the interpreter"), 1


class PytestRunner:
    """pytest in-process: the session's items, each run through
    pytest_runtest_protocol with every plugin's wrappers."""

    def __init__(self, session, error_files=()):
        self.session = session
        self.items = list(getattr(session, "items", None) or ())
        self.error_files = list(error_files)

    def ids(self):
        return [item.nodeid for item in self.items]

    def prepare(self):
        _fast_failure_reports()

    def unittest_suite(self):
        """After a failed collection: 1 when the suite looks like a
        unittest one (no pytest settings, the files that failed import
        unittest), which pytest often cannot collect (helpers named
        Test*, imports that rely on unittest's discovery putting the start
        directory on the path); the engine may then run it with the
        unittest runner (FAIL_UNITTEST_SUITE)."""
        config = getattr(self.session, "config", None)
        if config is None or getattr(config, "inipath", None) is not None:
            return 0
        root = str(getattr(config, "rootpath", "") or os.getcwd())
        for name in self.error_files:
            path = os.path.join(root, name)
            try:
                with open(path, encoding="utf-8", errors="replace") as f:
                    text = f.read(200000)
            except OSError:
                continue
            if "import unittest" in text or "from unittest" in text:
                return 1
        return 0

    def hint(self):
        if not self.unittest_suite():
            return ""
        return ("; the tests look like a unittest suite and pytest has no "
                "settings here: if `python -m unittest discover` runs them, "
                "pass --runner unittest")

    def run(self, item, nextitem):
        reports = _run_protocol(item, nextitem)
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
        return outcome, text


def _unittest_args(args):
    """The tests `python -m unittest` would run for litmus's test
    arguments (--tests, then those after `--`): (start directories,
    names, pattern, top-level directory, -k patterns).  Options as
    `python -m unittest discover` takes them (-s, -p, -t, -k; -v, -q,
    -f, -c, -b and --locals are accepted and change nothing here).  A
    positional argument that is a directory is a start directory; after
    the word `discover`, positionals are start, pattern and top-level
    directory, as unittest reads them; any other positional names tests
    as `python -m unittest NAME` does (a module, a class, a method, or a
    .py file).  Nothing named: discovery from ".", as
    `python -m unittest` with no arguments."""
    parser = _argument_parser("--runner unittest")
    parser.add_argument("-s", "--start-directory", action="append",
                        default=[])
    parser.add_argument("-p", "--pattern")
    parser.add_argument("-t", "--top-level-directory")
    parser.add_argument("-k", action="append", default=[])
    for flag in (("-v", "--verbose"), ("-q", "--quiet"), ("--locals",),
                 ("-f", "--failfast"), ("-c", "--catch"), ("-b", "--buffer")):
        parser.add_argument(*flag, action="store_true")
    parser.add_argument("rest", nargs="*")
    opts = parser.parse_intermixed_args(args)
    starts = list(opts.start_directory)
    names = []
    pattern, top = opts.pattern, opts.top_level_directory
    after_discover = None
    for arg in opts.rest:
        if arg == "discover" and after_discover is None:
            after_discover = []
        elif after_discover is not None:
            after_discover.append(arg)
        elif os.path.isdir(arg):
            starts.append(arg)
        else:
            names.append(arg)
    if after_discover:
        if len(after_discover) > 3:
            raise _ArgumentError("--runner unittest: discover takes at most "
                                 "START, PATTERN and TOP, not %r"
                                 % after_discover[3])
        starts.append(after_discover[0])
        if len(after_discover) > 1:
            pattern = after_discover[1]
        if len(after_discover) > 2:
            top = after_discover[2]
    if not starts and not names:
        starts = ["."]
    name_patterns = [p if "*" in p else "*%s*" % p for p in opts.k]
    return starts, names, pattern or "test*.py", top, name_patterns


def _flatten(suite):
    """The test cases of a suite, depth first, in order."""
    import unittest
    for test in suite:
        if isinstance(test, unittest.BaseTestSuite):
            yield from _flatten(test)
        else:
            yield test


class _ModuleMark:
    """Stands for a test class whose tear-down has run while its module
    stays set up: unittest's suite compares the previous test's class and
    module to decide which fixtures to run."""

    def __init__(self, module):
        self.__module__ = module


class UnittestRunner:
    """`python -m unittest`: discovery as `python -m unittest discover`
    does it (start directory, pattern, top-level directory, the
    load_tests protocol), or the tests named as `python -m unittest NAME`
    loads them.  Suites are flattened to their test cases; each case runs
    on its own, inside the class and module fixtures (setUpModule,
    setUpClass and their tear-downs) that unittest's TestSuite runs around
    it: a fixture is set up in the window of the first test that needs it
    and torn down in the window of the last one before another class (or
    module) comes, as pytest does with nextitem, so its lines count in
    those tests' coverage and its failure is theirs."""

    def __init__(self, args):
        (self.starts, self.names, self.pattern, self.top,
         self.name_patterns) = _unittest_args(args)
        self.items = []
        self.errors = []
        self._suite = None
        self._result = None
        self._fixture_fates = {}  # class or module name -> (outcome, text)
        self._marks = {}

    def _loader(self):
        import unittest
        loader = unittest.TestLoader()
        if self.name_patterns:
            loader.testNamePatterns = self.name_patterns
        return loader

    def collect(self):
        from unittest.loader import _FailedTest
        from unittest.main import _convert_names
        suites = []
        for start in self.starts:
            loader = self._loader()
            try:
                suites.append(loader.discover(start, self.pattern, self.top))
            except Exception as exc:  # not a directory, not importable
                self.errors.append("%s: %s" % (start, _exception_text(
                    type(exc), exc)))
        if self.names:
            loader = self._loader()
            try:
                suites.append(loader.loadTestsFromNames(
                    _convert_names(self.names)))
            except Exception as exc:
                self.errors.append("%s: %s" % (" ".join(self.names),
                                               _exception_text(type(exc),
                                                               exc)))
        for suite in suites:
            for test in _flatten(suite):
                if isinstance(test, _FailedTest):
                    # An import error, or a name that is not there: unittest
                    # would report it as an error of the run.
                    exc = getattr(test, "_exception", None)
                    lines = [l for l in str(exc).splitlines() if l.strip()]
                    self.errors.append("%s: %s" % (
                        test._testMethodName,
                        lines[-1].strip()[:300] if lines else
                        type(exc).__name__))
                elif callable(test):  # a TestCase, or what a suite holds
                    self.items.append(test)

    def ids(self):
        return _unique_ids([test.id() if hasattr(test, "id") else str(test)
                            for test in self.items])

    def prepare(self):
        pass

    def hint(self):
        if self.items or not self.starts:
            return ""
        return " (unittest's discovery from %s, pattern %r%s)" % (
            ", ".join(self.starts), self.pattern,
            ", top-level directory %s" % self.top if self.top else "")

    def _start(self):
        import unittest

        class Result(unittest.TestResult):
            """What a window's fixtures and test reported: the first
            failure wins over skips; nothing is formatted but the
            exception's line."""

            fate = None

            def _failed(self, test, err, what=FAILED):
                exc_type, exc = err[0], err[1]
                if UNTRUSTED and issubclass(exc_type, (SystemExit,
                                                       KeyboardInterrupt)):
                    _litmus.tamper("raised %s in %s" % (exc_type.__name__,
                                                        test))
                if issubclass(exc_type, MemoryError):
                    what = MEMORY
                text = _exception_text(exc_type, exc)
                if not isinstance(test, unittest.TestCase):
                    text = "%s: %s" % (test, text)  # setUpClass (m.C): ...
                if self.fate is None or self.fate[0] not in (FAILED, MEMORY):
                    self.fate = (what, text)

            def addError(self, test, err):
                self._failed(test, err)

            def addFailure(self, test, err):
                self._failed(test, err)

            def addSubTest(self, test, subtest, err):
                if err is not None:
                    self._failed(subtest, err)

            def addSkip(self, test, reason):
                if self.fate is None:
                    self.fate = (SKIPPED, str(reason)[:300])

            def addExpectedFailure(self, test, err):
                if self.fate is None:
                    self.fate = (SKIPPED, "expected failure")

            def addUnexpectedSuccess(self, test):
                # `python -m unittest` fails the run for it.
                self.fate = (FAILED, "unexpected success")

        self._suite = unittest.TestSuite()
        self._result = Result()

    def run(self, test, nextitem):
        if self._result is None:
            self._start()
        suite, result = self._suite, self._result
        result.fate = None
        cls = test.__class__
        try:
            suite._handleModuleFixture(test, result)
            suite._handleClassSetUp(test, result)
            result._previousTestClass = cls
            module_failed = result._moduleSetUpFailed
            if module_failed or getattr(cls, "_classSetupFailed", False):
                # Not run, as in a TestSuite: its fixture failed, in this
                # window or an earlier one.
                key = cls.__module__ if module_failed else cls
                if result.fate is not None:
                    self._fixture_fates[key] = result.fate
                else:
                    result.fate = self._fixture_fates.get(
                        key, (SKIPPED, "its fixture failed"))
            else:
                test(result)
            next_cls = nextitem.__class__ if nextitem is not None else None
            if next_cls is not cls:
                suite._tearDownPreviousClass(nextitem, result)
                if next_cls is None or next_cls.__module__ != cls.__module__:
                    suite._handleModuleTearDown(result)
                    result._previousTestClass = None
                else:
                    mark = self._marks.get(cls.__module__)
                    if mark is None:
                        mark = self._marks[cls.__module__] = \
                            _ModuleMark(cls.__module__)
                    result._previousTestClass = mark
        except KeyboardInterrupt as exc:  # unittest lets it through
            result._failed(test, (type(exc), exc, exc.__traceback__))
        return result.fate or (PASSED, "")


def _doctest_args(args):
    """(option flags, files) for --runner doctest from litmus's test
    arguments, as `python -m doctest` takes them: -o FLAG (repeatable),
    -f (FAIL_FAST), -v (accepted); positionals are more files whose
    doctests run: modules (.py) or text files."""
    import doctest
    parser = _argument_parser("--runner doctest")
    parser.add_argument("-o", "--option", action="append", default=[])
    parser.add_argument("-f", "--fail-fast", action="store_true")
    parser.add_argument("-v", "--verbose", action="store_true")
    parser.add_argument("files", nargs="*")
    opts = parser.parse_intermixed_args(args)
    flags = 0
    for name in opts.option:
        if name not in doctest.OPTIONFLAGS_BY_NAME:
            raise _ArgumentError("--runner doctest: -o %s: not a doctest "
                                 "option flag" % name)
        flags |= doctest.OPTIONFLAGS_BY_NAME[name]
    if opts.fail_fast:
        flags |= doctest.FAIL_FAST
    return flags, opts.files


def _import_file(path):
    """The module of a .py file: under the name the import path gives it,
    else as `python -m doctest FILE` imports it (its directory first on
    the path, by its base name)."""
    import importlib
    real = _realpath(path)
    for name in _import_names(path):
        mod = importlib.import_module(name)
        f = getattr(mod, "__file__", None)
        if isinstance(f, str) and _realpath(f) == real:
            return mod
    directory, base = os.path.split(os.path.abspath(path))
    sys.path.insert(0, directory)
    try:
        return importlib.import_module(base[:-3])
    finally:
        sys.path.remove(directory)


def _doctest_text(out):
    """The first failure of a doctest's report in a line: the example,
    what was expected and what it gave, each traceback cut to its last
    line (the exception)."""
    kept = []
    traceback_depth = None
    for line in "".join(out).splitlines():
        text = line.strip()
        if not text or line.startswith(("*****", "File ")):
            continue
        depth = len(line) - len(line.lstrip())
        if traceback_depth is not None:
            if depth > traceback_depth:
                continue  # a frame of the traceback
            traceback_depth = None
        if text == "Traceback (most recent call last):":
            traceback_depth = depth
            continue
        if text == "Failed example:" and kept:
            break  # the next failure
        kept.append(text)
    return " ".join(kept)[:300]


class DoctestRunner:
    """`python -m doctest`: the doctests of every subject module and of
    the files given, one test per docstring (doctest.DocTestFinder's
    tests, named as doctest names them: module, module.function,
    module.Class.method), run with a fresh copy of the module's globals
    each time, as doctest.testmod gives them."""

    def __init__(self, args):
        self.flags, self.files = _doctest_args(args)
        self.items = []  # (DocTest, module or None for a text file)
        self.errors = []

    def collect(self):
        import doctest
        finder = doctest.DocTestFinder()
        parser = doctest.DocTestParser()
        seen = set()
        for path in [s.path for s in SUBJECTS] + list(self.files):
            real = _realpath(path)
            if real in seen:
                continue
            seen.add(real)
            try:
                if path.endswith(".py"):
                    module = _import_file(path)
                    tests = [(t, module) for t in
                             finder.find(module, module.__name__)]
                else:
                    with open(path, encoding="utf-8") as f:
                        text = f.read()
                    tests = [(parser.get_doctest(
                        text, {}, os.path.basename(path), path, 0), None)]
            except Exception as exc:
                self.errors.append("%s: %s" % (path, _exception_text(
                    type(exc), exc)))
                continue
            self.items.extend((t, m) for t, m in tests if t.examples)

    def ids(self):
        return _unique_ids([test.name for test, _ in self.items])

    def prepare(self):
        pass

    def hint(self):
        return "" if self.items else \
            " (no docstring of the mutated modules or given files has examples)"

    def run(self, item, nextitem):
        import doctest

        class Runner(doctest.DocTestRunner):
            memory = False

            def report_unexpected_exception(self, out, test, example,
                                            exc_info):
                if issubclass(exc_info[0], MemoryError):
                    self.memory = True
                super().report_unexpected_exception(out, test, example,
                                                    exc_info)

        test, module = item
        test.globs = dict(module.__dict__) if module is not None \
            else {"__name__": "__main__"}
        runner = Runner(verbose=False, optionflags=self.flags)
        out = []
        try:
            res = runner.run(test, out=out.append, clear_globs=True)
        except KeyboardInterrupt:
            return FAILED, "KeyboardInterrupt"
        if res.failed:
            return (MEMORY if runner.memory else FAILED), _doctest_text(out)
        if not res.attempted:
            return SKIPPED, "every example skipped"
        return PASSED, ""


def _serve_tests(runner, errors):
    """The zygote once its runner has collected: checks, the snapshot of
    the framework, READY with the test ids, then the fork server.  In a
    fresh child, runs its job instead (never returns)."""
    global RUNNER
    RUNNER = runner
    _MISSING.remove()  # the children import as under plain pytest
    if FRESH_JOB is not None:
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
    for subject in SUBJECTS:
        problem = _shadowed(subject)
        if problem:
            _litmus.fail(problem)
            return
    runner.prepare()
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
    """The zygote's life under --runner unittest or doctest: collect (the
    output of imports goes nowhere, as pytest's chatter), then serve as
    under pytest."""
    import io
    try:
        runner = (UnittestRunner if kind == RUNNER_UNITTEST
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


### Fresh imports: module- and class-level mutants (docs/design.md)

FRESH_JOB = None  # in a child of the pre-import server: its job
# In a fresh child under pytest: the files (node id parts before "::",
# relative to the rootdir) of the tests it runs; it collects no other.
FRESH_KEEP = None


def _fresh_make_collect_report(self, collector):
    """pytest_make_collect_report of LitmusPlugin (tryfirst): a fresh child
    collects only its own tests' files, so that a mutant of a module
    constant that a few tests read does not pay for collecting the whole
    suite again.  The child is forked in the middle of collection, when
    the file nodes exist but most are not imported yet: the others are
    reported collected with nothing in them.  Packages and directories
    are always entered."""
    keep = FRESH_KEEP
    if keep is None:
        return None
    import pytest
    if not isinstance(collector, pytest.File) or \
            isinstance(collector, getattr(pytest, "Package", ())):
        return None
    path = getattr(collector, "path", None)
    root = getattr(collector.config, "rootpath", None)
    if path is None or root is None:
        return None
    try:
        rel = os.path.relpath(str(path), str(root)).replace(os.sep, "/")
    except ValueError:
        return None
    if rel in keep:
        return None
    from _pytest.reports import CollectReport
    return CollectReport(collector.nodeid, "passed", None, [])


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
    global FRESH_JOB, FRESH_KEEP
    FRESH_JOB = job
    index, start, end, replacement = job[1:5]
    if RUNNER_KIND == RUNNER_PYTEST:
        ids = _litmus.fresh_ids()
        files = set()
        for i in job[5]:
            if i >= len(ids) or "::" not in ids[i]:
                files = None  # not a file's test: collect everything
                break
            files.add(ids[i].split("::", 1)[0])
        FRESH_KEEP = files
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


def _fresh_run(runner, errors):
    """A fresh child after its own collection: map the engine's test
    indices to its tests by id, then run them as child_main does."""
    indices, stop_first, scratch = FRESH_JOB[5:8]
    sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
    if errors:
        _litmus.fresh_abort("collection failed: " + "; ".join(errors))
    if not runner.items:
        _litmus.fresh_abort("no tests collected")
    by_id = dict(zip(runner.ids(), runner.items))
    ids = _litmus.fresh_ids()
    selected = [by_id.get(ids[i]) if i < len(ids) else None
                for i in indices]
    runner.prepare()
    _prepare_hypothesis()
    _litmus.applied(APPLY_OK, "fresh import")
    gc.collect()
    gc.freeze()
    index, start, end, replacement = FRESH_JOB[1:5]
    _litmus.enter_sandbox(*_sandbox_args(FRESH_JOB[8], scratch, index, start,
                                         end, replacement))
    _child_setup(scratch)
    run_tests(indices, stop_first, selected=selected)
    _litmus.fresh_end()


def main(args, subjects, flags=0):
    """The zygote's life: flags bit 0, a bare zygote (call evaluation, no
    tests); bit 1, preload the differential input generator; bits 2-3,
    the runner (RUNNER_PYTEST, RUNNER_UNITTEST, RUNNER_DOCTEST).  What
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
    global PRELOAD_GENERATOR, RUNNER_KIND
    kind = (flags >> 2) & 3
    RUNNER_KIND = kind
    bare = flags & 1
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
