# Tests of the Java dataset generators (operators/ds_java*.py): check and
# check_call, faults, rewrites, the fault line through composed rewrites
# (checked on a fresh parse of each variant), reordering in every class,
# renames that respect Java's scopes, and that what they generate compiles
# with the real javac (one JVM compiles every variant,
# test_ds_java_javac.java).  Needs the `_lt_java` extension module built by
# CMake (LT_JAVA_TREE_DIR) and a JDK:
#   LT_JAVA_TREE_DIR=build-gen/tests/unit/operators/pymod \
#   /usr/bin/python3 -m pytest -q -s tests/unit/operators/test_ds_java.py
# SPDX-License-Identifier: MIT

import functools
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, '..', '..', '..')
sys.path.insert(0, os.environ.get('LT_MUTGEN_DIR',
                                  os.path.join(ROOT, 'operators')))
sys.path.insert(0, os.environ.get(
    'LT_JAVA_TREE_DIR', os.path.join(ROOT, 'build-gen', 'tests', 'unit',
                                     'operators', 'pymod')))
_lt_java = pytest.importorskip('_lt_java', reason='build _lt_java first')
import ds_java  # noqa: E402
from ds_java_tree import JSrc, BODIES  # noqa: E402

FIX = os.environ.get('LT_JAVA_FIXTURES',
                     os.path.join(ROOT, 'tests', 'fixtures', 'java_gen'))
JAVA = shutil.which('java', path='/usr/bin') or shutil.which('java')
HELPER = os.path.join(HERE, 'test_ds_java_javac.java')


def fixtures():
    out = {}
    for f in sorted(os.listdir(FIX)):
        if f.endswith('.java'):
            with open(os.path.join(FIX, f), encoding='utf-8') as fh:
                out[f] = fh.read()
    return out


FIXTURES = fixtures()


def unit(name, text):
    """(file name, text) as the worker compiles a program."""
    if ds_java.check(text)['type'] is None:
        return 'LitmusMethod.java', 'class LitmusMethod { ' + text + '\n}'
    return name, text


RUNS = {}


def javac_all(items):
    """{label: None or the first error} for [(label, file name, text)],
    compiled each on its own by two JVMs side by side.  An item with a
    fourth element, a class name, also runs that class's main(): RUNS
    gets {label: hash of its output, or "RUNFAIL: ..."}."""
    if JAVA is None:
        pytest.skip('no java')
    tmp = tempfile.mkdtemp(prefix='litmus-ds-java-')
    try:
        dirs = []
        for i, item in enumerate(items):
            label, name, text = item[:3]
            d = os.path.join(tmp, str(i))
            os.mkdir(d)
            with open(os.path.join(d, name), 'w', encoding='utf-8') as fh:
                fh.write(text)
            if len(item) > 3:
                with open(os.path.join(d, 'main.txt'), 'w') as fh:
                    fh.write(item[3])
            dirs.append(d)
        halves = [dirs[0::2], dirs[1::2]]
        procs = [subprocess.Popen([JAVA, '-XX:+UseSerialGC',
                                   '-XX:TieredStopAtLevel=1', HELPER],
                                  stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True)
                 for _ in halves]
        res = {}
        runs = {}
        outs = [p.communicate('\n'.join(h) + '\n', timeout=240)[0]
                for p, h in zip(procs, halves)]
        for out in outs:
            for line in out.splitlines():
                if line.startswith('OK '):
                    res[line[3:]] = None
                elif line.startswith('FAIL '):
                    d, _, msg = line[5:].partition(': ')
                    res[d] = msg
                elif line.startswith('RUN '):
                    d, _, digest = line[4:].rpartition(' ')
                    runs[d] = digest
                elif line.startswith('RUNFAIL '):
                    d, _, msg = line[8:].partition(': ')
                    runs[d] = 'RUNFAIL: ' + msg
        for i, d in enumerate(dirs):
            if d in runs:
                RUNS[items[i][0]] = runs[d]
        return {items[i][0]: res.get(d, 'no answer')
                for i, d in enumerate(dirs)}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def leaves(text, line):
    """(type, text) of the tree's leaves on a 1-based line of text, parsed
    afresh (a bare method wrapped as the worker does)."""
    src = JSrc(text)
    out = []
    for n in src.nodes:
        if not n.children and n.sr + 1 == line and n.sb >= 0 and \
                n.type not in ('line_comment', 'block_comment'):
            out.append((n.type, src.seg(n)))
    return out


