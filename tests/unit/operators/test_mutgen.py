# Tests of operators/mutgen.py at the Python level: mutmut's quirks that the
# "mutmut" set must keep, the f-string scanner, invariants over a corpus of
# real code (CPython's standard library), and, when mutmut 2.5.1 itself is
# importable, site-by-site parity with it.  Run with Debian's interpreter:
#   /usr/bin/python3 -m pytest tests/unit/operators/test_mutgen.py
# SPDX-License-Identifier: MIT

import ast
import collections
import glob
import hashlib
import io
import os
import sys
import tokenize

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.environ.get(
    'LT_MUTGEN_DIR', os.path.join(HERE, '..', '..', '..', 'operators')))
import mutgen  # noqa: E402


def gen(src, opset='mutmut', file='t.py'):
    status, res = mutgen.generate(file, src.encode('utf-8'), opset)
    assert status == 'ok', res
    return res


def mutated(src, opset='mutmut'):
    """The mutated programs, in list order."""
    data = src.encode('utf-8')
    return [(data[:m[5]] + m[10].encode('utf-8') + data[m[6]:]).decode('utf-8')
            for m in gen(src, opset)]


def brief(src, opset='mutmut'):
    return [(m[7], m[9], m[10]) for m in gen(src, opset)]


# ------------------------------------------------------------ mutmut quirks

def test_only_first_and_or_of_a_chain():
    assert brief('x = a and b and c\n', 'and_or') == [('and_or', 'and', 'or')]
    assert len(brief('x = (a and b) and c\n', 'and_or')) == 2


def test_standalone_call_or_subscript_argument_becomes_none():
    assert brief('f(x)\n', 'name') == [('name', 'x', 'None')]
    assert brief('a[i]\n', 'name') == [('name', 'i', 'None')]
    assert brief('if c: f(x)\n', 'name') == [('name', 'x', 'None')]
    # Not a whole simple statement, or not a bare name: no mutant.
    for src in ('y = f(x)\n', 'f(x); g()\n', 'g(); f(x)\n', 'o.f(x)\n',
                'f((x))\n', 'f(x, y)\n', 'f(x)\r\n'):
        assert brief(src, 'name') == [], src
    assert brief('f(x)', 'name') == [('name', 'x', 'None')]


def test_deepcopy_becomes_copy_everywhere_but_imports():
    assert brief('from copy import deepcopy\ny = copy.deepcopy(x)\n',
                 'name') == [('name', 'deepcopy', 'copy')]


def test_keywords():
    assert brief('a is b\n', 'keyword') == [('keyword', 'is', 'is not')]
    assert brief('a is not b\n', 'keyword') == [('keyword', 'not', '')]
    assert brief('a not in b\n', 'keyword') == [('keyword', 'not', '')]
    assert brief('a in b\n', 'keyword') == [('keyword', 'in', 'not in')]
    assert brief('for a in b: pass\n', 'keyword') == []
    assert brief('[a for a in b if a in c]\n', 'keyword') == [
        ('keyword', 'in', 'not in')]
    assert brief('x = None\n', 'keyword') == []


def test_assignment_none_and_empty_string():
    assert brief('x = y = 3\n', 'assignment') == [
        ('assignment', '3', 'None')]
    assert brief('x = None\n', 'assignment') == [
        ('assignment', 'None', '""')]
    assert brief('x = (None)\n', 'assignment') == [
        ('assignment', '(None)', 'None')]
    assert brief('x += 1\n', 'assignment') == []
    assert brief('x: int = 1\n', 'assignment') == [
        ('assignment', '1', 'None')]


def test_skipped_regions():
    src = ('import a.b as c\n'
           'from x import *\n'
           "__all__ = ['a']\n"
           "__author__: str = 'me'\n"
           "__foo__ = 'mutated'\n"
           "m = __import__('m' + 'n').attr\n"
           'x: Literal[1]\n'
           'def f(a: Literal[2] = 3, *b: int, **c: T) -> Literal[4]:\n'
           '    pass\n')
    got = brief(src, 'number,string')
    assert got == [('string', "'mutated'", "'XXmutatedXX'"),
                   ('number', '3', '4')]


def test_pragma_no_mutate_uses_mutmut_lines():
    assert brief('x = 1  # pragma: no mutate\n') == []
    # mutmut checks a node with children on the line of its last leaf.
    src = 'y = (a and  # pragma: no mutate\n     b)\n'
    assert [b[0] for b in brief(src)] == ['assignment', 'and_or']
    src = 'y = (a and\n     b)  # pragma: no mutate\n'
    assert brief(src) == []


