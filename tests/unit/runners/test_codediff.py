# Tests of runners/codediff.py: the analysis the engine does once per
# mutant (equivalence, structural changes, fingerprints) and the swap
# payload that lets a child put a mutant in place without compiling.
#   /usr/bin/python3 -m pytest tests/unit/runners/test_codediff.py
# SPDX-License-Identifier: MIT
import marshal
import os
import sys
import types

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.environ.get(
    'LT_RUNNERS_DIR', os.path.join(HERE, '..', '..', '..', 'runners')))
import codediff  # noqa: E402

SRC = '''\
LIMIT = 3


def add(a, b):
    return a + b


class Box:
    size = 2

    def grow(self, n):
        def step(k):
            return k * 2
        return [step(i) for i in range(n)]
'''


def change(old, new, nth=0):
    raw = SRC.encode()
    start = -1
    for _ in range(nth + 1):
        start = raw.index(old.encode(), start + 1)
    return (start, start + len(old.encode()), new)


def analyse(*changes, budget=1 << 20):
    return codediff.analyse('m.py', SRC, list(changes), budget)


def mutated_code(ch):
    raw = SRC.encode()
    return compile(raw[:ch[0]] + ch[2].encode() + raw[ch[1]:], 'm.py', 'exec',
                   dont_inherit=True)


def find(code, qualname):
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            if c.co_qualname == qualname:
                return c
            hit = find(c, qualname)
            if hit:
                return hit
    return None


def test_function_change_carries_the_compiled_function():
    ch = change('a + b', 'a - b')
    [(status, structural, fp, detail, payload)] = analyse(ch)
    assert (status, structural, detail) == (codediff.OK, 0, '')
    assert len(fp) == 16
    swaps = marshal.loads(payload)
    assert [p for p, _ in swaps] == [(('add', 4, 0),)]
    got = swaps[0][1]
    want = find(mutated_code(ch), 'add')
    assert got.co_code == want.co_code and got.co_consts == want.co_consts
    assert got.co_filename == 'm.py' and got.co_firstlineno == 4
    f = types.FunctionType(got, {})
    assert f(5, 3) == 2


def test_nested_function_change_swaps_the_enclosing_method_too():
    ch = change('k * 2', 'k * 3')
    [(status, structural, _, _, payload)] = analyse(ch)
    assert (status, structural) == (codediff.OK, 0)
    paths = [p for p, _ in marshal.loads(payload)]
    # The class body changed only below it; the method and its nested
    # function are both swapped (the method makes the closure anew).
    assert (('Box', 8, 0), ('Box.grow', 11, 0)) in paths
    assert (('Box', 8, 0), ('Box.grow', 11, 0),
            ('Box.grow.<locals>.step', 12, 0)) in paths
    assert () not in paths


def test_structural_change_has_no_payload():
    for ch in (change('LIMIT = 3', 'LIMIT = 4'), change('size = 2', 'size = 3')):
        [(status, structural, _, _, payload)] = analyse(ch)
        assert (status, structural, payload) == (codediff.OK, 1, b'')


def test_equivalent_and_invalid_have_no_payload():
    eq, bad = analyse(change('a + b', '(a + b)'), change('a + b', 'a +'))
    assert eq == (codediff.EQUIVALENT, 0, '', '', b'')
    assert bad[0] == codediff.INVALID and bad[4] == b''
    assert bad[3].startswith('SyntaxError')


def test_budget_bounds_the_payloads():
    chs = [change('a + b', 'a - b'), change('a + b', 'a * b'),
           change('k * 2', 'k * 3')]
    full = analyse(*chs)
    one = len(full[0][4])
    assert one > 0
    limited = analyse(*chs, budget=one)
    assert limited[0][4] == full[0][4]
    assert limited[1][4] == b'' and limited[2][4] == b''
    assert all(r[:4] == f[:4] for r, f in zip(limited, full))
    assert all(r[4] == b'' for r in analyse(*chs, budget=0))


def test_code_fingerprint_ignores_comments_and_layout():
    base = "def f(x):\n    return x + 1\n\n\nclass C:\n    def g(self):\n        return f(2)\n"
    noisy = ("# a patch with a comment\n\n"
             "def f(x):  # inline note\n\n    return x + 1\n\n\n"
             "class C:\n    def g(self):\n        # why\n        return f(2)\n")
    a = codediff.code_fingerprint("a.py", base)
    assert a and a == codediff.code_fingerprint("b.py", noisy)