def same_modulo_names(a, b):
    """Leaf lists equal up to identifiers (renames)."""
    return len(a) == len(b) and all(
        x[0] == y[0] and (x[0] == 'identifier' or x[1] == y[1])
        for x, y in zip(a, b))


def member_orders(text):
    """{class path: [movable member names in order]}."""
    src = JSrc(text)
    out = {}
    for body in src.nodes:
        if body.type not in BODIES:
            continue
        path = []
        p = body.parent
        while p is not None:
            nm = p.child('name')
            if nm is not None and p.type.endswith('declaration'):
                path.append(src.seg(nm))
            p = p.parent
        names = []
        for m in body.children:
            if m.type in ('method_declaration', 'constructor_declaration',
                          'class_declaration', 'interface_declaration',
                          'enum_declaration', 'record_declaration'):
                nm = m.child('name')
                ps = m.child('parameters')
                types = [src.seg(c.child('type')) for c in ps.children
                         if c.child('type') is not None] if ps else []
                names.append('%s(%s)' % (src.seg(nm), ','.join(types)))
        out['.'.join(reversed(path))] = names
    return out


# ------------------------------------------------------------ check

def test_check_info_and_errors():
    info = ds_java.check(FIXTURES['Algorithms.java'])
    assert info == {'package': 'litmus.fixtures', 'type': 'Algorithms',
                    'lines': 252}
    assert ds_java.check(FIXTURES['Shapes.java'])['type'] == 'Shapes'
    assert ds_java.check(FIXTURES['Text.java'])['package'] == ''
    assert ds_java.check(FIXTURES['bare_method.java']) == {
        'package': '', 'type': None, 'lines': 9}
    assert ds_java.check('class A {}\nclass B {}\n')['type'] == 'A'
    assert ds_java.check('class A {}\npublic class B {}\n')['type'] == 'B'
    for bad, line in (('class A {\n  void f() {\n    int x = ;\n  }\n}\n', 3),
                      ('class A {\n  void f() { g( }\n}\n', 2),
                      ('int f() {\n  return 1\n}\n', 2)):
        with pytest.raises(ValueError) as e:
            ds_java.check(bad)
        assert str(e.value).startswith('line %d: ' % line), str(e.value)
    with pytest.raises(ValueError):
        ds_java.faults('class A { void f() { x = ; } }')
    with pytest.raises(ValueError):
        ds_java.Rewriter('class A { void f() { x = ; } }')


def test_check_call():
    ok = ['Foo.bar(3, new int[]{1, 2})', 'f(1)', ' Util.max(List.of(1, 2)) ',
          'new Algorithms().binarySearch(new int[]{1, 3, 5}, 3)',
          's.length()']
    for c in ok:
        assert ds_java.check_call(c) is None, c
    for c in ['f(1,,)', 'f(1); g(2)', 'f(1)) + (g(2)', '', 'int x = 1',
              'f(1) // x', 'a\\u0029', 3]:
        assert isinstance(ds_java.check_call(c), str), c


# ------------------------------------------------------------ faults

@pytest.mark.parametrize('name', sorted(FIXTURES))
def test_faults_invariants(name):
    src = FIXTURES[name]
    fs = ds_java.faults(src)
    if len(src) < 4000:
        assert fs == ds_java.faults(src)
    kinds = {f['kind'] for f in fs}
    assert kinds == {'OffByOne', 'MisplacedReturn', 'BooleanLogic',
                     'OperatorSwap'}
    texts = [f['source'] for f in fs]
    assert len(set(texts)) == len(texts)
    lines = src.split('\n')
    info = ds_java.check(src)
    total, bare = info['lines'], info['type'] is None
    for f in fs:
        assert set(f) == {'kind', 'line', 'quarter', 'fraction', 'source',
                          'description', 'original_line', 'faulty_line'}
        new = f['source'].split('\n')
        assert len(new) == len(lines)
        diff = [i + 1 for i, (x, y) in enumerate(zip(lines, new)) if x != y]
        assert diff == [f['line']]
        assert f['original_line'] == lines[f['line'] - 1]
        assert f['faulty_line'] == new[f['line'] - 1]
        text = f['source']
        if bare:
            text = 'class LitmusMethod { ' + text + '\n}'
        assert not _lt_java.has_error(text.encode('utf-8'))
        loc = ds_java.location(f['line'], total)
        assert f['quarter'] == loc['quarter']
    for q in (1, 2, 3, 4):
        assert all(f['quarter'] == q
                   for f in ds_java.faults_in_quarter(src, q))
    with pytest.raises(ValueError):
        ds_java.faults_in_quarter(src, 5)


