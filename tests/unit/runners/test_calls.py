# Tests of runners/calls.py's comparison and differential run, outside a
# zygote (a stand-in `_litmus` module keeps the records): results are
# compared with the tests' `==`, so a result equal to the reference's but
# of another type (3.0 for 3, True for 1) is a note, never a witness,
# while a different value, a tuple for a list, or a float that lost an
# int's digits still is.
#   /usr/bin/python3 -m pytest tests/unit/runners/test_calls.py
# SPDX-License-Identifier: MIT
import base64
import json
import os
import pickle
import sys
import types

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.environ.get(
    'LT_RUNNERS_DIR', os.path.join(HERE, '..', '..', '..', 'runners')))
import inputs  # noqa: E402

RECORDS = []
_litmus = types.ModuleType('_litmus')
_litmus.record = RECORDS.append
_litmus.probe = lambda index, phase: None
_litmus.equal_to_anything = lambda v: False
_litmus.send_call = lambda blob: None


def _tamper(why):
    raise AssertionError('tamper: ' + why)


_litmus.tamper = _tamper
sys.modules['_litmus'] = _litmus
sys.modules['litmus_inputs'] = inputs
import calls  # noqa: E402


# --- compare ---------------------------------------------------------------

@pytest.mark.parametrize('a,b,note', [
    (3, 3.0, 'int 3 vs float 3.0'),
    (True, 1, 'bool True vs int 1'),
    ([1, 2], [1, 2.0], 'int 2 vs float 2.0'),
    ({'a': (0, 1)}, {'a': (0.0, 1)}, 'int 0 vs float 0.0'),
    ({1, 2}, frozenset({1, 2}), 'set vs frozenset'),
])
def test_equal_in_all_but_type(a, b, note):
    assert calls.compare(a, b) == (True, note)


@pytest.mark.parametrize('a,b', [
    (3, 3), (0.1 + 0.2, 0.3), ([1, 'a'], [1, 'a']), ({'k': [1]}, {'k': [1]}),
])
def test_equal(a, b):
    assert calls.compare(a, b) == (True, None)


@pytest.mark.parametrize('a,b', [
    (3, 4), (3, 3.5), ((1, 2), [1, 2]), (None, 0), ('1', 1), (b'a', 'a'),
    # A float that has lost an int's last digits: no rounding tolerance
    # between an int and a float.
    (10 ** 18 + 1, float(10 ** 18)),
    ([1, 2], [1, 2, 3]), ({'a': 1}, {'a': 1, 'b': 2}),
])
def test_different(a, b):
    assert calls.compare(a, b)[0] is False


def test_a_class_of_the_candidate_cannot_claim_equality():
    class Anything:
        def __eq__(self, other):
            return True
        __hash__ = None
    assert calls.compare(3, Anything())[0] is False
    assert calls.compare([1], [Anything()])[0] is False


# --- the differential run --------------------------------------------------

REFERENCE = '''
def mean(xs):
    """The mean of a non-empty list of numbers."""
    total = 0
    for x in xs:
        total += x
    return total // len(xs) if total % len(xs) == 0 else total / len(xs)
'''

# Always a float: 3.0 where the reference gives 3, equal as the tests see it.
AS_FLOAT = '''
def mean(xs):
    """The mean of a non-empty list of numbers."""
    return sum(xs) / len(xs)
'''

# Wrong on lists longer than two.
WRONG = '''
def mean(xs):
    """The mean of a non-empty list of numbers."""
    return (xs[0] + xs[-1]) / 2
'''

AS_TUPLE = '''
def pairs(xs):
    return tuple(xs)
'''

AS_LIST = '''
def pairs(xs):
    return list(xs)
'''


def run_diff(reference, candidate, calls_made, budget=0.5):
    del RECORDS[:]
    job = {'kind': 'diff', 'path': '/nowhere/subject.py', 'module': 'subject',
           'reference': reference, 'candidate': candidate,
           'captured': [base64.b64encode(pickle.dumps(c, protocol=4)).decode()
                        for c in calls_made],
           'captured_origin': ['test'] * len(calls_made),
           'budget': budget, 'generate': False}
    calls.diff_main(job)
    return [json.loads(r) for r in RECORDS]


def of_type(records, kind):
    return [r for r in records if r['type'] == kind]


def test_type_only_difference_is_a_note():
    recs = run_diff(REFERENCE, AS_FLOAT, [('mean', ([2, 4],), {}),
                                          ('mean', ([1, 2],), {})])
    assert not of_type(recs, 'witness'), recs
    (td,) = of_type(recs, 'type_difference')
    assert td['difference'] == 'int 3 vs float 3.0', td
    assert td['function'] == 'mean' and td['origin'] == 'test', td
    assert td['reference']['type'] == 'int', td
    assert td['candidate']['type'] == 'float', td
    assert of_type(recs, 'summary')[0]['compared'] > 2


def test_a_value_difference_is_still_a_witness():
    recs = run_diff(REFERENCE, WRONG, [('mean', ([2, 4],), {}),
                                       ('mean', ([1, 2],), {})])
    (w,) = of_type(recs, 'witness')
    assert w['origin'] == 'derived', w
    assert not of_type(recs, 'type_difference'), recs


def test_a_tuple_for_a_list_is_a_witness():
    recs = run_diff(AS_LIST, AS_TUPLE, [('pairs', ([1, 2],), {})])
    (w,) = of_type(recs, 'witness')
    assert w['reference']['type'] == 'list', w
    assert w['candidate']['type'] == 'tuple', w


# --- the derived inputs' turns ---------------------------------------------

LCS = '''
def lcs_length(a, b):
    if not a or not b:
        return 0
    if a[0] == b[0]:
        return 1 + lcs_length(a[1:], b[1:])
    return max(lcs_length(a[1:], b), lcs_length(a, b[1:]))
'''

# Keeps b whole on a match: wrong only when a character of a repeats.
LCS_KEEPS_B = LCS.replace('1 + lcs_length(a[1:], b[1:])',
                          '1 + lcs_length(a[1:], b)')


def test_small_inputs_variants_are_not_starved_by_exponential_ones():
    # Two long disjoint strings make most of their variants exponential;
    # the difference is a few turns deep in the variants of the small
    # inputs ("abb" for "ab").  Turns are paid in CPU time, so the small
    # inputs' variants still come within the budget.
    tests = [('ab', 'xab'), ('abc', 'abc'), ('house', 'mouse'), ('abcd', 'bd'),
             ('pqrstuvwx', 'abcdefghi'), ('abcdefghij', 'klmnopqrst')]
    recs = run_diff(LCS, LCS_KEEPS_B,
                    [('lcs_length', t, {}) for t in tests], budget=1.0)
    (w,) = of_type(recs, 'witness')
    assert w['origin'] == 'derived', w