def test_strings_and_fstrings():
    assert brief("x = b'a', r'\\d', '''doc'''\n", 'string') == [
        ('string', "b'a'", "b'XXaXX'"), ('string', "r'\\d'", "r'XX\\dXX'")]
    got = brief("x = f'{a + 1!r:>{w}} {d[\"k\"]}'\n", 'fstring,operator,number,string')
    assert got == [
        ('fstring', "f'{a + 1!r:>{w}} {d[\"k\"]}'",
         "f'XX{a + 1!r:>{w}} {d[\"k\"]}XX'"),
        ('operator', '+', '-'), ('number', '1', '2'),
        ('string', '"k"', '"XXkXX"')]
    # Triple-quoted f-strings are mutated too (mutmut does).
    assert brief('x = f"""{y}"""\n', 'fstring') == [
        ('fstring', 'f"""{y}"""', 'f"""XX{y}XX"""')]


def test_fstring_scanner():
    f = mutgen.fstring_exprs
    body = "a{{b}}{x}{y!r}{z:>{w}}{q=}{p = !s}{d['}']}{a!=b}{l[1:2]}"
    assert [body[s:e] for s, e in f(body)] == [
        'x', 'y', 'z', 'w', 'q', 'p ', "d['}']", 'a!=b', 'l[1:2]']


def test_dict_arguments():
    assert brief('dict(a=1, **k)\n', 'argument') == [
        ('argument', 'a', 'aXX')]
    assert brief('dict(x for x in y)\n', 'argument') == [
        ('argument', 'x', 'xXX')]
    assert brief('dict((x for x in y))\n', 'argument') == []
    assert brief('dict.fromkeys(k=1)\n', 'argument') == [
        ('argument', 'k', 'kXX')]
    assert brief('f(a=1)\n', 'argument') == []


def test_stars():
    got = brief('def f(a, *b, c, **d): pass\nf(*a, **b)\nx = [*a]\n'
                'y = {**d}\nfrom m import *\n', 'operator')
    assert got == [('operator', '*', '/'), ('operator', '**', '*')]
    # The bare star of a lambda is mutated, as mutmut does.
    assert brief('g = lambda *, k: k\n', 'operator') == [
        ('operator', '*', '/')]


def test_decorator_keeps_lines_and_comment():
    src = '@a.b(\n    1)  # keep\ndef f(): pass\n'
    out = mutated(src, 'decorator')
    assert out == ['\n  # keep\ndef f(): pass\n']


def test_numbers():
    n = mutgen.mm_number
    assert [n(x) for x in ('0', '7', '0x1f', '0o17', '0b101', '1_000', '0.5',
                           '1e10', '1e-7', '2j', '1.5J', '00', '0XFF')] == [
        '1', '8', '32', '16', '6', '1001', '1.5', '20000000000.0',
        '2e-07', '3j', '2.5J', '1', '256']


def test_multiline_replacements_keep_line_count():
    src = 'x = (1 +\n     2)\nf = lambda: (\n    3)\n'
    for m in mutated(src):
        assert m.count('\n') == src.count('\n')
        compile(m, 'm', 'exec')


# ------------------------------------------------------------ algo1

def test_algo1_operator_table():
    src = ('a = b + c - d * e / f // g % h << i >> j & k | l ^ m ** n\n'
           'a += 1\n'
           'b = ~a\n')
    got = [(m[7], m[9], m[10]) for m in gen(src, 'arith,augassign,invert')]
    assert got == [
        ('arith', '+', '-'), ('arith', '-', '+'), ('arith', '*', '//'),
        ('arith', '/', '*'), ('arith', '//', '*'), ('arith', '%', '//'),
        ('arith', '<<', '>>'), ('arith', '>>', '<<'), ('arith', '&', '|'),
        ('arith', '|', '&'), ('arith', '^', '&'), ('arith', '**', '*'),
        ('augassign', '+=', '-='), ('invert', '~', '')]


def test_algo1_has_no_strings_or_assignments():
    assert gen("x = 'a'\n@d\ndef f(): return lambda: None\n", 'algo1') == []


def test_algo1_every_logical_operator():
    assert brief('x = a and b and c or d\n', 'logical') == [
        ('logical', 'and', 'or'), ('logical', 'and', 'or'),
        ('logical', 'or', 'and')]


def test_algo1_numbers():
    assert brief('x = 0 + 0x10 + 1.5 + 2j\n', 'number_pm') == [
        ('number_pm', '0', '(-1)'), ('number_pm', '0', '1'),
        ('number_pm', '0x10', '0xf'), ('number_pm', '0x10', '0x11'),
        ('number_pm', '1.5', '0.5'), ('number_pm', '1.5', '2.5'),
        ('number_pm', '2j', '1j'), ('number_pm', '2j', '3j')]


