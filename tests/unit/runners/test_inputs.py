# Tests of runners/inputs.py, the differential layer's inputs: the
# contract inferred from the tests' inputs (signs kept position by
# position inside nested containers), the derived inputs' relation step
# (two arguments brought to a boundary) and the hypothesis strategies
# under the contract.
#   /usr/bin/python3 -m pytest tests/unit/runners/test_inputs.py
# SPDX-License-Identifier: MIT
import collections
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.environ.get(
    'LT_RUNNERS_DIR', os.path.join(HERE, '..', '..', '..', 'runners')))
import inputs  # noqa: E402

KNAPSACK_DOC = ('knapsack(capacity, items) items: list of (weight, value) '
                'pairs with positive integer weights.')


def shapes_of(samples):
    shapes = [inputs.Shape() for _ in range(max(len(s) for s in samples))]
    for s in samples:
        for i, a in enumerate(s):
            shapes[i].add(a)
    return shapes


def contract(samples, doc='', params=()):
    return inputs.Contract(shapes_of(samples), samples, None, doc, params)


# --- the contract inside nested containers --------------------------------

def test_tuple_fields_position_by_position():
    # Weights always positive, values of both signs: the weights keep
    # their rule (merged with the values, no rule held).
    samples = [(10, [(5, 10), (4, 0), (6, -3)]), (7, [(2, 3), (3, -4)]),
               (3, [(1, 1)])]
    c = contract(samples, KNAPSACK_DOC, ('capacity', 'items'))
    assert 'field 1 of the elements of argument 2 > 0' in c.describe()
    assert not any('field 2' in r for r in c.describe()), c.describe()
    assert not c.ok((5, [(-1, 1)]))
    assert not c.ok((5, [(0, 1)]))
    assert c.ok((5, [(1, -1)]))
    assert c.ok((5, [(2, 7), (1, 0)]))


def test_all_positive_pairs_reject_a_negative_element():
    samples = [(10, [(5, 10), (4, 40), (6, 30)]), (7, [(2, 3), (3, 4)]),
               (3, [(1, 1)])]
    c = contract(samples, KNAPSACK_DOC, ('capacity', 'items'))
    assert not c.ok((5, [(-1, 1)]))
    assert not c.ok((5, [(1, -1)]))
    assert c.ok((5, [(1, 1), (2, 9)]))


def test_nested_three_levels():
    doc = 'm: a list of matrices of positive ints'
    samples = [([[[1, 2]]],), ([[[1]], [[3, 4]]],), ([[[2, 3]]],)]
    c = contract(samples, doc, ('m',))
    assert not c.ok(([[[-1, 1]]],)), c.describe()
    assert c.ok(([[[5, 1]]],))


def test_elements_need_the_documentation():
    # Small positive test lists are positive by chance: no rule without
    # the documentation (unchanged).
    samples = [(10, [(5, 10), (4, 40)]), (7, [(2, 3)]), (3, [(1, 1)])]
    c = contract(samples, 'items: list of (weight, value) pairs.',
                 ('capacity', 'items'))
    assert c.ok((5, [(-1, 1)]))


def test_tuples_of_several_lengths_are_not_records():
    doc = 'xs: tuples of positive ints'
    samples = [([(1, 2), (3, 4, 5)],), ([(1,)],), ([(2, 3)],)]
    c = contract(samples, doc, ('xs',))
    assert 'the elements of the elements of argument 1 > 0' in c.describe()
    assert not c.ok(([(1, -1)],))


# --- derived inputs: two arguments at a boundary ---------------------------

def related(args):
    return list(inputs._related(args))


def test_text_as_long_as_its_width():
    got = related(('hello', 7))
    assert ('hello', 5) in got          # the width at the text's length
    assert ('hello', 4) in got and ('hello', 6) in got
    assert ('hellohe', 7) in got        # the text grown to the width
    got = related((3, 'abcdef'))
    assert (6, 'abcdef') in got and ('abc' in [s for _, s in got])