def _fault_lines(src):
    return {(f['kind'], f['original_line'].strip(), f['faulty_line'].strip())
            for f in ds_java.faults(src)}


def test_faults_expected():
    got = _fault_lines(FIXTURES['Algorithms.java'])
    for want in [
            ('OffByOne', 'for (int i = 0; i < n - 1; i++) {',
             'for (int i = 0; i <= n - 1; i++) {'),
            ('OffByOne', 'for (int i = 0; i < n - 1; i++) {',
             'for (int i = 0; i < n; i++) {'),
            ('OffByOne', 'for (int i = 0; i < items.size(); i++) {',
             'for (int i = 0; i < items.size() - 1; i++) {'),
            ('OffByOne', 'for (int i = 0; i < values.length; i++) {',
             'for (int i = 0; i < values.length - 1; i++) {'),
            ('OffByOne', 'for (int i = 0; i < values.length; i++) {',
             'for (int i = 1; i < values.length; i++) {'),
            ('OffByOne', 'total += items.get(i);',
             'total += items.get(i - 1);'),
            ('OffByOne', 'int mid = xs.length / 2;',
             'int mid = xs.length / 2;') and
            ('OffByOne', 'a[j] = a[j + 1];', 'a[j] = a[j];'),
            ('BooleanLogic', 'if (!swapped) {', 'if (swapped) {'),
            ('BooleanLogic', 'while (lo <= hi) {', 'while (!(lo <= hi)) {'),
            ('BooleanLogic',
             'if (x > threshold && x % 2 == 0 || x == LIMIT) {',
             'if (x > threshold || x % 2 == 0 || x == LIMIT) {'),
            ('OperatorSwap', 'int mid = lo + (hi - lo) / 2;',
             'int mid = lo - (hi - lo) / 2;'),
            ('OperatorSwap', 'result *= base;', 'result /= base;'),
            ('MisplacedReturn', 'a = b;', 'if (true) return a; a = b;'),
            ('MisplacedReturn', 'current = Math.max(xs[i], current + xs[i]);',
             'if (true) return best; current = Math.max(xs[i], current + '
             'xs[i]);'),
            ('MisplacedReturn', 'int hi = arr.length - 1;',
             'if (true) return -1; int hi = arr.length - 1;'),
            ('MisplacedReturn', 'boolean swapped = false;',
             'if (true) return; boolean swapped = false;')]:
        assert want in got, want
    # `+` on Strings is never swapped, `+=` on a String never flipped
    for k, o, f in got:
        assert not (o.startswith('String label') and k == 'OperatorSwap'
                    and '-' in f.replace('xs.length', '')), f
    text = _fault_lines(FIXTURES['Text.java'])
    assert not any(o == 's += text;' and k == 'OperatorSwap'
                   for k, o, _ in text)
    assert not any(o == 'acc = acc + f.apply(parts[i]);'
                   and k == 'OperatorSwap' for k, o, _ in text)
    # never in case labels or annotations
    assert not any(o.startswith('case ') for _, o, _ in got)


# ------------------------------------------------------------ rewrites

RENAME_SRC = '''\
class Scope {
    int x = 1;
    int total;

    int x() {
        return x;
    }

    int run(int[] items, Scope other) {
        total = x;
        x:
        for (int i = 0; i < items.length; i++) {
            int x = items[i] + this.x + other.x + x();
            if (x > 3) {
                break x;
            }
            total += x;
        }
        for (int i = 0; i < 2; i++) {
            total += i;
        }
        Runnable r = new Runnable() {
            int items = 3;

            public void run() {
                total += items;
            }
        };
        r.run();
        return total + x;
    }
}
'''


