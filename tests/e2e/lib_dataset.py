# Helpers of the dataset end-to-end tests (t03*-dataset-*.sh), run with
# /usr/bin/python3: independent re-runs of the records litmus wrote.
import json
import os
import shutil
import signal
import subprocess
import sys
import types


def records(path):
    return [json.loads(line) for line in open(path) if line.strip()]


def location(line, total):
    """The formula of docs/datasets.md."""
    total = max(1, total)
    k = min(line, total) - 1
    return {"quarter": k * 4 // total + 1,
            "third": ("first", "middle", "last")[k * 3 // total],
            "fraction": k / total}


def n_lines(code):
    return code.count("\n") + (0 if code.endswith("\n") or not code else 1)


def differing_lines(a, b):
    la, lb = a.split("\n"), b.split("\n")
    if len(la) != len(lb):
        return None
    return [i + 1 for i, (x, y) in enumerate(zip(la, lb)) if x != y]


class Timeout(BaseException):
    pass


def _alarm(signum, frame):
    raise Timeout()


def evaluate(code, call, seconds=2.0):
    """(status, repr, type name) of a call on a program, in this process;
    ("timeout", None, None) after `seconds` of CPU time."""
    mod = types.ModuleType("litmus_case")
    signal.signal(signal.SIGPROF, _alarm)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        exec(compile(code, "litmus_case.py", "exec"), mod.__dict__)
        v = eval(call, mod.__dict__)
        if hasattr(type(v), "__next__"):
            v = list(v)
        return ("ok", repr(v), type(v).__name__)
    except Timeout:
        return ("timeout", None, None)
    except Exception as exc:
        return ("raised", type(exc).__name__, None)
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)


def pytest_on(work, path, tests, code, select=None):
    """Runs the program's tests on `code` in a copy of its folder (the
    file replaced); returns pytest's exit status (0: every test passed)."""
    src_dir = os.path.dirname(path)
    n = len(os.listdir(work)) if os.path.isdir(work) else 0
    dst = os.path.join(work, "copy%d" % n)
    shutil.copytree(src_dir, dst, ignore=shutil.ignore_patterns(
        "__pycache__", ".pytest_cache", "patches"))
    with open(os.path.join(dst, os.path.basename(path)), "w") as f:
        f.write(code)
    target = os.path.join(dst, os.path.relpath(tests, src_dir))
    if select:
        target = os.path.join(dst, select)
    # The programs' suites need no installed plugin: not loading them
    # (coverage, asyncio, xdist...) halves pytest's start-up.
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1",
               PYTEST_DISABLE_PLUGIN_AUTOLOAD="1")
    # `python -m pytest` with this interpreter, in a fork of this process
    # that has pytest imported (forked_pytest.py: a third of the CPU time).
    import forked_pytest
    args = ["-q", "-x", "-p", "no:cacheprovider", target]
    rc = forked_pytest.run(args, dst, env, 120)
    if rc is None:
        raise subprocess.TimeoutExpired([sys.executable, "-m", "pytest"] + args, 120)
    shutil.rmtree(dst)
    return rc