def test_code_fingerprint_sees_changes_and_syntax_errors():
    base = "def f(x):\n    return x + 1\n"
    assert (codediff.code_fingerprint("a.py", base)
            != codediff.code_fingerprint("a.py", base.replace("+ 1", "+ 2")))
    assert (codediff.code_fingerprint("a.py", base)
            != codediff.code_fingerprint("a.py", base.replace("x", "y")))
    assert (codediff.code_fingerprint("a.py", "def f():\n    return 1\n")
            != codediff.code_fingerprint("a.py", "def g():\n    return 1\n"))
    assert codediff.code_fingerprint("a.py", "def f(:\n") == ""


def test_code_that_only_moved_is_the_same_without_positions():
    # A patch that adds lines above a function with nested code (an inner
    # function, a comprehension) moves that code down: a change for
    # swapping code in, none for telling what a patch changed.
    moved = SRC.replace('LIMIT = 3\n', 'LIMIT = 3\n\n\n# more\n')
    a, b = compile(SRC, 'm.py', 'exec'), compile(moved, 'm.py', 'exec')
    changed, _ = codediff.code_diff(a, b, quick=True)
    assert changed
    assert codediff.code_diff(a, b, quick=True, positions=False) == ({}, [])
    assert codediff.code_diff(a, b, positions=False) == ({}, [])
    # A real change below the moved lines is still one, at the key paths
    # of the original code (where a swap finds the live functions).
    edited = moved.replace('k * 2', 'k * 3')
    changed, structural = codediff.code_diff(
        a, compile(edited, 'm.py', 'exec'), quick=True, positions=False)
    assert changed and not structural
    in_place, _ = codediff.code_diff(
        a, compile(SRC.replace('k * 2', 'k * 3'), 'm.py', 'exec'),
        quick=True)
    assert set(changed) == set(in_place)


def test_a_patch_that_adds_nested_code_to_a_function_swaps_it_whole():
    # A loop made a comprehension (a nested code object in 3.11) changes
    # the function's shape, not its module's: the function is swapped.
    src = 'def f(xs):\n    out = []\n    for x in xs:\n        out.append(x)\n' \
          '    return out\n\n\ndef g():\n    return [1 for _ in ()]\n'
    new = src.replace('    out = []\n    for x in xs:\n        out.append(x)\n',
                      '    out = [x for x in xs]\n')
    a, b = compile(src, 'm.py', 'exec'), compile(new, 'm.py', 'exec')
    changed, structural = codediff.code_diff(a, b, quick=True,
                                             positions=False)
    assert structural == []
    assert [k for k in changed if k] == [(('f', 1, 0),)]
    # A module body of another shape still is structural.
    more = new + '\n\ndef h():\n    return 2\n'
    _, structural = codediff.code_diff(a, compile(more, 'm.py', 'exec'),
                                       quick=True, positions=False)
    assert structural == [()]



def test_changed_spans_are_the_functions_a_patch_changes():
    # Lines of SRC: add 4-5, Box.grow 11-14 with step 12-13.
    assert codediff.changed_spans('m.py', SRC, SRC) == []
    assert codediff.changed_spans('m.py', SRC, '\n\n' + SRC) == []
    assert codediff.changed_spans(
        'm.py', SRC, SRC.replace('a + b', 'b + a')) == [(4, 5)]
    # A nested function alone, not the method holding it.
    assert codediff.changed_spans(
        'm.py', SRC, SRC.replace('k * 2', 'k * 3')) == [(12, 13)]
    # A default argument is the definition's: its function counts.
    assert codediff.changed_spans(
        'm.py', SRC, SRC.replace('def add(a, b)', 'def add(a, b=1)')) == \
        [(4, 5)]


