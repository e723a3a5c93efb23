# Runners: how the tests are collected and run (--runner)
#
# One runner object per zygote: `items` (its collected tests, in order),
# `ids()` (their names, as the engine stores them), `prepare()` (once
# after collection, before the heap is frozen) and `run(item, nextitem)`
# -> (outcome, text).  run_tests, child_main and the fresh children go
# through it alone, so that every runner gets the same coverage,
# selection, timeouts and verdicts.  Part of the shim (shim.py);
# compiled into the litmus binary as litmus_testrunners.
# SPDX-License-Identifier: MIT
import os
import sys

import _litmus
from litmus_constants import FAILED, MEMORY, PASSED, SKIPPED
import litmus_shared as shared
from litmus_subjects import _import_names, _realpath
from litmus_failures import _exception_text


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


def _fast_failure_reports(config):
    """A failing test's report keeps only the exception line: litmus
    stores nothing more, and pytest's formatting of the traceback (source
    lines read cold in every child) costs more than the test itself.
    Only for the nodes of litmus's own session (config): a session that
    a test runs in the same process (pytester, a plugin's own tests)
    reports as pytest does, which that test may check."""
    from _pytest import nodes
    pytests = nodes.Node._repr_failure_py

    def repr_failure_py(self, excinfo, style=None):
        if getattr(self, "config", None) is not config:
            return pytests(self, excinfo, style)
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
    if not shared.USER_HYPOTHESIS_SEED and getattr(core, "global_force_seed",
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


class _ArgumentError(Exception):
    pass


def _argument_parser(prog):
    """An argparse parser that raises instead of printing and exiting."""
    import argparse

    class Parser(argparse.ArgumentParser):
        def error(self, message):
            raise _ArgumentError("%s: %s" % (prog, message))
    return Parser(prog=prog, add_help=False)


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
        _fast_failure_reports(getattr(self.session, "config", None))

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
        self._clear()

    def _clear(self):
        """No test collected, no fixture set up yet."""
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
                if shared.UNTRUSTED and issubclass(exc_type, (SystemExit,
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


def _by_signature(fn, **values):
    """The values fn takes, by name (every one when it takes **kwargs):
    Django's set-up functions changed their parameters across versions."""
    import inspect
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return values
    if any(p.kind is p.VAR_KEYWORD for p in params.values()):
        return values
    return {k: v for k, v in values.items() if k in params}


def _django_label(path):
    """A test file's label as Django's runner takes it: the dotted module
    under tests/ ("tests/utils_tests/test_text.py" -> "utils_tests.
    test_text"); a label given as such stays."""
    if not path.endswith(".py"):
        return path
    parts = path[:-3].replace(os.sep, "/").split("/")
    if parts and parts[0] == "tests":
        parts = parts[1:]
    if parts and parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


class DjangoRunner(UnittestRunner):
    """Django's own suite, set up as its tests/runtests.py sets it up (and
    as a repository harness runs it: `tests/runtests.py --settings=
    test_sqlite --parallel 1 LABELS`): the settings module, the test apps
    of the named modules installed, the test environment and databases
    created once, in the zygote, by Django's own test runner (SQLite's
    in-memory databases: each child gets a copy).  Each test then runs as
    under UnittestRunner, inside its class and module fixtures.  Ids are
    written as pytest node ids (tests/app/tests.py::Class::test_x), so
    that the engine reads their files as it reads pytest's."""

    def __init__(self, args):
        self.continue_on_errors = "--continue-on-collection-errors" in args
        chosen = [a.split("=", 1)[1] for a in args
                  if a.startswith("--settings=")]
        self.settings = chosen[-1] if chosen else "test_sqlite"
        self.labels = []
        for a in args:
            label = _django_label(a) if not a.startswith("-") else None
            if label and label not in self.labels:
                self.labels.append(label)
        self._ids = []
        self._clear()

    def _setup(self, root):
        import importlib.util
        import tempfile
        tests = os.path.join(root, "tests")
        if tests not in sys.path:
            sys.path.insert(0, tests)
        os.environ["DJANGO_SETTINGS_MODULE"] = self.settings
        # runtests.py's own temporary folder (STATIC_ROOT, the tests'
        # files), in the zygote's scratch.
        tempfile.tempdir = os.environ["TMPDIR"] = tempfile.mkdtemp(
            prefix="django_")
        spec = importlib.util.spec_from_file_location(
            "runtests", os.path.join(tests, "runtests.py"))
        module = importlib.util.module_from_spec(spec)
        sys.modules["runtests"] = module
        spec.loader.exec_module(module)  # its warning filters, its paths
        if not self._gis_enabled():
            # runtests.py stops the whole run when a label is under
            # gis_tests and the database has no GIS backend; the harness
            # would stop the same way, so those tests are simply missing.
            self.labels = [l for l in self.labels
                           if l.split(".", 1)[0] != "gis_tests"]
            if not self.labels:
                return False
        setup = getattr(module, "setup_run_tests", None) or \
            getattr(module, "setup")
        setup(**_by_signature(setup, verbosity=0, test_labels=self.labels,
                              parallel=1, start_at=None, start_after=None))
        return True

    def _gis_enabled(self):
        """Whether the settings' default database is a GIS backend (read
        from the settings module alone, before Django is set up)."""
        import importlib
        try:
            settings = importlib.import_module(self.settings)
            engine = settings.DATABASES["default"]["ENGINE"]
        except Exception:
            return True     # unknown: runtests.py decides
        return "contrib.gis" in str(engine)

    def _build(self):
        """Django's test runner, up to the point where it would run the
        suite: the environment set up, the databases created, the system
        checks run; the suite kept, nothing torn down."""
        import unittest
        from django.conf import settings
        from django.test.utils import get_runner
        if not hasattr(settings, "TEST_RUNNER"):
            settings.TEST_RUNNER = "django.test.runner.DiscoverRunner"
        cls = get_runner(settings)
        runner = cls(**_by_signature(
            cls, verbosity=0, interactive=False, failfast=False,
            keepdb=False, reverse=False, debug_sql=False, parallel=1,
            tags=None, exclude_tags=None))
        kept = []

        def run_suite(suite, **kwargs):
            kept.append(suite)
            return unittest.TestResult()
        runner.run_suite = run_suite
        runner.teardown_databases = lambda *a, **k: None
        runner.teardown_test_environment = lambda *a, **k: None
        runner.suite_result = lambda *a, **k: 0
        runner.run_tests(self.labels)
        return kept[0] if kept else unittest.TestSuite()

    def collect(self):
        from unittest.loader import _FailedTest
        root = os.getcwd()
        if not os.path.isfile(os.path.join(root, "tests", "runtests.py")):
            self.errors.append("no tests/runtests.py in %s: not Django's "
                               "suite" % root)
            return
        if not self.labels:
            self.errors.append("no test module named")
            return
        if not self._setup(root):
            self.errors.append("every test module named is under gis_tests, "
                               "and the database has no GIS backend")
            return
        ids = []
        for test in _flatten(self._build()):
            if isinstance(test, _FailedTest):
                exc = getattr(test, "_exception", None)
                lines = [l for l in str(exc).splitlines() if l.strip()]
                self.errors.append("%s: %s" % (
                    test._testMethodName, lines[-1].strip()[:300] if lines
                    else type(exc).__name__))
                continue
            if not callable(test):
                continue
            self.items.append(test)
            ids.append(self._node_id(root, test))
        self._ids = _unique_ids(ids)
        if self.continue_on_errors and self.items:
            # A wider-suite module that cannot be imported here is left
            # out, as pytest's --continue-on-collection-errors would.
            self.errors = []

    @staticmethod
    def _node_id(root, test):
        cls = type(test)
        module = sys.modules.get(cls.__module__)
        path = getattr(module, "__file__", None)
        name = getattr(test, "_testMethodName", None)
        if not path or not name:
            return test.id()
        rel = os.path.relpath(path, root).replace(os.sep, "/")
        return "%s::%s::%s" % (rel, cls.__qualname__, name)

    def ids(self):
        return list(self._ids)

    def hint(self):
        return ""


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
        for path in [s.path for s in shared.SUBJECTS] + list(self.files):
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
