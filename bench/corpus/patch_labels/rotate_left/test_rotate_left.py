import pytest

from rotate_left import rotate_left


@pytest.mark.parametrize("arr,k,expected", [
    ([1, 2, 3, 4, 5], 2, [3, 4, 5, 1, 2]),
    ([1, 2, 3, 4], 1, [2, 3, 4, 1]),
    ([6, 7, 8], 0, [6, 7, 8]),
    ([9, 8, 7, 6, 5], 3, [6, 5, 9, 8, 7]),
])
def test_rotates_in_place(arr, k, expected):
    assert rotate_left(arr, k) is None
    assert arr == expected


def test_single_item():
    arr = [4]
    rotate_left(arr, 1)
    assert arr == [4]
