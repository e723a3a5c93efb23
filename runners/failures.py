# Start-up failures of the user's environment: which module could not be
# imported, who imported it and where the interpreter looked, told in a
# line (_explain_import_error).  Part of the shim (shim.py); compiled
# into the litmus binary as litmus_failures.
# SPDX-License-Identifier: MIT
import os
import sys



def _exception_text(exc_type, exc):
    """An exception in a line or two, as litmus stores it."""
    import traceback
    try:
        text = "".join(traceback.format_exception_only(exc_type, exc))
    except Exception:
        text = exc_type.__name__
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    return " ".join(lines[:2])[:300] if lines else exc_type.__name__


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


_NO_MODULE = [None]  # re.compile(r"No module named '([^']+)'"), made on use


def _explain_import_text(text):
    """An error as litmus reports it ("tests/t.py: ModuleNotFoundError:
    No module named 'x'"), with who imported the module, the interpreter
    and where it looked when it names a module that cannot be imported;
    and 1 when it does (else 0)."""
    if _NO_MODULE[0] is None:
        import re
        _NO_MODULE[0] = re.compile(r"No module named '([^']+)'")
    found = None
    for found in _NO_MODULE[0].finditer(text):
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
