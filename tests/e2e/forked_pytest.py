"""Plain pytest for the e2e tests' oracles, without paying its start-up
for every run: pytest is imported once here, and each run is a fork of
this process that calls pytest.main() in the given directory, as
`python -m pytest ARGS` there would (its directory first on sys.path, the
given environment, output discarded), and exits with pytest's status.
The project under test is only ever imported in the fork, so every run
sees it fresh, as a new interpreter would; what the fork inherits is the
interpreter with pytest and the standard library it needs imported, which
`python -m pytest` also imports before it collects the tests.  A fresh
interpreter costs about 0.19 s of CPU a run, a fork about 0.05 s.

    run(args, cwd, env, timeout) -> exit status (negative: killed by that
    signal), or None after a timeout (the run is killed)."""
import os
import select
import signal
import sys

sys.dont_write_bytecode = True
import pytest  # noqa: E402


def run(args, cwd, env, timeout):
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        null = os.open(os.devnull, os.O_RDWR)
        child(args, cwd, env, null, null)
    fd = os.pidfd_open(pid)
    try:
        if not select.select([fd], [], [], timeout)[0]:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return None
    finally:
        os.close(fd)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


def child(args, cwd, env, stdin_fd, out_fd, new_session=False):
    """In a fork: `python -m pytest ARGS` in cwd with env, reading
    stdin_fd and writing out_fd (its stdout and stderr), in a session of
    its own when asked; exits with pytest's status, never returns."""
    code = 1
    try:
        if new_session:
            os.setsid()
        os.chdir(cwd)
        os.dup2(stdin_fd, 0)
        os.dup2(out_fd, 1)
        os.dup2(out_fd, 2)
        # The signal handlers of a new interpreter (this one's callers
        # may have set their own, as lib_dataset.evaluate does).
        for sig in signal.valid_signals():
            h = signal.getsignal(sig)
            if callable(h) and h is not signal.default_int_handler:
                signal.signal(sig, signal.SIG_DFL)
        os.environ.clear()
        os.environ.update(env)
        sys.dont_write_bytecode = bool(env.get("PYTHONDONTWRITEBYTECODE"))
        # python -m puts the working directory first on the path.
        sys.path[0] = os.getcwd()
        sys.argv = [os.path.join(os.path.dirname(pytest.__file__),
                                 "__main__.py")] + list(args)
        code = int(pytest.main(list(args)))
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else int(e.code is not None)
    except BaseException:
        code = 1
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)
