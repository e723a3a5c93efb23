# Tests of operators/dataset.py: typed mutants (SEEDS.md section 1), single
# line faults and semantic-preserving rewrites (section 4), the fault-line
# determinism contract and the rewrite speed.  Run with Debian's
# interpreter:
#   /usr/bin/python3 -m pytest -q -p no:cacheprovider \
#       tests/unit/operators/test_dataset.py
# SPDX-License-Identifier: MIT

import io
import itertools
import os
import random
import sys
import time
import tokenize

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.environ.get(
    'LT_MUTGEN_DIR', os.path.join(HERE, '..', '..', '..', 'operators')))
import dataset  # noqa: E402


# ------------------------------------------------------------ programs

MERGE_SORT = '''\
"""Sorting helpers."""


def merge_sort(arr):
    """Sort arr in place and return it."""
    if len(arr) > 1:
        mid = len(arr) // 2
        left = arr[:mid]
        right = arr[mid:]
        merge_sort(left)
        merge_sort(right)
        i = j = k = 0
        while i < len(left) and j < len(right):
            if left[i] <= right[j]:
                arr[k] = left[i]
                i += 1
            else:
                arr[k] = right[j]
                j += 1
            k += 1
        while i < len(left):
            arr[k] = left[i]
            i += 1
            k += 1
        while j < len(right):
            arr[k] = right[j]
            j += 1
            k += 1
    return arr


def heap_top(heap):
    return heap[0] if heap else None


def last_item(items):
    return items[-1] if items else None


# the load factor of a table
def load(size, capacity):
    return size / capacity


def is_same(a, b):
    return a == b
'''

CLASS_PROGRAM = '''\
class Inventory:
    """A stock of named items."""

    def __init__(self):
        self.items = {}
        self.count = 0

    def add(self, name, qty=1):
        count = self.items.get(name, 0)
        count += qty
        self.items[name] = count
        self.count += qty
        return count

    def remove(self, name, qty=1):
        count = self.items.get(name, 0)
        if count < qty or qty <= 0:
            return False
        remaining = count - qty
        if remaining == 0:
            del self.items[name]
        else:
            self.items[name] = remaining
        self.count -= qty
        return True

    def names(self):
        list_ = list(self.items)
        list_.sort(reverse=True)
        return list_


def restock(inv, names, qty):
    added = 0
    for name in names:
        added += inv.add(name, qty=qty)
    return added


def stock_report(inv):
    total = 0
    lines = []
    for name in sorted(inv.items):
        total += inv.items[name]
        lines.append(name + ':' + str(inv.items[name]))
    return total, lines


def run(ops):
    inv = Inventory()
    out = []
    for op, name, qty in ops:
        if op == 'add':
            out.append(inv.add(name, qty))
        else:
            out.append(inv.remove(name, qty))
    out.append(stock_report(inv))
    out.append(inv.names())
    out.append(restock(inv, ['x', 'y'], 2))
    return out
'''

GCD_BITCOUNT = '''\
def gcd(a, b):
    if b == 0:
        return a
    else:
        return gcd(b, a % b)


def bitcount(n):
    count = 0
    while n:
        n &= n - 1
        count += 1
    return count


def lcm(a, b):
    g = gcd(a, b)
    result = a * b // g
    return result


def is_power_of_two(n):
    return n > 0 and bitcount(n) == 1
'''

CLOSURES = '''\
def make_counter(start=0):
    count = start

    def inc(step=1):
        nonlocal count
        count += step
        return count
    return inc


def describe(items):
    total = sum(items)
    label = 'items'
    msg = f"{label}: {total} ({len(items)} values)"
    squares = [x * x for x in items]
    evens = {x for x in items if x % 2 == 0}
    return msg, squares, sorted(evens)


def apply_twice(fn, *args, **kwargs):
    first = fn(*args, **kwargs)
    second = fn(*args, **kwargs)
    return first, second


def window_sums(values, size):
    sums = []
    for i in range(len(values) - size + 1):
        window = values[i:i + size]
        sums.append(sum(window))
    return sums


def scale(values, factor=2):
    scaled = []
    for v in values:
        scaled.append(v * factor)
    return scaled


def use_scale(values):
    return scale(values, factor=3)


def counter_demo(n):
    c = make_counter(10)
    last = None
    for _ in range(n):
        last = c(2)
    return last
'''

DECORATED = '''\
import functools


def logged(func):
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        wrapper.calls += 1
        return func(*args, **kwargs)
    wrapper.calls = 0
    return wrapper


@logged
def square(x):
    return x * x


@functools.lru_cache(maxsize=None)
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


class Shape:
    @staticmethod
    def area(w, h):
        product = w * h
        return product

    @property
    def kind(self):
        return 'shape'


def total_area(pairs):
    total = 0
    for w, h in pairs:
        total += Shape.area(w, h)
    return total
'''

THREADED = '''\
import threading


class Counter:
    def __init__(self):
        self.value = 0
        self.lock = threading.Lock()

    def add(self, amount):
        with self.lock:
            self.value += amount


def worker(counter, times):
    for _ in range(times):
        counter.add(1)


def run(n_threads, per_thread):
    counter = Counter()
    threads = []
    for _ in range(n_threads):
        t = threading.Thread(target=worker, args=(counter, per_thread))
        threads.append(t)
        t.start()
    for t in threads:
        t.join()
    return counter.value


if __name__ == '__main__':
    print(run(4, 100))
'''

