# Tests of runners/shim.py's account of a start-up that fails, outside a
# zygote (a stand-in `_litmus` module): an import that fails is named with
# the file and line that imported the module, the interpreter and where it
# looked (the finder last on sys.meta_path, the traceback); and pytest's
# collection failure on a suite that looks like unittest's is told apart
# (the FAILED frame's cause, which lets the engine try the unittest runner).
#   /usr/bin/python3 -m pytest tests/unit/runners/test_shim_startup.py
# SPDX-License-Identifier: MIT
import os
import sys
import types

import pytest

from shim_stub import _litmus, failures, shared, shim  # noqa: E402


@pytest.fixture
def missing(tmp_path, monkeypatch):
    """A directory first on sys.path, and the shim's finder installed (as
    during a zygote's start-up) with no record yet."""
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(failures, "_MISSING", failures._MissingModules())
    failures._MISSING.install()
    yield tmp_path
    failures._MISSING.remove()
    for name in [n for n in sys.modules if n.startswith("lt_startup_")]:
        del sys.modules[name]


def test_finder_keeps_importer_of_top_level_module(missing):
    (missing / "lt_startup_mod.py").write_text(
        "x = 1\nimport lt_startup_absent_dep\n")
    with pytest.raises(ModuleNotFoundError):
        import lt_startup_mod  # noqa: F401
    importer, where = failures._MISSING.seen["lt_startup_absent_dep"]
    assert importer == "%s:2" % (missing / "lt_startup_mod.py")
    assert where is None  # looked for on sys.path


def test_finder_keeps_package_directory_of_submodule(missing):
    pkg = missing / "lt_startup_pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("from .absent_part import y\n")
    with pytest.raises(ModuleNotFoundError):
        import lt_startup_pkg  # noqa: F401
    importer, where = failures._MISSING.seen["lt_startup_pkg.absent_part"]
    assert importer == "%s:1" % (pkg / "__init__.py")
    assert where == [str(pkg)]


def test_text_names_module_importer_interpreter_and_search_path(missing):
    (missing / "lt_startup_t.py").write_text("import lt_startup_gone\n")
    with pytest.raises(ModuleNotFoundError):
        import lt_startup_t  # noqa: F401
    text, imported = shim._explain_import_text(
        "tests/t.py: ModuleNotFoundError: No module named 'lt_startup_gone'")
    assert imported == 1
    assert text.startswith(
        "tests/t.py: ModuleNotFoundError: No module named 'lt_startup_gone' "
        "(imported by %s:1; not found by %s on its sys.path"
        % (missing / "lt_startup_t.py", sys.executable))
    sites = [p for p in sys.path if os.path.basename(p) in
             ("site-packages", "dist-packages")]
    if sites:
        assert text.endswith(", packages in %s)" % ", ".join(sites))


def test_text_of_a_package_names_its_directory(missing):
    pkg = missing / "lt_startup_pk2"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    with pytest.raises(ModuleNotFoundError):
        import lt_startup_pk2.nothing_here  # noqa: F401
    text, imported = shim._explain_import_text(
        "No module named 'lt_startup_pk2.nothing_here'")
    assert imported == 1
    assert text.endswith("not found by %s in %s)" % (sys.executable, pkg))


def test_text_without_a_missing_module_is_kept(missing):
    text = "tests/t.py: SyntaxError: invalid syntax"
    assert shim._explain_import_text(text) == (text, 0)


def test_text_of_an_unrecorded_module_still_names_the_interpreter(missing):
    text, imported = shim._explain_import_text(
        "ModuleNotFoundError: No module named 'never_asked_for'")
    assert imported == 1
    assert "(not found by %s on its sys.path" % sys.executable in text


def test_exception_importer_comes_from_its_traceback(missing):
    (missing / "lt_startup_e.py").write_text(
        "\n\nimport lt_startup_nowhere\n")
    try:
        import lt_startup_e  # noqa: F401
    except ModuleNotFoundError as exc:
        error = exc
    text, imported = shim._explain_import_error(error)
    assert imported == 1
    assert text.startswith(
        "ModuleNotFoundError: No module named 'lt_startup_nowhere' "
        "(imported by %s:3; not found by %s"
        % (missing / "lt_startup_e.py", sys.executable))


def test_import_error_of_a_name_says_importer_and_interpreter(missing):
    (missing / "lt_startup_src.py").write_text("a = 1\n")
    (missing / "lt_startup_user.py").write_text(
        "from lt_startup_src import b\n")
    try:
        import lt_startup_user  # noqa: F401
    except ImportError as exc:
        error = exc
    text, imported = shim._explain_import_error(error)
    assert imported == 1
    assert text.startswith("ImportError: cannot import name 'b' from "
                           "'lt_startup_src'")
    assert text.endswith("(imported by %s:1; in %s)"
                         % (missing / "lt_startup_user.py", sys.executable))