def test_renames_respect_scopes():
    r = ds_java.Rewriter(RENAME_SRC)
    names = {(c.name, c.func) for c in r._cands[None]}
    assert ('x', 'run') in names and ('i', 'run') in names
    assert ('other', 'run') in names
    # the anonymous class uses `items`: the parameter is left alone
    assert ('items', 'run') not in names
    for seed in range(40):
        v = r.variant('v', 8, seed=seed)
        out = v['source']
        new = {a['detail'].split('`')[3] for a in v['applied']
               if a['detail'].startswith('`x`')}
        if not new:
            continue
        (nx,) = new
        assert '+ this.x + ' in out and '.x + x();' in out
        assert 'break x;' in out and '        x:' in out
        assert 'total = x;' in out and 'return total + x;' in out
        assert 'int %s = ' % nx in out
        assert 'if (%s > 3)' % nx in out and 'total += %s;' % nx in out
        break
    else:
        raise AssertionError('x never renamed')


def test_rewrite_validation_and_vocab():
    src = FIXTURES['Algorithms.java']
    r = ds_java.Rewriter(src)
    for bad in (('x', 1), ('d', 0), ('d', 9), ('', 1)):
        with pytest.raises(ValueError):
            r.variant(bad[0], bad[1])
    with pytest.raises(ValueError):
        r.variant('d', 1, fault_line=10 ** 6)
    for vocab in ({'names': ['class']}, {'names': ['a b']},
                  {'comments': ['two\nlines']}, {'dead_code': ['return;']},
                  {'dead_code': ['int x = ;']}, {'other': []},
                  {'dead_code': ['break;']}, {'names': ['String']}):
        with pytest.raises(ValueError):
            ds_java.Rewriter(src, vocab=vocab)
    vocab = {'names': ['sorted_list', 'best'], 'comments': ['// trust me'],
             'dead_code': ['int zz = 4;\nzz++;', 'int best = 1;',
                           'if (1 > 2) {\n    System.out.println(3);\n}']}
    r = ds_java.Rewriter(src, vocab=vocab)
    assert ('names', 'best', 'used by the program') in r.skipped
    assert any(s[0] == 'dead_code' for s in r.skipped)
    r2 = ds_java.Rewriter(src, vocab={'dead_code': ['counter = 3;']})
    assert r2.skipped == [('dead_code', 'counter = 3;',
                           'uses counter, which it does not declare')]
    v = r.variant('c,v,d', 3, seed=1)
    assert 'sortedList' in v['source']
    assert 'trust me' in v['source']
    assert 'zz++' in v['source'] or 'System.out.println(3)' in v['source']
    assert 'if (false) {' in v['source'] or 'if (1 > 2)' in v['source']


def test_reorder_changes_every_class():
    for name, src in FIXTURES.items():
        r = ds_java.Rewriter(src)
        before = member_orders(src)
        multi = {k for k, v in before.items() if len(v) >= 2}
        if not r.applicable()['r']:
            assert not multi or name.startswith('bare_method'), name
            continue
        for seed in range(6):
            for ops in ('r', 'c,v,d,r', 'r,d,c'):
                v = r.variant(ops, 1 + seed % 8, seed=seed)
                after = member_orders(v['source'])
                for k in multi:
                    assert sorted(after[k]) == sorted(before[k]), (name, k)
                    assert after[k] != before[k], (name, k, ops, seed)
                for k in before:
                    if k not in multi:
                        assert after[k] == before[k]


COMPOSED = ('d', 'c', 'v', 'r', 'c,v,d', 'r,c,v,d', 'v,r', 'd,r,c')


def _rewrites_of(name, src, seeds=2, strengths=(1, 4, 8)):
    r = ds_java.Rewriter(src)
    app = r.applicable()
    out = []
    for ops in COMPOSED:
        if any(not app[o] for o in ops.split(',')):
            continue
        for k in strengths:
            for s in range(seeds):
                out.append(('%s|%s|%d|%d' % (name, ops, k, s),
                            r.variant(ops, k, seed=s)))
    return out


