import pytest

from next_permutation import next_permutation


@pytest.mark.parametrize("perm,expected", [
    ([1, 2, 3], [1, 3, 2]),
    ([1, 3, 2], [2, 1, 3]),
    ([2, 5, 4, 3], [3, 2, 4, 5]),
    ([4, 1, 3, 2], [4, 2, 1, 3]),
])
def test_next(perm, expected):
    assert next_permutation(perm) == expected


@pytest.mark.parametrize("perm", [[3, 2, 1], [5]])
def test_last_permutation(perm):
    assert next_permutation(perm) is None