# A program whose names invite clashes: a builtin used as a call, locals
# that are also attribute names, keyword-argument calls, a global read in a
# function, names that sit in the rename pools already.
CLASHES = '''\
LIMIT = 10
sorted_flag = True
total_sum = 0


class Box:
    def __init__(self, size):
        self.size = size
        self.total = 0


def fill(box, size, limit=LIMIT):
    total = 0
    size_left = size
    while size_left > 0 and total < limit:
        total += 1
        size_left -= 1
    box.total = total
    box.size = size_left
    return list(range(total)), box.size


def caller(n):
    b = Box(n)
    items, size = fill(b, n, limit=3)
    return len(items), size, b.total


def chained(values):
    result_list = []
    for value in values:
        result_list.append(value + LIMIT)
    return result_list
'''

PROGRAMS = {
    'merge_sort': MERGE_SORT, 'class': CLASS_PROGRAM, 'gcd': GCD_BITCOUNT,
    'closures': CLOSURES, 'decorated': DECORATED, 'threaded': THREADED,
    'clashes': CLASHES,
}

# Calls whose results must not change under any rewrite.
PROBES = {
    'merge_sort': [('merge_sort', ([5, 2, 9, 1, 5, 6],)),
                   ('merge_sort', ([],)), ('merge_sort', ([3, -1],)),
                   ('heap_top', ([4, 8],)), ('heap_top', ([],)),
                   ('last_item', ([1, 2, 3],)), ('load', (3, 4)),
                   ('is_same', (2, 2)), ('is_same', (1, 2))],
    'class': [('run', ([('add', 'a', 3), ('add', 'b', 1), ('remove', 'a', 1),
                        ('remove', 'b', 5), ('add', 'c', 2),
                        ('remove', 'c', 2)],))],
    'gcd': [('gcd', (12, 18)), ('gcd', (17, 5)), ('bitcount', (255,)),
            ('bitcount', (0,)), ('lcm', (4, 6)), ('is_power_of_two', (64,)),
            ('is_power_of_two', (12,))],
    'closures': [('describe', ([1, 2, 3, 4],)),
                 ('window_sums', ([1, 2, 3, 4, 5], 2)),
                 ('scale', ([1, 2],)), ('use_scale', ([1, 2],)),
                 ('counter_demo', (3,)),
                 ('apply_twice', (max, 3, 9))],
    'decorated': [('square', (7,)), ('fib', (15,)),
                  ('total_area', ([(2, 3), (4, 5)],))],
    'threaded': [('run', (3, 50))],
    'clashes': [('caller', (5,)), ('caller', (1,)), ('chained', ([1, 2],))],
}


def run_probes(src, name):
    g = {'__name__': 'probe'}
    exec(compile(src, '<probe>', 'exec'), g)
    out = []
    for fname, args in PROBES[name]:
        try:
            out.append(repr(g[fname](*args)))
        except Exception as e:  # the same exception must come back
            out.append('raised %s' % type(e).__name__)
    return out


def compiles(src):
    compile(src, '<test>', 'exec')
    return True


def differing_lines(a, b):
    la, lb = a.split('\n'), b.split('\n')
    assert len(la) == len(lb)
    return [i + 1 for i, (x, y) in enumerate(zip(la, lb)) if x != y]


# ------------------------------------------------------------ location

def test_location_formula():
    assert dataset.location(1, 100) == {'line': 1, 'fraction': 0.0,
                                        'quarter': 1, 'third': 'first'}
    assert dataset.location(25, 100)['quarter'] == 1
    assert dataset.location(26, 100)['quarter'] == 2
    assert dataset.location(76, 100)['quarter'] == 4
    assert dataset.location(100, 100)['quarter'] == 4
    assert dataset.location(34, 99)['third'] == 'middle'   # 33/99 = 1/3
    assert dataset.location(33, 99)['third'] == 'first'
    assert dataset.location(67, 99)['third'] == 'last'     # 66/99 = 2/3
    assert dataset.location(66, 99)['third'] == 'middle'
    assert dataset.location(1, 0)['quarter'] == 1
    assert dataset.location(7, 3)['quarter'] == 3          # clamped to 3
    for n in range(1, 60):
        qs = [dataset.location(L, n)['quarter'] for L in range(1, n + 1)]
        assert qs == sorted(qs) and set(qs) <= {1, 2, 3, 4}
        for L in range(1, n + 1):
            loc = dataset.location(L, n)
            f = (L - 1) / n
            assert loc['fraction'] == f
            assert (loc['quarter'] - 1) / 4 <= f < loc['quarter'] / 4
    with pytest.raises(ValueError):
        dataset.location(0, 10)