def test_wrapped_missing_module_is_named(missing):
    """pytest's 'Error importing plugin' wraps the missing module in an
    ImportError of its own: the module is still named, with where the
    interpreter looked."""
    try:
        import lt_startup_plugin_absent  # noqa: F401
    except ModuleNotFoundError as exc:
        error = ImportError('Error importing plugin "lt_startup_plugin_'
                            'absent": %s' % exc.args[0])
    text, imported = shim._explain_import_error(error)
    assert imported == 1
    assert "No module named 'lt_startup_plugin_absent' (imported by " \
        "%s:" % __file__ in text
    assert "; not found by %s on its sys.path" % sys.executable in text


def test_other_exceptions_are_not_import_failures():
    text, imported = shim._explain_import_error(ValueError("bad value"))
    assert (text, imported) == ("ValueError: bad value", 0)


class _Config:
    def __init__(self, root, inipath=None):
        self.rootpath = root
        self.inipath = inipath


def _runner(root, files, inipath=None):
    session = types.SimpleNamespace(config=_Config(root, inipath), items=[])
    return shim.PytestRunner(session, files)


def test_unittest_signature(tmp_path):
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_u.py").write_text(
        "import unittest\nimport helpers\n")
    (tmp_path / "tests" / "test_p.py").write_text("import helpers\n")
    runner = _runner(tmp_path, ["tests/test_u.py"])
    assert runner.unittest_suite() == 1
    assert "pass --runner unittest" in runner.hint()
    # Files that do not import unittest, or pytest settings in the
    # project: pytest's suite, no signature.
    assert _runner(tmp_path, ["tests/test_p.py"]).unittest_suite() == 0
    assert _runner(tmp_path, ["tests/test_p.py"]).hint() == ""
    assert _runner(tmp_path, ["tests/test_u.py"],
                   inipath=tmp_path / "pytest.ini").unittest_suite() == 0


def test_collection_failure_cause(tmp_path, monkeypatch):
    """_serve_tests reports a failed collection once, with the cause: the
    unittest signature first, then an import failure, else other."""
    sent = []
    monkeypatch.setattr(_litmus, "fail",
                        lambda msg, cause=shim.FAIL_OTHER:
                        sent.append((msg, cause)), raising=False)
    monkeypatch.setattr(shared, "FRESH_JOB", None)
    (tmp_path / "test_u.py").write_text("import unittest\n")
    (tmp_path / "test_p.py").write_text("x = 1\n")
    shim._serve_tests(_runner(tmp_path, ["test_u.py"]),
                      ["test_u.py: ModuleNotFoundError: No module named "
                       "'helpers'"])
    shim._serve_tests(_runner(tmp_path, ["test_p.py"]),
                      ["test_p.py: ModuleNotFoundError: No module named "
                       "'helpers'"])
    shim._serve_tests(_runner(tmp_path, ["test_p.py"]),
                      ["test_p.py: NameError: name 'y' is not defined"])
    assert [cause for _, cause in sent] == [
        shim.FAIL_UNITTEST_SUITE, shim.FAIL_IMPORT, shim.FAIL_OTHER]
    assert sent[0][0].startswith("collection failed: test_u.py: "
                                 "ModuleNotFoundError: No module named "
                                 "'helpers' (")
    assert sent[0][0].endswith("pass --runner unittest")
    assert sent[2][0] == ("collection failed: test_p.py: NameError: name "
                          "'y' is not defined")


@pytest.mark.parametrize("pytest_is_the_project", [False, True])
def test_the_guards_pin_pytest_unless_it_is_the_project(
        monkeypatch, pytest_is_the_project):
    """pytest's own tree runs its tests with the tree's pytest: its
    modules are code under test there, not the framework that judges
    them, so they are neither pinned nor let through as pinned classes;
    anywhere else they are pinned like every module."""
    got = {}

    def guard_set(entries, paths, names, unpinned):
        got["labels"] = {e[1] for e in entries}
        got["unpinned"] = unpinned
        return len(entries)
    monkeypatch.setattr(_litmus, "guard_set", guard_set, raising=False)
    monkeypatch.setattr(shared, "SUBJECTS", [])
    monkeypatch.setattr(shared, "PYTEST_SESSION", None)
    monkeypatch.setattr(
        shim, "_is_project_module",
        lambda m: pytest_is_the_project and m is sys.modules.get("_pytest"))
    shim._guard_snapshot()
    framework = {"pytest", "_pytest.config", "_pytest.python_api"}
    assert "_pytest" in sys.modules and framework <= set(sys.modules)
    if pytest_is_the_project:
        assert got["unpinned"] == ["pytest", "_pytest", "py"]
        assert not framework & got["labels"]
    else:
        assert got["unpinned"] == []
        assert framework <= got["labels"]
    assert "sys.modules" in got["labels"] and "os" in got["labels"]