def test_index_at_a_length():
    got = related(([4, 5, 6], 1))
    assert ([4, 5, 6], 3) in got and ([4, 5, 6], 2) in got
    assert ([4], 1) in got


def test_two_ints_equal_and_one_apart():
    got = related((3, 9))
    for pair in [(3, 3), (9, 9), (9, 3), (3, 4), (3, 2), (10, 9), (8, 9)]:
        assert pair in got, (pair, got)


def test_relation_step_comes_first():
    shapes = shapes_of([('hello', 7)])
    first = list(inputs.derive(('hello', 7), shapes, set()))[:2]
    assert first[0] == ('hello', 5), first


def test_a_variant_equal_but_of_other_element_types_is_kept():
    import collections
    inputs.PACKAGE[0] = True
    try:
        out = inputs.variants(({'foo': 'bar'}, 201), None, set())
    finally:
        inputs.PACKAGE[0] = False
    assert any(type(v[0]) is collections.OrderedDict for v in out
               if type(v) is tuple and v), out
    assert inputs._same_value(({'a': 1}, 2), ({'a': 1}, 2))
    assert not inputs._same_value([1], [1.0])


def test_every_argument_empty_at_once_comes_second():
    shapes = shapes_of([(1, 2, 'ab')])
    got = list(inputs.derive((1, 2, 'ab'), shapes, set()))
    assert got[1] == (0, 0, ''), got[:3]
    # One argument, or an argument with no empty value: one change at a
    # time already covers it, or there is no such input.
    assert (0,) not in list(inputs.derive((1,), shapes_of([(1,)]), set()))[:1]
    assert inputs._all_empty((1, None)) is None
    assert inputs._all_empty((0, 'a')) is None
    assert inputs._all_empty(([1], {'a': 1})) == ([], {})


# --- hypothesis strategies under the contract ------------------------------

hypothesis = pytest.importorskip('hypothesis')


def draws(strategy, n=300):
    out = []

    @hypothesis.settings(max_examples=n, database=None, derandomize=True,
                         suppress_health_check=list(hypothesis.HealthCheck))
    @hypothesis.given(strategy)
    def collect(v):
        out.append(v)
    collect()
    return out


def test_generated_records_keep_their_fields_and_signs():
    import hypothesis.strategies as st
    samples = [(10, [(5, 10), (4, 40), (6, 30)]), (7, [(2, 3), (3, 4)]),
               (3, [(1, 1)])]
    shapes = shapes_of(samples)
    c = contract(samples, KNAPSACK_DOC, ('capacity', 'items'))
    s = inputs.strategy(st, shapes[1], set(), rules=c.describe(),
                        name='argument 2')
    got = draws(s)
    assert any(got)
    for items in got:
        for it in items:
            assert type(it) is tuple and len(it) == 2, items
            assert it[0] > 0 and it[1] > 0, items
        assert c.ok((5, items)), items


# --- iterators the tests pass ---------------------------------------------

def test_iterator_varied_as_its_items():
    it = iter(range(4))
    out = inputs.variants(it, None, set())
    lists = [list(x) for x in out]
    assert [] in lists and [0, 1, 2, 3, 4] in lists and [3, 2, 1, 0] in lists
    assert all(type(x) is type(iter([])) for x in out)
    # The tests' own iterator is left as it was.
    assert list(it) == [0, 1, 2, 3]


def test_iterator_that_cannot_be_copied_has_no_variant():
    gen = (x for x in range(3))
    assert inputs.variants(gen, None, set()) == []