def test_check_call():
    for ok in ('f(1, 2)', '  gcd(12, 18)', 'f(*[1], **{"a": 2})',
               'sorted(g(3))', 'f()'):
        assert dataset.check_call(ok) is None, ok
    for bad, why in (('f(1,,)', 'invalid syntax'), ('', 'empty'),
                     ('   ', 'empty'), ('f(]', 'does not match'),
                     ('f(1)\x00', 'NUL'), (3, 'not a string'),
                     ('x = f(1)', 'invalid syntax')):
        got = dataset.check_call(bad)
        assert got and why in got, (bad, got)


# ------------------------------------------------------------ typed

@pytest.mark.parametrize('name', sorted(PROGRAMS))
def test_typed_mutants_invariants(name):
    src = PROGRAMS[name]
    data = src.encode('utf-8')
    ms = dataset.typed_mutants(src)
    assert ms
    n = dataset._count_lines(src)
    seen = set()
    keys = []
    for m in ms:
        assert set(m) == {'type', 'op', 'line', 'end_line', 'third',
                          'fraction', 'start', 'end', 'replacement',
                          'source', 'description'}
        assert m['type'] in ('statement', 'value', 'decision')
        assert (data[:m['start']] + m['replacement'].encode('utf-8')
                + data[m['end']:]).decode('utf-8') == m['source']
        assert m['source'] != src and m['source'] not in seen
        seen.add(m['source'])
        assert compiles(m['source'])
        loc = dataset.location(m['line'], n)
        assert m['third'] == loc['third'] and m['fraction'] == loc['fraction']
        assert 1 <= m['line'] <= m['end_line'] <= n
        assert '\n' not in m['description']
        keys.append((m['line'], m['start']))
    assert keys == sorted(keys, key=lambda k: k[0])   # source order


def _has(ms, type_, desc_part=None, line_part=None, new_part=None):
    for m in ms:
        if m['type'] != type_:
            continue
        if desc_part and desc_part not in m['description']:
            continue
        if line_part is not None:
            new = m['source'].split('\n')[m['line'] - 1]
            if line_part not in new:
                continue
        if new_part is not None and new_part not in m['source']:
            continue
        return m
    return None


def test_typed_expected_mutants():
    ms = dataset.typed_mutants(MERGE_SORT)
    # statement: delete `j += 1` (the line goes away), return arr -> return
    m = _has(ms, 'statement', 'delete `j += 1`')
    assert m and m['op'] == 'delete'
    assert len(m['source'].split('\n')) == len(MERGE_SORT.split('\n')) - 1
    assert _has(ms, 'statement', 'replace `return arr` with `return`')
    assert _has(ms, 'statement', 'duplicate `k += 1`')
    assert _has(ms, 'statement', 'swap `mid = len(arr) // 2` and '
                '`left = arr[:mid]`')
    # value
    assert _has(ms, 'value', new_part='return heap[-1] if heap')
    assert _has(ms, 'value', new_part='return items[0] if items')
    assert _has(ms, 'value', new_part='mid = len(arr) // 3')
    assert _has(ms, 'value', new_part='if len(arr) > 2:')
    # decision
    assert _has(ms, 'decision', new_part='return a != b')
    assert _has(ms, 'decision', new_part='return size * capacity')
    assert _has(ms, 'decision', new_part='if len(arr) < 1:')
    assert _has(ms, 'decision',
                new_part='while i < len(left) or j < len(right)')
    assert _has(ms, 'decision', new_part='                j -= 1\n')
    # locations: all three thirds are covered
    assert {m['third'] for m in ms} == {'first', 'middle', 'last'}
    # docstrings are never touched
    for m in ms:
        assert '"""Sort arr in place and return it."""' in m['source']
        assert '"""Sorting helpers."""' in m['source']


def test_typed_values_strings_bools_defaults_and_only_statement():
    src = ('def f(x, flag=True, n=3):\n'
           '    """Doc."""\n'
           '    s = \'\'\n'
           '    t = "ab"\n'
           '    if x is None:\n'
           '        x = 0\n'
           '    if not flag:\n'
           '        return s\n'
           '    return t * n if x in (1, 2) else s\n')
    ms = dataset.typed_mutants(src)
    assert _has(ms, 'value', new_part="s = 'XX'\n")
    assert _has(ms, 'value', new_part='t = "XXabXX"\n')
    assert _has(ms, 'value', new_part='flag=False')
    m = _has(ms, 'value', new_part='n=4')
    assert m['op'] == 'default'
    assert _has(ms, 'decision', new_part='if x is not None:')
    assert _has(ms, 'decision', new_part='x not in (1, 2)')
    assert _has(ms, 'decision', new_part='    if flag:\n')
    # the only statement of a block becomes pass
    m = _has(ms, 'statement', 'delete `x = 0`')
    assert 'if x is None:\n        pass\n' in m['source']
    assert not any('Doc' not in m['source'] for m in ms)


def test_typed_skips_fstrings_and_main_guard():
    src = ('def f(a):\n'
           '    return f"{a + 1} and {a * 2}" + "x"\n'
           '\n'
           'if __name__ == "__main__":\n'
           '    print(f(1) + "y")\n')
    ms = dataset.typed_mutants(src)
    fstring = 'f"{a + 1} and {a * 2}"'
    for m in ms:
        if m['type'] != 'statement':
            assert fstring in m['source']
        assert m['line'] <= 2
        assert 'if __name__ == "__main__":\n    print(f(1) + "y")' \
            in m['source']
    # the + outside the f-string is mutated, the string after it too
    assert _has(ms, 'decision', new_part=fstring + ' - "x"')
    assert _has(ms, 'value', new_part='"XXxXX"')


