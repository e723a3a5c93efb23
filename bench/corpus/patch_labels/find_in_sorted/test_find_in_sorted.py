import pytest

from find_in_sorted import find_in_sorted


@pytest.mark.parametrize("arr,x,expected", [
    ([1, 3, 5, 7, 9], 7, 3),
    ([1, 3, 5, 7, 9], 3, 1),
    ([2, 4, 6, 8], 2, 0),
    ([10], 10, 0),
    ([1, 3, 5, 7, 9], 4, -1),
    ([2, 4, 6, 8], 5, -1),
])
def test_find(arr, x, expected):
    assert find_in_sorted(arr, x) == expected
