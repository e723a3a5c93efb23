# The constants C and the embedded Python share come from one place
# (scripts/py_constants.py): this fails when they could drift apart, that
# is when a Python file writes down a value that C owns, or a C enum
# repeats a number that Python owns instead of the generated macro.
#   LT_RUNNERS_DIR=runners /usr/bin/python3 -m pytest \
#       tests/unit/runners/test_constants.py
# SPDX-License-Identifier: MIT
import ast
import glob
import os
import re
import sys

from shim_stub import RUNNERS, shim  # noqa: F401 (shim: its imports run)

ROOT = os.path.abspath(os.path.join(RUNNERS, '..'))
sys.path.insert(0, os.path.join(ROOT, 'scripts'))
import py_constants  # noqa: E402

PY_FILES = sorted(glob.glob(os.path.join(ROOT, 'runners', '*.py')) +
                  glob.glob(os.path.join(ROOT, 'operators', '*.py')))


def assigned_names(path):
    """Names a file binds at module level (plain or tuple assignment)."""
    tree = ast.parse(open(path, encoding='utf-8').read(), path)
    names = set()
    for node in tree.body:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                for n in ast.walk(target):
                    if isinstance(n, ast.Name):
                        names.add(n.id)
    return names


def test_every_c_constant_is_found_in_its_header():
    text = py_constants.python_module(ROOT)
    mod = {}
    exec(compile(text, '<litmus constants>', 'exec'), mod)
    for name in py_constants.python_names():
        assert isinstance(mod.get(name), int), name


def test_the_generated_values_are_the_headers():
    for path, pairs in py_constants.FROM_C:
        found = py_constants.c_constants(os.path.join(ROOT, path))
        for name, c_name in pairs:
            generated = sys.modules['litmus_constants']
            assert getattr(generated, name) == found[c_name], (name, c_name)


def test_no_python_file_copies_a_c_constant():
    owned_by_c = set(py_constants.python_names())
    for path in PY_FILES:
        copies = assigned_names(path) & owned_by_c
        assert not copies, '%s defines %s itself: import them from ' \
            'litmus_constants' % (os.path.relpath(path, ROOT),
                                  ', '.join(sorted(copies)))
        text = open(path, encoding='utf-8').read()
        assert not re.search(r'mirrored from \S+\.h', text), \
            '%s: a hand mirror of a C header' % path


def test_every_python_constant_is_read_from_its_file():
    for path, _prefix, names in py_constants.SHARED:
        found = py_constants.literals(os.path.join(ROOT, path))
        for name in names:
            assert name in found, (path, name)


def test_c_enums_of_python_constants_use_the_generated_macros():
    """An enumerator of an enum whose values Python owns is LT_PY_*,
    never a number of its own."""
    enums = (('harness/wire.h', 'lt_apply_status'),
             ('harness/wire.h', 'lt_fail_cause'),
             ('operators/operators.h', 'lt_change_status'))
    for path, enum in enums:
        text = open(os.path.join(ROOT, path), encoding='utf-8').read()
        text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
        m = re.search(r'enum %s \{(.*?)\}' % enum, text, re.S)
        assert m, (path, enum)
        for item in m.group(1).split(','):
            if item.strip():
                assert re.match(r'\s*LT_\w+\s*=\s*LT_PY_\w+\s*$', item), \
                    (path, enum, item.strip())