def test_typed_utf8_offsets():
    src = 's = "héllo"  # ünïcode\nn = len(s) + 1\n'
    data = src.encode('utf-8')
    ms = dataset.typed_mutants(src)
    m = _has(ms, 'decision', new_part='len(s) - 1')
    assert data[m['start']:m['end']] == b'+'
    for m in ms:
        assert (data[:m['start']] + m['replacement'].encode()
                + data[m['end']:]).decode() == m['source']


# ------------------------------------------------------------ faults

@pytest.mark.parametrize('name', sorted(PROGRAMS))
def test_faults_invariants(name):
    src = PROGRAMS[name]
    fs = dataset.faults(src)
    assert fs
    n = dataset._count_lines(src)
    seen = set()
    docstring_lines = set()
    comment_lines = set()
    for tok in tokenize.generate_tokens(io.StringIO(src).readline):
        if tok.type == tokenize.COMMENT:
            comment_lines.add(tok.start[0])
        if tok.type == tokenize.STRING and tok.string.startswith('"""'):
            docstring_lines.update(range(tok.start[0], tok.end[0] + 1))
    for f in fs:
        assert set(f) == {'kind', 'line', 'quarter', 'fraction', 'source',
                          'description', 'original_line', 'faulty_line'}
        assert f['kind'] in dataset.FAULT_KINDS
        assert differing_lines(src, f['source']) == [f['line']]
        assert compiles(f['source'])
        assert f['source'] not in seen
        seen.add(f['source'])
        lines = f['source'].split('\n')
        assert lines[f['line'] - 1] == f['faulty_line']
        assert src.split('\n')[f['line'] - 1] == f['original_line']
        loc = dataset.location(f['line'], n)
        assert (f['quarter'], f['fraction']) == (loc['quarter'],
                                                 loc['fraction'])
        assert not f['original_line'].lstrip().startswith(('import ', 'from ',
                                                           '#'))
        assert f['line'] not in docstring_lines
        assert "__main__" not in f['original_line']
    for q in (1, 2, 3, 4):
        inq = dataset.faults_in_quarter(src, q)
        assert inq == [f for f in fs if f['quarter'] == q]


def test_faults_expected():
    fs = dataset.faults(MERGE_SORT + '\n\ndef tri(n):\n    t = 0\n'
                        '    for i in range(n):\n        t += i\n'
                        '    return t\n')

    def has(kind, orig, faulty):
        return any(f['kind'] == kind and orig in f['original_line']
                   and faulty in f['faulty_line'] for f in fs)

    assert has('OffByOne', 'for i in range(n):', 'for i in range(n + 1):')
    assert has('OffByOne', 'while i < len(left):', 'while i <= len(left):')
    assert has('OffByOne', 'arr[k] = left[i]', 'arr[k] = left[i - 1]')
    assert has('OffByOne', 'left = arr[:mid]', 'left = arr[:mid + 1]')
    assert has('BooleanLogic', 'while i < len(left) and j',
               'while i < len(left) or j')
    assert has('BooleanLogic', 'if left[i] <= right[j]:',
               'if not left[i] <= right[j]:')
    assert has('OperatorSwap', 'mid = len(arr) // 2', 'mid = len(arr) * 2')
    assert has('OperatorSwap', 'return a == b', 'return a != b')
    assert has('OperatorSwap', 'i += 1', 'i -= 1')
    assert has('MisplacedReturn', '        j += 1',
               '        return arr; j += 1')
    assert has('MisplacedReturn', '    t += i', '    return t; t += i')
    kinds = {f['kind'] for f in fs}
    assert kinds == set(dataset.FAULT_KINDS)
    # range(a, b) forms
    fs2 = dataset.faults('def f(a, b, xs):\n'
                         '    for i in range(a, b):\n'
                         '        xs.append(i)\n'
                         '    for j in range(len(xs) - 1):\n'
                         '        xs[j] += 1\n'
                         '    return xs\n')
    faulty = {f['faulty_line'].strip() for f in fs2 if f['kind'] == 'OffByOne'}
    assert 'for i in range(a, b + 1):' in faulty
    assert 'for i in range(a + 1, b):' in faulty
    assert 'for j in range(len(xs)):' in faulty


def test_offbyone_index_only_on_numbers():
    src = ('def f(d, key, xs, i):\n'
           '    n = len(xs)\n'
           '    for j in range(n):\n'
           '        xs[j] = d[key]\n'
           '    return xs[i], d[key], xs[n - 1]\n')
    fs = [f['faulty_line'].strip() for f in dataset.faults(src)
          if f['kind'] == 'OffByOne']
    assert 'xs[j - 1] = d[key]' in fs
    assert 'return xs[i], d[key], xs[n]' in fs
    assert not any('key - 1' in f or 'xs[i - 1]' in f for f in fs)
    # the class program indexes dicts by name: no index faults there
    assert not any('[name - 1]' in f['faulty_line']
                   for f in dataset.faults(CLASS_PROGRAM))