def test_changed_spans_follow_the_names_imports_and_definitions_bind():
    src = 'from os import sep\n\n\ndef join(a, b):\n    return a + sep + b\n' \
          '\n\ndef other():\n    return 1\n'
    # A new import and a new helper: the functions that read the names
    # the changed statements bind, and nothing else.
    new = src.replace('from os import sep', 'from os import sep, altsep')
    assert codediff.changed_spans('m.py', src, new) == [(4, 5)]
    helper = src + '\n\ndef helper():\n    return 2\n'
    assert codediff.changed_spans('m.py', src, helper) == []
    gone = src.replace('\n\ndef other():\n    return 1\n', '')
    assert codediff.changed_spans('m.py', src, gone) == [(8, 9)]


def test_changed_spans_cannot_be_said_for_other_module_or_class_code():
    assert codediff.changed_spans(
        'm.py', SRC, SRC.replace('LIMIT = 3', 'LIMIT = 4')) is None
    assert codediff.changed_spans(
        'm.py', SRC, SRC.replace('size = 2', 'size = 3')) is None
    assert codediff.changed_spans('m.py', SRC, SRC + 'def (:\n') is None


# A module where compiling a statement alone could go wrong: __future__
# flags, a method called on an imported name (3.11 compiles that call
# another way), a bare string below the docstring, decorators, two
# statements on one line, like statements, a class.
GROUPS_SRC = '''\
"""The docstring."""
from __future__ import annotations
import os.path
from math import floor as fl

"""not a docstring"""
x = 1; y = lambda: 2


@staticmethod
def deco(f: int) -> int:
    return os.path.join("a", "b") + str(fl(2.5))


class Box:
    size = 1

    def grow(self, n: int) -> int:
        if n > 2:
            return fl.__call__(n) + 1
        return [
            n,
            2,
        ][0]


limit = 5
limit = 5
'''


def group_changes():
    raw = GROUPS_SRC.encode()
    out = []
    for old, new in (("The docstring", "XX"), ("annotations", "division"),
                     ("not a docstring", "XX"), ("1", "2"), ("2", "3"),
                     ('"a"', '"c"'), ("2.5", "3.5"), ("size = 1", "size = 2"),
                     ("n > 2", "n >= 2"), ("+ 1", "- 1"),
                     ("[\n            n,\n            2,\n        ][0]", "n"),
                     ("return", "retur"), ("limit = 5", "limit = 6")):
        at = -1
        while True:
            at = raw.find(old.encode(), at + 1)
            if at < 0:
                break
            out.append((at, at + len(old.encode()), new))
    return out


def dedup_classes(results):
    first = {}
    return [first.setdefault(fp, i) if status == codediff.OK else None
            for i, (status, _, fp, _, _) in enumerate(results)]


def test_a_statement_compiled_alone_is_judged_as_in_the_whole_module():
    changes = group_changes()
    assert len(changes) > 20
    codediff._ORIGINALS.clear()
    whole = codediff.analyse('g.py', GROUPS_SRC, changes, 1 << 20, whole=True)
    codediff._ORIGINALS.clear()
    alone = codediff.analyse('g.py', GROUPS_SRC, changes, 1 << 20)
    for ch, w, a in zip(changes, whole, alone):
        assert (w[0], w[1], w[3]) == (a[0], a[1], a[3]), ch
        assert (marshal.loads(w[4]) if w[4] else None) == \
            (marshal.loads(a[4]) if a[4] else None), ch
    # The like statements' like changes stay two mutants.
    assert dedup_classes(whole) == dedup_classes(alone)
    assert {codediff.INVALID, codediff.EQUIVALENT, codediff.OK} <= \
        {s for s, *_ in alone}


def test_a_change_compiles_its_statement_not_the_module(monkeypatch):
    sizes = []
    real = compile

    def counting(source, *args, **kwargs):
        sizes.append(len(source))
        return real(source, *args, **kwargs)

    raw = GROUPS_SRC.encode()
    at = raw.index(b"n > 2")
    codediff._ORIGINALS.clear()
    monkeypatch.setattr(codediff, "compile", counting, raising=False)
    [(status, structural, _, _, _)] = codediff.analyse(
        'g.py', GROUPS_SRC, [(at, at + 5, "n >= 2")])
    assert (status, structural) == (codediff.OK, 0)
    # The original once, then the class alone, before and after.
    assert sizes[0] == len(raw)
    assert len(sizes) == 3 and max(sizes[1:]) < len(raw) * 0.8