def test_algo1_leaves_patterns_and_annotations():
    src = ('match x:\n'
           '    case -1 | 2:\n'
           '        y = 3\n'
           'def f(a: Literal[4]) -> Literal[5]: pass\n')
    got = brief(src, 'algo1')
    assert got == [('number_pm', '3', '2'), ('number_pm', '3', '4')]


# ------------------------------------------------------------ errors

def test_errors():
    assert mutgen.generate('f.py', b'x = (\n', 'mutmut')[0] == 'parse'
    st, msg = mutgen.generate('f.py', b'x = 1\n\xff\n', 'mutmut')
    assert (st, msg) == ('parse', 'f.py:2: source is not valid UTF-8')
    st, msg = mutgen.generate('f.py', b'x = 1\n', 'nope')
    assert st == 'usage' and 'nope' in msg and 'algo1' in msg
    st, msg = mutgen.generate('f.py', b'def f(:\n', 'algo1')
    assert st == 'parse' and msg.startswith('f.py:1: ') and '\n' not in msg


def test_ids_match_the_documented_hash():
    for m in gen('x = 1 + 2\n', 'mutmut,algo1', file='p/\u00e9.py'):
        h = hashlib.sha256(('p/\u00e9.py\0%d\0%d\0%s\0%s' % (
            m[5], m[6], m[7], m[10])).encode()).hexdigest()[:16]
        assert m[0] == h


# ------------------------------------------------------------ corpus

def corpus(limit=40, max_size=16000):
    files = sorted(glob.glob(os.path.join(
        os.path.dirname(ast.__file__), '*.py')))
    picked = [f for f in files if 1500 < os.path.getsize(f) < max_size]
    return picked[:limit]


@pytest.mark.parametrize('opset', ['mutmut', 'algo1'])
def test_corpus_invariants(opset):
    total = compiled = 0
    for path in corpus():
        with open(path, 'rb') as f:
            data = f.read()
        st, res = mutgen.generate(path, data, opset)
        assert st == 'ok', (path, res)
        assert res, path
        lines = data.count(b'\n')
        assert len({m[0] for m in res}) == len(res), path
        assert [m[5] for m in res] == sorted(m[5] for m in res)
        assert mutgen.generate(path, data, opset) == (st, res)
        for i, m in enumerate(res):
            s, e = m[5], m[6]
            assert data[s:e].decode() == m[9]
            out = data[:s] + m[10].encode() + data[e:]
            assert out.count(b'\n') == lines, (path, m)
            if i % 5 == 0:
                total += 1
                try:
                    compile(out, path, 'exec', dont_inherit=True)
                    compiled += 1
                except SyntaxError:
                    pass
    # mutmut's set has a few mutants that cannot compile ([*a] -> [/a]);
    # algo1's set should essentially always compile.
    assert compiled >= total * (0.97 if opset == 'mutmut' else 0.999), (
        compiled, total)


# ------------------------------------------------------------ parity

def _mutmut_251():
    try:
        import mutmut
    except Exception:
        return None
    if getattr(mutmut, '__version__', None) != '2.5.1':
        return None
    return mutmut


def _norm(code):
    """Compares programs, not layout: mutmut collapses the whitespace and
    line breaks around what it replaces, litmus keeps them."""
    try:
        return ast.dump(ast.parse(code))
    except SyntaxError:
        return tuple(t.string for t in tokenize.generate_tokens(
            io.StringIO(code).readline) if t.type not in (
                tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT,
                tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER))


@pytest.mark.skipif(_mutmut_251() is None, reason='mutmut 2.5.1 not installed')
def test_parity_with_mutmut():
    mm = _mutmut_251()
    for path in corpus(limit=25, max_size=8000):
        with open(path, encoding='utf-8') as f:
            src = f.read()
        ctx = mm.Context(source=src, dict_synonyms=[''])
        try:
            ids = mm.list_mutations(ctx)
        except Exception:
            continue  # parso cannot read it (match statements...)
        theirs = collections.Counter(
            _norm(mm.mutate(mm.Context(source=src, mutation_id=i,
                                       dict_synonyms=['']))[0])
            for i in ids)
        ours = collections.Counter(_norm(m) for m in mutated(src))
        assert ours == theirs, path


def test_line_ends():
    # CRLF and lone CR both end lines, as they do for Python.
    for src in (b'x = 1\r\ny = 2\r\n', b'x = 1\ry = 2\n'):
        st, res = mutgen.generate('t.py', src, 'algo1')
        assert st == 'ok'
        assert [(m[1], m[2], m[9]) for m in res] == [
            (1, 4, '1'), (1, 4, '1'), (2, 4, '2'), (2, 4, '2')]