def test_misplaced_return_values_are_bound_or_none():
    src = ('def f(xs):\n'
           '    out = []\n'
           '    for x in xs:\n'
           '        out.append(x)\n'
           '    total = len(out)\n'
           '    print(total)\n'
           '    return total\n'
           '\n'
           'def g(xs):\n'
           '    xs.append(1)\n'
           '    xs.append(2)\n')
    fs = [f for f in dataset.faults(src) if f['kind'] == 'MisplacedReturn']
    by_line = {f['line']: f['faulty_line'] for f in fs}
    assert by_line[2] == '    return None; out = []'
    assert by_line[4] == '        return None; out.append(x)'
    assert by_line[6] == '    return total; print(total)'
    assert by_line[10] == '    return; xs.append(1)'
    assert 11 not in by_line            # the last statement
    for f in fs:                        # every one runs without NameError
        g = {}
        exec(f['source'], g)
        g['f']([1, 2])
        g['g']([])


def test_faults_quarter_validation():
    with pytest.raises(ValueError):
        dataset.faults_in_quarter(MERGE_SORT, 5)
    with pytest.raises(ValueError):
        dataset.faults_in_quarter(MERGE_SORT, None)


# ------------------------------------------------------------ rewrites

ALL_OPS = ['d', 'c', 'v', 'r']


def compositions():
    """Every non-empty subset of the ops, each in one order, plus a few
    other orders."""
    out = []
    for k in range(1, 5):
        for combo in itertools.combinations(ALL_OPS, k):
            out.append(','.join(combo))
    out += ['c,v,d', 'v,c', 'r,v,c,d', 'd,d', 'v,v']
    return out


@pytest.mark.parametrize('name', sorted(PROGRAMS))
def test_rewrites_compile_and_preserve_behaviour(name):
    src = PROGRAMS[name]
    expected = run_probes(src, name)
    r = dataset.Rewriter(src)
    rng = random.Random(7)
    done = 0
    comps = compositions()
    for seed in range(120):
        ops = comps[seed % len(comps)]
        strength = rng.randint(1, 8)
        q = [None, 1, 2, 3, 4][seed % 5]
        try:
            v = r.variant(ops, strength, q, seed)
        except ValueError:
            continue
        assert compiles(v['source'])
        assert run_probes(v['source'], name) == expected, (ops, v['source'])
        done += 1
    assert done >= 30


def test_rewrite_quarter_and_applied_lines():
    r = dataset.Rewriter(MERGE_SORT)
    n = dataset._count_lines(MERGE_SORT)
    orig = MERGE_SORT.split('\n')
    for seed in range(200):
        q = seed % 4 + 1
        try:
            v = r.variant('c,d', 3, q, seed)
        except ValueError:
            continue
        out = v['source'].split('\n')
        assert v['quarter'] == q
        assert [x['op'] for x in v['applied']] == ['d'] * 3 + ['c'] * 3
        for x in v['applied']:
            if x['op'] == 'c':
                assert out[x['line'] - 1].strip() == x['detail']
            else:
                assert out[x['line'] - 1].strip().startswith(
                    ('if', 'while', 'for'))
        # every inserted line sits right before a statement whose original
        # line is in quarter q
        j = 0
        for k, line in enumerate(out):
            if j < len(orig) and line == orig[j]:
                j += 1
                continue
            # inserted: the next original line is its statement
            nxt = j + 1
            assert dataset.location(nxt, n)['quarter'] == q, (seed, k)


def test_rewrite_renames_scope_correct_and_clash_free():
    r = dataset.Rewriter(CLASHES)
    ids = set(tok.string for tok in tokenize.generate_tokens(
        io.StringIO(CLASHES).readline) if tok.type == tokenize.NAME)
    renamed = set()
    for seed in range(300):
        v = r.variant('v', 8, None, seed)
        for x in v['applied']:
            old, new = x['detail'].split('`')[1], x['detail'].split('`')[3]
            renamed.add(old)
            assert new not in ids and new not in dataset.BUILTIN_NAMES
        src = v['source']
        # attributes, keyword argument names and globals are untouched
        assert 'self.size = size\n' in src
        assert src.count('.total') == CLASHES.count('.total')
        assert src.count('.size') == CLASHES.count('.size')
        assert 'self.size = size' in src and 'self.total = 0' in src
        assert 'limit=3)' in src and 'limit=LIMIT' in src
        assert 'list(range(' in src
        assert run_probes(src, 'clashes') == run_probes(CLASHES, 'clashes')
    # the locals of fill/caller/chained are renamed; `limit` (used as a
    # keyword argument) and `size` of Box.__init__ (a method) are not,
    # nor the global LIMIT
    assert {'total', 'size_left', 'items', 'result_list', 'value'} <= renamed
    assert 'limit' not in renamed and 'LIMIT' not in renamed
    assert 'self' not in renamed


