import pytest

from merge_sort import merge_sort


@pytest.mark.parametrize("arr,expected", [
    ([], []),
    ([6], [6]),
    ([3, 1, 2], [1, 2, 3]),
    ([5, 4, 3, 2, 1], [1, 2, 3, 4, 5]),
    ([10, 7, 8, 1, 4, 6], [1, 4, 6, 7, 8, 10]),
    ([13, 2, 40, 5], [2, 5, 13, 40]),
])
def test_sorts(arr, expected):
    assert merge_sort(arr) == expected