def test_a_repository_files_lists_are_also_tried_as_iterators_and_with_none():
    inputs.PACKAGE[0] = True
    try:
        out = inputs.variants([1, 2], None, set())
    finally:
        inputs.PACKAGE[0] = False
    assert [None, 1, 2] in out and [1, None, 2] in out
    # The other sequence type, and nothing as other empty sequences.
    assert (1, 2) in out and range(0) not in out
    inputs.PACKAGE[0] = True
    try:
        empty = inputs.variants([], None, set())
    finally:
        inputs.PACKAGE[0] = False
    assert () in empty and range(0) in empty and '' in empty
    its = [list(v) for v in out if isinstance(v, type(iter([])))]
    assert its == [[1, 2], []]
    # And without end: a lazy function's input.
    (endless,) = [v for v in out if isinstance(v, inputs.Endless)]
    import itertools
    import pickle
    assert list(itertools.islice(endless, 5)) == [1, 2, 1, 2, 1]
    copy = pickle.loads(pickle.dumps(endless))
    assert next(copy) == 2 and repr(copy) == 'itertools.cycle([1, 2])'
    # A single file's program keeps to the tests' element types.
    assert [None, 1, 2] not in inputs.variants([1, 2], None, set())


def test_object_walk_runs_no_override_of_a_half_built_container():
    # A multi-dict whose keys() needs an attribute its __init__ sets: a
    # copy made without __init__ lacks it.  The walk reads the built-in
    # dict's items and never calls the override.
    class Multi(dict):
        def keys(self):
            return [k for k in self.root]

    half = Multi.__new__(Multi)
    dict.__setitem__(half, 'a', [1])
    assert inputs._children(half) == ['a', [1]]
    assert inputs._has_cycle(half) is False


def test_a_repository_files_ranges_and_callbacks_have_neighbours():
    inputs.PACKAGE[0] = True
    try:
        out = inputs.variants(range(3), None, set())
        callbacks = inputs.variants(len, None, set())
    finally:
        inputs.PACKAGE[0] = False
    assert range(-1, 3) in out and range(0) in out and [0, 1, 2] in out
    assert [(c.after, c.error) for c in callbacks] == [
        (0, inputs.CallbackError), (1, inputs.CallbackError),
        (3, inputs.CallbackError), (0, inputs.CallbackValueError)]
    fails_second = callbacks[1]

    # A function the tests pass: also of other signatures, and as a
    # partial, each calling it with what it gets.
    def factory(**kwargs):
        return sorted(kwargs)
    inputs.PACKAGE[0] = True
    try:
        forms = inputs.variants(factory, None, set())
    finally:
        inputs.PACKAGE[0] = False
    import functools
    import inspect
    kinds = [[p.kind for p in inspect.signature(f).parameters.values()]
             for f in forms if not isinstance(f, inputs.Raising)]
    assert [inspect.Parameter.VAR_KEYWORD] in kinds
    assert [inspect.Parameter.VAR_POSITIONAL] in kinds
    assert any(isinstance(f, functools.partial) for f in forms)
    for f in forms:
        if isinstance(f, inputs.Raising) or \
                list(inspect.signature(f).parameters) == ['values']:
            continue
        assert f(b=1, a=2) == ['a', 'b'], f
    assert fails_second('ab') == 2
    with pytest.raises(inputs.CallbackError):
        fails_second('ab')
    # A single file's program keeps to the tests' types.
    assert inputs.variants(range(3), None, set()) == []
    assert inputs.variants(len, None, set()) == []


def test_a_repository_files_sets_are_also_tried_as_lists_and_tuples():
    inputs.PACKAGE[0] = True
    try:
        out = inputs.variants({'b', 'a'}, None, set())
    finally:
        inputs.PACKAGE[0] = False
    assert ['a', 'b'] in out and ('a', 'b') in out
    assert ['a', 'b'] not in inputs.variants({'b', 'a'}, None, set())


class _Session(dict):
    """A mapping that marks itself on each write, as a web session."""

    def __init__(self, *a):
        super().__init__(*a)
        self.modified = False
        self.accessed = True

    def __setitem__(self, k, v):
        self.modified = True
        super().__setitem__(k, v)