def test_rewrite_renames_closures_fstrings_kwargs():
    r = dataset.Rewriter(CLOSURES)
    renamed = set()
    for seed in range(300):
        v = r.variant('v', 8, None, seed)
        renamed |= {x['detail'].split('`')[1] for x in v['applied']}
        assert 'f"{label}: {total} ({len(items)} values)"' in v['source']
        assert 'factor=3' in v['source']
    assert 'label' not in renamed and 'total' not in renamed  # in f-string
    assert 'factor' not in renamed       # passed by keyword somewhere
    assert 'count' in renamed            # nonlocal in inc: renamed in both
    assert 'step' in renamed or 'inc' in renamed
    # apply_twice forwards **kwargs: no parameter anywhere is renamed
    assert not renamed & {'fn', 'values', 'size', 'start', 'n', 'items'}


def test_rewrite_params_when_safe():
    r = dataset.Rewriter(GCD_BITCOUNT)
    renamed = set()
    for seed in range(200):
        v = r.variant('v', 8, None, seed)
        renamed |= {x['detail'].split('`')[1] for x in v['applied']}
    assert {'a', 'b', 'n', 'count', 'g', 'result'} <= renamed
    r2 = dataset.Rewriter(GCD_BITCOUNT, rename_params=False)
    assert r2.applicable()['v'] == 3      # count, g, result


def test_rewrite_no_renames_in_methods_params_or_decorated():
    r = dataset.Rewriter(DECORATED)
    names = {(c.func, c.name) for c in r._cands[None]}
    assert ('square', 'x') not in names and ('fib', 'n') not in names
    assert ('area', 'w') not in names and ('kind', 'self') not in names
    assert ('area', 'product') in names and ('total_area', 'total') in names
    assert ('total_area', 'w') in names


def test_rewrite_reorder_functions():
    r = dataset.Rewriter(MERGE_SORT)
    assert r.applicable()['r'] == 10          # 5 movable functions
    seen = set()
    for seed in range(50):
        v = r.variant('r', 2, None, seed, fault_line=16)
        src = v['source']
        assert sorted(src.split('\n')) == sorted(MERGE_SORT.split('\n'))
        assert src != MERGE_SORT
        assert src.split('\n')[v['fault_line'] - 1] == \
            MERGE_SORT.split('\n')[15]
        # the comment above load() travels with it
        lines = src.split('\n')
        k = lines.index('def load(size, capacity):')
        assert lines[k - 1] == '# the load factor of a table'
        assert run_probes(src, 'merge_sort') == run_probes(MERGE_SORT,
                                                           'merge_sort')
        assert len(v['applied']) == 2
        seen.add(src)
    assert len(seen) > 10
    # decorated functions and methods never move; THREADED has one run of
    # one function only
    assert dataset.Rewriter(DECORATED).applicable()['r'] == 0
    with pytest.raises(ValueError, match='r: no pair'):
        dataset.Rewriter(DECORATED).variant('r', 1, None, 0)


def test_rewrite_reorder_pure_decorators_only():
    src = ('import functools\n'
           'from contextlib import contextmanager as cm\n'
           '\n'
           '\n'
           '@functools.lru_cache(maxsize=None)\n'
           'def fib(n):\n'
           '    return n if n < 2 else fib(n - 1) + fib(n - 2)\n'
           '\n'
           '\n'
           '# a context\n'
           '@cm\n'
           'def ctx():\n'
           '    yield 1\n'
           '\n'
           '\n'
           'REGISTRY = []\n'
           '\n'
           '\n'
           'def register(f):\n'
           '    REGISTRY.append(f.__name__)\n'
           '    return f\n'
           '\n'
           '\n'
           '@register\n'
           'def h():\n'
           '    pass\n'
           '\n'
           '\n'
           '@register\n'
           'def k():\n'
           '    pass\n')
    r = dataset.Rewriter(src)
    assert [b[3] for b in r._blocks] == ['fib', 'ctx', 'register']
    assert r.applicable()['r'] == 1
    v = r.variant('r', 3, None, 0, fault_line=7)
    lines = v['source'].split('\n')
    assert lines[:4] + lines[13:] == src.split('\n')[:4] + \
        src.split('\n')[13:]
    assert lines[4:8] == ['# a context', '@cm', 'def ctx():', '    yield 1']
    assert lines[v['fault_line'] - 1] == src.split('\n')[6]
    assert len(v['applied']) == 1


def test_rewrite_slots_are_safe():
    src = ('from __future__ import annotations\n'
           '"""Not a docstring: after an import."""\n'
           'import functools\n'
           '\n'
           '\n'
           '@functools.lru_cache()\n'
           'def f(n):\n'
           '    """Doc."""\n'
           '    if n:\n'
           '        x = (1 +\n'
           '             2)\n'
           '    elif n is None:\n'
           '        x = 3\n'
           '    else:\n'
           '        x = 4\n'
           '    try:\n'
           '        y = x\n'
           '    except Exception:\n'
           '        y = 0\n'
           '    finally:\n'
           '        pass\n'
           '    return y\n')
    r = dataset.Rewriter(src)
    code = r._code_slots[None]
    assert 1 not in code and 7 not in code and 8 not in code
    assert 6 in code and 9 in code and 11 not in code
    assert 12 not in code and 14 not in code and 18 not in code
    assert 8 in r._comment_slots[None] and 1 in r._comment_slots[None]
    for seed in range(300):
        v = r.variant('c,d', 8, None, seed)
        assert compiles(v['source'])
        g = {}
        exec(v['source'], g)
        assert g['f'](1) == 3 and g['f'](0) == 4 and g['f'](None) == 3
        assert g['f'].__wrapped__.__doc__ == 'Doc.'