def test_fault_line_through_composed_rewrites():
    checked = 0
    for name, src in FIXTURES.items():
        fs = ds_java.faults(src)
        rng = random.Random(name)
        for f in rng.sample(fs, min(8, len(fs))):
            r = ds_java.Rewriter(f['source'])
            app = r.applicable()
            want = leaves(f['source'], f['line'])
            for i, ops in enumerate(COMPOSED):
                if any(not app[o] for o in ops.split(',')):
                    continue
                q = (None, 1, 2, 3, 4)[i % 5]
                try:
                    v = r.variant(ops, 1 + i % 8, quarter=q, seed=i,
                                  fault_line=f['line'])
                except ValueError:
                    v = r.variant(ops, 1 + i % 8, seed=i,
                                  fault_line=f['line'])
                got = leaves(v['source'], v['fault_line'])
                assert same_modulo_names(want, got), (name, ops, f, got)
                # the faulty token itself is there, untouched
                assert any(t in [x[1] for x in got] for t in
                           [x[1] for x in want if x[0] != 'identifier'])
                checked += 1
    assert checked > 150


def test_variants_deterministic_and_parse():
    for name, src in FIXTURES.items():
        a = _rewrites_of(name, src, seeds=1, strengths=(3,))
        b = _rewrites_of(name, src, seeds=1, strengths=(3,))
        assert a == b
        for label, v in a:
            assert not JSrc(v['source']).err, label


@functools.lru_cache(maxsize=None)
def _batch():
    """Everything the javac tests compile, in one run of two JVMs: every
    fixture; faults (a sample of the larger files'); rewrites of clean and
    of faulty programs; Behave.java's rewrites, also run."""
    items = []
    for name, src in FIXTURES.items():
        items.append(('orig|' + name,) + unit(name, src))
        fs = ds_java.faults(src)
        if len(fs) > 8:
            fs = random.Random(0).sample(fs, 8)
        for i, f in enumerate(fs):
            items.append(('fault|%s|%d|%s' % (name, i, f['description']),)
                         + unit(name, f['source']))
        for label, v in _rewrites_of(name, src, seeds=1, strengths=(8,)):
            items.append(('rewrite|' + label,) + unit(name, v['source']))
        for i, f in enumerate(fs[:1]):
            for label, v in _rewrites_of(name, f['source'], seeds=1,
                                         strengths=(2 + 3 * i,)):
                items.append(('faulty-rewrite|%d|%s' % (i, label),)
                             + unit(name, v['source']))
    items.extend(_edge_items())
    src = FIXTURES['Behave.java']
    items.append(('run|orig', 'Behave.java', src, 'Behave'))
    for label, v in _rewrites_of('Behave.java', src, seeds=2,
                                 strengths=(1, 5)):
        items.append(('run|' + label, 'Behave.java', v['source'], 'Behave'))
    t = time.perf_counter()
    res = javac_all(items)
    return res, time.perf_counter() - t


def test_generated_programs_compile():
    res, took = _batch()
    bad = {k: v for k, v in res.items() if v is not None}
    n_f = sum(1 for k in res if k.startswith('fault|'))
    n_r = sum(1 for k in res if 'rewrite|' in k or k.startswith('run|')
              or k.startswith('edge|')) - 1
    bad_f = sum(1 for k in bad if k.startswith('fault|'))
    print('\njavac: %d faults, %d compile (%.1f%%); %d rewrites, %d compile '
          '(%.1f%%); %.1f s' % (
              n_f, n_f - bad_f, 100.0 * (n_f - bad_f) / max(1, n_f), n_r,
              n_r - (len(bad) - bad_f), 100.0 * (n_r - len(bad) + bad_f)
              / max(1, n_r), took))
    for k, v in sorted(bad.items())[:20]:
        print('  FAIL', k, v)
    assert not bad


def test_rewrites_keep_behaviour():
    """Behave.java's main prints the same after every rewrite."""
    _batch()
    want = RUNS['run|orig']
    assert not want.startswith('RUNFAIL')
    runs = {k: v for k, v in RUNS.items() if k != 'run|orig'}
    differ = {k: v for k, v in runs.items() if v != want}
    print('\nbehaviour: %d rewrites of Behave.java run, %d print the same'
          % (len(runs), len(runs) - len(differ)))
    assert len(runs) >= 20 and not differ


def test_speed():
    src = FIXTURES['Algorithms.java']
    t = time.perf_counter()
    r = ds_java.Rewriter(src)
    setup = time.perf_counter() - t
    n = 0
    t = time.perf_counter()
    for seed in range(300):
        for ops in ('c,v,d', 'r', 'r,c,v,d'):
            r.variant(ops, 1 + seed % 8, seed=seed, fault_line=100)
            n += 1
    took = time.perf_counter() - t
    t = time.perf_counter()
    fs = ds_java.faults(src)
    ft = time.perf_counter() - t
    print('\nrewrite speed (%d lines): analysis %.1f ms, %.3f ms a variant '
          '(%.0f variants/s on one core); faults: %d in %.0f ms' % (
              src.count('\n'), setup * 1e3, took / n * 1e3, n / took,
              len(fs), ft * 1e3))
    assert took / n < 0.002