def test_a_repository_files_container_subclass_is_emptied_keeping_its_state():
    s = _Session({'user': 1, 'theme': 'dark'})
    inputs.PACKAGE[0] = True
    try:
        out = inputs.variants(s, None, set())
    finally:
        inputs.PACKAGE[0] = False
    assert out and all(type(x) is _Session for x in out)
    assert dict(out[0]) == {}
    # Its own state is as it was: no write hook ran on the copies.
    assert all(x.modified is False and x.accessed is True for x in out)
    assert {'theme': 'dark'} in [dict(x) for x in out]
    assert dict(s) == {'user': 1, 'theme': 'dark'} and not s.modified
    # A single file's program keeps to the tests' values; a builtin's
    # subclass with C state of its own is left alone.
    assert inputs.variants(s, None, set()) == []
    inputs.PACKAGE[0] = True
    try:
        assert not inputs._state_container(collections.OrderedDict(a=1))
        assert not inputs._state_container(collections.defaultdict(int))
    finally:
        inputs.PACKAGE[0] = False


def test_a_repository_files_two_days_are_also_moments_of_those_days():
    import datetime as dt
    day = dt.date(2020, 1, 1)
    inputs.PACKAGE[0] = True
    try:
        got = list(inputs._related((day, day, 1)))
    finally:
        inputs.PACKAGE[0] = False
    assert (dt.datetime(2020, 1, 1, 8), dt.datetime(2020, 1, 1, 20), 1) in got
    assert (dt.datetime(2020, 1, 1, 20), dt.datetime(2020, 1, 1, 8), 1) in got
    # Datetimes stay as they are, and a single file's dates too.
    moments = (dt.datetime(2020, 1, 1, 9), dt.datetime(2020, 1, 2, 9))
    inputs.PACKAGE[0] = True
    try:
        assert all(type(x) is dt.datetime and x.hour == 9
                   for t in inputs._related(moments) for x in t)
    finally:
        inputs.PACKAGE[0] = False
    assert not any(isinstance(x, dt.datetime)
                   for t in inputs._related((day, day)) for x in t)


def test_a_text_that_reads_as_a_number_has_the_other_sign_early():
    # A filter given "1e10000" must also be tried on "-1e10000".
    out = inputs.variants('1e10000', None, ())
    assert '-1e10000' in out[:3], out[:5]
    assert '3' in inputs.variants('-3', None, ())[:3]
    assert not any(x.startswith('-') for x in inputs.variants('abc', None,
                                                              ())[:3])


def test_an_iterator_item_is_never_repeated_as_the_same_stream():
    # (it, it) would be one stream read twice, not two equal arguments.
    it = iter('ab')
    out = inputs.variants((it, iter('cd')), None, ())
    for v in out:
        if isinstance(v, tuple):
            ids = [id(x) for x in v if iter(x) is x]
            assert len(ids) == len(set(ids)), v
    assert any(isinstance(v, tuple) and len(v) == 1 for v in out)
    # Nor as two arguments made equal.
    a, b = iter('ab'), iter('cd')
    for args in inputs.derive((a, b), [inputs.Shape(), inputs.Shape()], ()):
        assert not (args[0] is args[1] and iter(args[0]) is args[0]), args


def test_a_packages_text_has_its_words_in_punctuation():
    # A handle in parentheses, an address in angle brackets: where a
    # parser strips punctuation before deciding.
    assert '(@a@b)' not in inputs.variants('@a@b', None, ())
    inputs.PACKAGE[0] = True
    try:
        got = inputs.variants('x@y.z\n@a@b\n', None, ())
    finally:
        inputs.PACKAGE[0] = False
    assert '(x@y.z)\n(@a@b)\n' in got and '<x@y.z>\n<@a@b>\n' in got


def test_two_integers_of_a_package_meet_as_a_value_and_its_width():
    assert inputs._width_variants(3, 2) == [(4, 2), (32, 5), (31, 5)]
    assert inputs._width_variants(-1, 2) == []
    assert inputs._width_variants(5, 100) == []
    inputs.PACKAGE[0] = True
    try:
        assert (4, 2) in inputs._pair_variants(3, 2)
    finally:
        inputs.PACKAGE[0] = False
    assert (4, 2) not in inputs._pair_variants(3, 2)


