# The files under mutation as the zygote saw them before forking: each
# subject's live modules and the function objects built from it, and
# which modules are the project's (not the standard library's or an
# installed package's).  Part of the shim (shim.py); compiled into the
# litmus binary as litmus_subjects.  SPDX-License-Identifier: MIT
import gc
import os
import sys

import _litmus
from litmus_codediff import keyed_children as _keyed_children
from litmus_codediff import qualname as _qualname
import litmus_shared as shared


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
                by_code.setdefault((_qualname(child), child.co_firstlineno), p)
            self._walk(child, p, by_code)


def _index_subjects():
    """Finds each subject's live module(s) and the function objects built
    from it.  Done once in the zygote so that no child pays for it, in one
    walk of the heap for every subject: a walk per subject made a project
    of many files slow to start."""
    by_real = {}  # real path -> (subject, {(qualname, line): key path})
    for subject in shared.SUBJECTS:
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


_LIBRARY_DIRS = [None]  # the standard library's and packages', on use
_MODULE_KIND = {}  # id(module) -> True when it is project code


def _is_project_module(mod):
    kind = _MODULE_KIND.get(id(mod))
    if kind is not None:
        return kind
    if _LIBRARY_DIRS[0] is None:
        import site
        import sysconfig
        dirs = set()
        for key in ("stdlib", "platstdlib", "purelib", "platlib"):
            path = sysconfig.get_paths().get(key)
            if path:
                dirs.add(os.path.realpath(path) + os.sep)
        for path in site.getsitepackages():
            dirs.add(os.path.realpath(path) + os.sep)
        _LIBRARY_DIRS[0] = tuple(dirs)
    f = getattr(mod, "__file__", None)
    kind = isinstance(f, str) and \
        not _realpath(f).startswith(_LIBRARY_DIRS[0])
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