def _contract(src, fault, seeds, comps_for_seed):
    clean = dataset.Rewriter(src)
    faulty = dataset.Rewriter(fault['source'])
    line = fault['line']
    checked = 0
    for seed in seeds:
        q = [None, 1, 2, 3, 4][seed % 5]
        for ops in comps_for_seed(seed):
            for strength in range(1, 9):
                try:
                    a = clean.variant(ops, strength, q, seed, line)
                except ValueError as e:
                    with pytest.raises(ValueError) as e2:
                        faulty.variant(ops, strength, q, seed, line)
                    assert str(e) == str(e2.value)
                    continue
                b = faulty.variant(ops, strength, q, seed, line)
                assert a['fault_line'] == b['fault_line']
                assert a['applied'] == b['applied']
                assert differing_lines(a['source'], b['source']) == \
                    [b['fault_line']], (fault, ops, strength, seed)
                checked += 1
    return checked


def _one_fault_per_kind(src):
    fs = dataset.faults(src)
    picks = []
    for kind in dataset.FAULT_KINDS:
        of_kind = [f for f in fs if f['kind'] == kind]
        if of_kind:
            picks.append(of_kind[len(of_kind) // 2])
    return picks


def test_rewrite_fault_contract_full():
    """Rewriting the clean and the faulty program with the same arguments
    gives outputs that differ on exactly the tracked fault line: one fault
    of each kind x 50 seeds (200 with LT_E2E_FULL=1, outside make test's
    time budget) x every composition x strengths 1..8 (the quarter cycles
    with the seed)."""
    seeds = 200 if os.environ.get('LT_E2E_FULL') == '1' else 50
    comps = compositions()
    picks = _one_fault_per_kind(MERGE_SORT)
    assert {f['kind'] for f in picks} == set(dataset.FAULT_KINDS)
    checked = 0
    for f in picks:
        checked += _contract(MERGE_SORT, f, range(seeds), lambda s: comps)
    assert checked > 300 * seeds
    print('contract checked on %d variant pairs' % checked)


@pytest.mark.parametrize('name', ['class', 'gcd', 'closures', 'decorated',
                                  'threaded', 'clashes'])
def test_rewrite_fault_contract_programs(name):
    comps = compositions()
    checked = 0
    seeds = 100 if os.environ.get('LT_E2E_FULL') == '1' else 50
    for f in _one_fault_per_kind(PROGRAMS[name]):
        checked += _contract(PROGRAMS[name], f, range(seeds),
                             lambda s: comps[s % 4::4])
    assert checked > 20 * seeds


def test_rewrite_faulty_variants_keep_the_fault():
    src = MERGE_SORT
    fs = [f for f in dataset.faults(src) if f['kind'] == 'OffByOne']
    f = fs[0]
    r = dataset.Rewriter(f['source'])
    for seed in range(50):
        v = r.variant('c,v,d', 4, None, seed, f['line'])
        assert compiles(v['source'])
        line = v['source'].split('\n')[v['fault_line'] - 1]
        # the faulty line, possibly with renamed variables
        assert line.strip().split()[0] == f['faulty_line'].strip().split()[0]


def test_vocab_validation():
    R = dataset.Rewriter
    with pytest.raises(ValueError, match="'2x'"):
        R(GCD_BITCOUNT, {'names': ['ok_name', '2x']})
    with pytest.raises(ValueError, match="'class'"):
        R(GCD_BITCOUNT, {'names': ['class']})
    with pytest.raises(ValueError, match="'match'"):
        R(GCD_BITCOUNT, {'names': ['match']})
    with pytest.raises(ValueError, match="'len'"):
        R(GCD_BITCOUNT, {'names': ['len']})
    with pytest.raises(ValueError, match='single line'):
        R(GCD_BITCOUNT, {'comments': ['two\nlines']})
    with pytest.raises(ValueError, match='empty'):
        R(GCD_BITCOUNT, {'comments': ['#   ']})
    with pytest.raises(ValueError, match='does not compile'):
        R(GCD_BITCOUNT, {'dead_code': ['if False x = 1']})
    with pytest.raises(ValueError, match='return'):
        R(GCD_BITCOUNT, {'dead_code': ['if False:\n    return 1']})
    with pytest.raises(ValueError, match='yield'):
        R(GCD_BITCOUNT, {'dead_code': ['if False:\n    yield 1']})
    with pytest.raises(ValueError, match='import'):
        R(GCD_BITCOUNT, {'dead_code': ['import os']})
    with pytest.raises(ValueError, match='outside loop|not valid'):
        R(GCD_BITCOUNT, {'dead_code': ['break']})
    with pytest.raises(ValueError, match="'list'"):
        R(GCD_BITCOUNT, {'dead_code': ['list = []']})
    with pytest.raises(ValueError, match='unknown key'):
        R(GCD_BITCOUNT, {'nams': []})
    with pytest.raises(ValueError, match='must be a list'):
        R(GCD_BITCOUNT, {'names': 'abc'})
    with pytest.raises(ValueError):
        R(GCD_BITCOUNT, ['names'])


def test_vocab_is_used():
    vocab = {'names': ['sorted_result', 'count', 'max_heap'],
             'comments': ['# compute the median', 'walk the tree'],
             'dead_code': ['if 2 < 1:\n    ghost = 1',
                           'unused_total = 0\nunused_total += 1',
                           'x = 1']}
    r = dataset.Rewriter(GCD_BITCOUNT, vocab)
    # 'count' and the snippet binding x... no: x is not in the program;
    # count is: skipped
    assert ('names', 'count', 'used by the program') in r.skipped
    assert r._rename_pool[:2] == ['sorted_result', 'max_heap']
    for seed in range(100):
        v = r.variant('c,v,d', 2, None, seed)
        src = v['source']
        assert compiles(src)
        g = {}
        exec(src, g)
        assert g['gcd'](12, 18) == 6 and g['bitcount'](7) == 3
        for x in v['applied']:
            if x['op'] == 'v':
                assert x['detail'].split('`')[3] in ('sorted_result',
                                                     'max_heap')
            if x['op'] == 'c':
                assert x['detail'] in ('# compute the median',
                                       '# walk the tree')
        assert ('if 2 < 1:' in src or 'if False:' in src)
        assert 'unused_total = 0' not in src or \
            'if False:\n' in src
    # a snippet that is not already dead is wrapped in `if False:`
    assert dataset._check_dead('x = 1')[0] == ['if False:', '    x = 1']
    assert dataset._check_dead('if 2 < 1:\n  y = 2')[0] == \
        ['if 2 < 1:', '  y = 2']
    assert dataset._check_dead('while 0 > 1:\n  y = 2')[0][0] == \
        'while 0 > 1:'
    assert dataset._check_dead('if True:\n  y = 2')[0][0] == 'if False:'
    # a snippet binding a program name is skipped
    r2 = dataset.Rewriter(GCD_BITCOUNT, {'dead_code': ['count = 3']})
    assert r2.skipped and r2._vdead is None


def test_variant_argument_validation():
    r = dataset.Rewriter(GCD_BITCOUNT)
    for bad in ('', 'x', 'c,,z'):
        with pytest.raises(ValueError):
            r.variant(bad, 1)
    for s in (0, 9, 1.5, True):
        with pytest.raises(ValueError):
            r.variant('c', s)
    with pytest.raises(ValueError):
        r.variant('c', 1, 5)
    with pytest.raises(ValueError):
        r.variant('c', 1, None, 0, 999)
    assert r.variant('c,d', 1, None, 3) == r.variant('cd', 1, None, 3)
    assert r.variant('c', 1, None, 3) == r.variant('c', 1, None, 3)
    with pytest.raises(ValueError):
        dataset.Rewriter('def f(:\n')


def test_crlf_and_no_trailing_newline():
    src = 'def f(a):\r\n    b = a + 1\r\n    return b'
    r = dataset.Rewriter(src)
    for seed in range(30):
        v = r.variant('c,v,d', 3, None, seed, 2)
        assert compiles(v['source'])
        assert '\n' not in v['source'].replace('\r\n', '')
        assert not v['source'].endswith('\n')
        g = {}
        exec(v['source'], g)
        assert g['f'](1) == 2
    assert dataset.typed_mutants(src)
    for f in dataset.faults(src):
        assert compiles(f['source'])


def _corpus(count, lo=80, hi=400):
    import glob
    files = []
    for fn in sorted(glob.glob(os.path.join(os.path.dirname(os.__file__),
                                            '*.py'))):
        try:
            with open(fn, encoding='utf-8') as fh:
                src = fh.read()
        except (OSError, UnicodeDecodeError):
            continue
        if lo <= src.count('\n') <= hi:
            files.append((fn, src))
    random.Random(3).shuffle(files)
    return files[:count]


def test_corpus_stdlib():
    """Real code: every variant and fault compiles, the contract holds."""
    import warnings
    files = _corpus(25)
    assert len(files) >= 10
    rng = random.Random(11)
    comps = compositions()
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        for fn, src in files:
            try:
                r = dataset.Rewriter(src)
            except ValueError:
                continue
            for seed in range(12):
                try:
                    v = r.variant(rng.choice(comps), rng.randint(1, 8),
                                  rng.choice([None, 1, 2, 3, 4]), seed)
                except ValueError:
                    continue
                compile(v['source'], fn, 'exec')
            fs = dataset.faults(src)
            for f in rng.sample(fs, min(2, len(fs))):
                assert differing_lines(src, f['source']) == [f['line']]
                _contract(src, f, range(3), lambda s: rng.sample(comps, 2))


def test_speed():
    src = CLASS_PROGRAM
    assert 50 <= dataset._count_lines(src) <= 70
    r = dataset.Rewriter(src)
    t = time.perf_counter()
    for seed in range(5000):
        r.variant('c,v,d', 2, None, seed)
    dt = time.perf_counter() - t
    rate = 5000 / dt
    print('rewrite: %d variants/s (%.3f s for 5000, %d-line program)'
          % (rate, dt, dataset._count_lines(src)))
    assert dt < 2.0