def test_a_packages_text_keys_and_blanks_have_other_white_space():
    inputs.PACKAGE[0] = True
    try:
        got = inputs.variants({'a b': 1, 'c': 2}, None, ())
        text = inputs.variants('a b', None, ())
    finally:
        inputs.PACKAGE[0] = False
    assert {'a\tb': 1, 'c': 2} in got and {'A B': 1, 'c': 2} in got
    assert {'a b': 1, 'C': 2} in got
    assert 'a\tb' in text and 'a\nb' in text
    assert {'a\tb': 1, 'c': 2} not in inputs.variants({'a b': 1, 'c': 2},
                                                       None, ())


def test_a_power_of_a_units_step_gets_the_next_power_and_one_below():
    # 1024 ** 4 bytes: the next unit's boundary and just below it.
    got = inputs.variants(1024 ** 4, None, ())
    assert 1024 ** 5 in got and 1024 ** 5 - 1 in got
    assert -(1024 ** 2) in inputs.variants(-1024, None, ())
    assert 999 in inputs.variants(100, None, ())
    # Small counts get no huge next power; other numbers none at all.
    assert inputs._next_powers(64) == [128, 127]
    assert inputs._next_powers(3) == [] and inputs._next_powers(1) == []
    assert all(abs(x) < 10 ** 6 for x in inputs.variants(512, None, ()))


def test_a_packages_text_is_also_a_list_of_two_such_texts():
    # A setting that holds several paths: the tested one path, twice.
    inputs.PACKAGE[0] = True
    try:
        got = inputs.variants('/a/b.py', None, ())
    finally:
        inputs.PACKAGE[0] = False
    assert '/a/b.py' + os.pathsep + '/a/b.py' in got
    assert '/a/b.py,/a/b.py' in got
    assert '/a/b.py,/a/b.py' not in inputs.variants('/a/b.py', None, ())


def test_a_packages_text_has_two_of_its_words_joined():
    # Two addresses on two lines: one word holding both "@"s, early.
    inputs.PACKAGE[0] = True
    try:
        got = inputs.variants('a@b.xyz\n@c@d.social\n', None, ())
    finally:
        inputs.PACKAGE[0] = False
    assert 'a@b.xyz@c@d.social\n' in got[:16]


def test_a_packages_list_is_also_a_user_list():
    import collections
    inputs.PACKAGE[0] = True
    try:
        got = inputs.variants([1, 2], None, ())
    finally:
        inputs.PACKAGE[0] = False
    assert any(type(x) is collections.UserList and x.data == [1, 2]
               for x in got)


def test_a_float_gets_a_small_step_either_side():
    # A test on a boundary (a factor of exactly 1.0) and a fix that moved
    # it (every factor below 1.01 refused) differ just past it only.
    vs = inputs.variants(1.0, None, ())
    assert any(1.0 < v < 1.01 for v in vs)
    assert any(0.99 < v < 1.0 for v in vs)
    # The step grows with the value: still a neighbour, not the same one.
    big = inputs.variants(5000.0, None, ())
    assert 5005.0 in big and 4995.0 in big


def test_a_stand_in_forwards_everything_but_its_class():
    class Member:
        def __init__(self):
            self.name = 'GREEN'
            self.items = [1, 2]

        def label(self):
            return self.name.lower()

        def __str__(self):
            return 'Color.GREEN'

    m = Member()
    (s,) = inputs.forwarding(m)
    # What a program that duck-types reads, the object's own answers ...
    assert s.name == 'GREEN' and s.label() == 'green'
    assert str(s) == 'Color.GREEN' and f'{s}' == 'Color.GREEN'
    assert repr(s) == repr(m) and s == m and hash(s) == hash(m)
    s.name = 'RED'     # set on the object itself
    assert m.name == 'RED'
    (items,) = inputs.forwarding(collections.UserList([1, 2]))
    assert len(items) == 2 and list(items) == [1, 2] and 2 in items
    assert items[0] == 1 and bool(items)
    # ... and not its class: a program that tests it sees another object.
    assert not isinstance(s, Member) and type(s) is inputs.Forwarding
    # Plain values, classes, functions, modules and stand-ins get none.
    for v in (None, 1, 'x', [1], Member, len, os, s, lambda: 0):
        assert inputs.forwarding(v) == []
