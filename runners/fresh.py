# Fresh imports: module- and class-level mutants (docs/design.md).  In a
# child of the zygote's pre-import server, the mutated subject is what
# every import of its file loads, and the tests are collected anew.
# Part of the shim (shim.py); compiled into the litmus binary as
# litmus_fresh.  SPDX-License-Identifier: MIT
import gc
import os
import sys

import _litmus
from litmus_constants import RUNNER_PYTEST
import litmus_shared as shared
from litmus_shared import APPLY_INVALID, APPLY_OK
from litmus_subjects import _realpath
from litmus_apply import _install_loader_patch
from litmus_testrunners import _prepare_hypothesis
from litmus_child import _child_setup, run_tests


def _fresh_make_collect_report(self, collector):
    """pytest_make_collect_report of LitmusPlugin (tryfirst): a fresh child
    collects only its own tests' files, so that a mutant of a module
    constant that a few tests read does not pay for collecting the whole
    suite again.  The child is forked in the middle of collection, when
    the file nodes exist but most are not imported yet: the others are
    reported collected with nothing in them.  Packages and directories
    are always entered."""
    keep = shared.FRESH_KEEP
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
    for i, subject in enumerate(shared.SUBJECTS):
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
    shared.FRESH_JOB = job
    index, start, end, replacement = job[1:5]
    if shared.RUNNER_KIND == RUNNER_PYTEST:
        ids = _litmus.fresh_ids()
        files = set()
        for i in job[5]:
            if i >= len(ids) or "::" not in ids[i]:
                files = None  # not a file's test: collect everything
                break
            files.add(ids[i].split("::", 1)[0])
        shared.FRESH_KEEP = files
    subject = shared.SUBJECTS[index]
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
    indices, stop_first, scratch = shared.FRESH_JOB[5:8]
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
    _litmus.enter_sandbox()
    _child_setup(scratch)
    run_tests(indices, stop_first, selected=selected)
    _litmus.fresh_end()
