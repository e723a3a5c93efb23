# Tests of runners/child.py's order of trust, outside a zygote (a
# stand-in `_litmus` module): the zygote's C puts an untrusted job's child
# in the sandbox before child_main runs (zygote_serve.c); child_main only
# checks it, and goes no further when the check fails: nothing applied,
# no guard armed, nothing reported.
#   LT_RUNNERS_DIR=runners /usr/bin/python3 -m pytest \
#       tests/unit/runners/test_shim_child.py
# SPDX-License-Identifier: MIT
import pytest

from shim_stub import _litmus, child  # noqa: E402
from litmus_constants import F_UNTRUSTED, MODE_CALLS, MODE_MUTANT


@pytest.fixture
def calls(monkeypatch):
    seen = []
    for name in ("arm", "applied", "enter_sandbox", "guard_unpin",
                 "test_start", "test_result"):
        monkeypatch.setattr(_litmus, name,
                            lambda *a, _n=name: seen.append(_n),
                            raising=False)
    return seen


def _run(tmp_path, mode, flags):
    child.child_main(mode, 0, 0, 0, "x = 1\n", [], False, str(tmp_path),
                     flags, "", b"")


@pytest.mark.parametrize("mode,flags", [(MODE_MUTANT, F_UNTRUSTED),
                                        (MODE_CALLS, 0)])
def test_an_untrusted_job_outside_the_sandbox_goes_no_further(
        tmp_path, monkeypatch, calls, mode, flags):
    monkeypatch.setattr(_litmus, "sandboxed", lambda: False, raising=False)
    with pytest.raises(RuntimeError, match="outside the sandbox"):
        _run(tmp_path, mode, flags)
    assert calls == []


def test_a_trusted_job_already_sandboxed_goes_no_further(
        tmp_path, monkeypatch, calls):
    monkeypatch.setattr(_litmus, "sandboxed", lambda: True, raising=False)
    with pytest.raises(RuntimeError, match="sandboxed before its change"):
        _run(tmp_path, MODE_MUTANT, 0)
    assert calls == []


def test_brief_failure_reports_only_for_litmus_own_session():
    # A test that runs pytest in the same process (pytester, a plugin's
    # own tests) checks the reports pytest writes: only the nodes of
    # litmus's session get the one-line report.
    import testrunners
    from _pytest import nodes
    saved = nodes.Node._repr_failure_py
    calls = []

    def pytests(self, excinfo, style=None):
        calls.append(self)
        return "pytest's report"
    nodes.Node._repr_failure_py = pytests
    try:
        ours, inner = object(), object()
        testrunners._fast_failure_reports(ours)

        class Excinfo:
            def exconly(self):
                return "ValueError: bad"

        class Node:
            def __init__(self, config):
                self.config = config
        a, b = Node(ours), Node(inner)
        assert nodes.Node._repr_failure_py(a, Excinfo()) == "ValueError: bad"
        assert nodes.Node._repr_failure_py(b, Excinfo()) == "pytest's report"
        assert calls == [b]
    finally:
        nodes.Node._repr_failure_py = saved
