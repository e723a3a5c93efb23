import pytest

from flatten import flatten


@pytest.mark.parametrize("arr,expected", [
    ([[1, [], [2, 3]], [[4]], 5], [1, 2, 3, 4, 5]),
    ([1, 2, 3], [1, 2, 3]),
    ([[[]], []], []),
    ([[7, [8]], 9, [[10, 11]]], [7, 8, 9, 10, 11]),
])
def test_flatten(arr, expected):
    assert list(flatten(arr)) == expected


def test_is_lazy():
    gen = flatten([1, [2]])
    assert next(gen) == 1