def test_clean_and_faulty_get_the_same_choices():
    """The Python generator's determinism contract: a faulty copy (one line
    differs) gets the same choices, so the two outputs differ on exactly
    the reported fault line."""
    n = 0
    for name, src in FIXTURES.items():
        clean = ds_java.Rewriter(src)
        fs = ds_java.faults(src)
        for f in random.Random(1).sample(fs, min(15, len(fs))):
            faulty = ds_java.Rewriter(f['source'])
            for i, ops in enumerate(COMPOSED):
                try:
                    a = clean.variant(ops, 1 + i, seed=i,
                                      fault_line=f['line'])
                except ValueError:
                    continue
                b = faulty.variant(ops, 1 + i, seed=i, fault_line=f['line'])
                assert a['fault_line'] == b['fault_line']
                la, lb = a['source'].split('\n'), b['source'].split('\n')
                assert len(la) == len(lb)
                diff = [k + 1 for k, (x, y) in enumerate(zip(la, lb))
                        if x != y]
                assert diff == [b['fault_line']], (name, ops, f['description'])
                n += 1
    assert n > 300


EDGE_SRC = ('\ufeffpublic class Edge {\r\n'
            '\tstatic String greet(String wer, int n) {\r\n'
            '\t\tString s = "grüße " + wer;\r\n'
            '\t\tfor (int i = 0; i < n; i++) {\r\n'
            '\t\t\ts = s + "é" + i;\r\n'
            '\t\t}\r\n'
            '\t\treturn s;\r\n'
            '\t}\r\n'
            '\r\n'
            '\tstatic int twice(int zahl) { return zahl * 2; }\r\n'
            '\r\n'
            '\tstatic int half(int zahl) {\r\n'
            '\t\treturn zahl / 2;\r\n'
            '\t}\r\n'
            '}\r\n')


def _edge_items():
    """Variants of EDGE_SRC as the worker compiles them (no BOM)."""
    r = ds_java.Rewriter(EDGE_SRC)
    items = []
    for i, ops in enumerate(COMPOSED):
        v = r.variant(ops, 3, seed=i, fault_line=5)
        items.append(('edge|' + ops, 'Edge.java', v['source'][1:]))
    for f in ds_java.faults(EDGE_SRC):
        items.append(('edge|' + f['description'], 'Edge.java',
                      f['source'][1:]))
    return items


def test_bom_crlf_tabs_utf8():
    fs = ds_java.faults(EDGE_SRC)
    assert fs and all(f['source'].startswith('\ufeff') for f in fs)
    r = ds_java.Rewriter(EDGE_SRC)
    assert r._unit == b'\t'
    for i, ops in enumerate(COMPOSED):
        v = r.variant(ops, 3, seed=i, fault_line=5)
        out = v['source']
        assert out.startswith('\ufeff')
        body = out[1:]
        assert '\n' not in body.replace('\r\n', '')
        assert 'grüße' in out and '"é"' in out
        got = leaves(body, v['fault_line'])
        assert same_modulo_names(leaves(EDGE_SRC[1:], 5), got)
        assert not JSrc(body).err
    res, _ = _batch()
    edge = {k: v for k, v in res.items() if k.startswith('edge|')}
    assert len(edge) > len(COMPOSED) and not any(edge.values())


def test_incremental_check_matches_a_fresh_parse():
    rng = random.Random(3)
    data = FIXTURES['Tricky.java'].encode('utf-8')
    edits = []
    for _ in range(300):
        s = rng.randrange(len(data))
        e = min(len(data), s + rng.randrange(4))
        edits.append((s, e, rng.choice([b'', b';', b'(', b'x', b' - 1', b'}',
                                        b'if (true) return; ', b'<='])))
    inc = _lt_java.edits_have_errors(data, edits)
    assert any(inc) and not all(inc)
    for (s, e, rep), bad in zip(edits, inc):
        assert bad == _lt_java.has_error(data[:s] + rep + data[e:])
