import pytest

from counting_sort import counting_sort


@pytest.mark.parametrize("arr,k,expected", [
    ([3, 1, 2], 4, [1, 2, 3]),
    ([5, 9, 4, 7], 10, [4, 5, 7, 9]),
    ([7, 2, 5, 4], 8, [2, 4, 5, 7]),
    ([6, 3], 7, [3, 6]),
    ([1], 2, [1]),
])
def test_counting_sort(arr, k, expected):
    assert counting_sort(arr, k) == expected
