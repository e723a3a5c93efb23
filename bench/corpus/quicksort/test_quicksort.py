import pytest

from quicksort import kth_smallest, partition, quicksort, quicksort_inplace

SORT_CASES = [
    ([], []),
    ([1], [1]),
    ([2, 1], [1, 2]),
    ([1, 2], [1, 2]),
    ([3, 1, 2], [1, 2, 3]),
    ([5, 2, 8, 1, 9, 3], [1, 2, 3, 5, 8, 9]),
    ([2, 2, 1, 1, 3, 3], [1, 1, 2, 2, 3, 3]),
    ([10, -4, 0, 7, -4], [-4, -4, 0, 7, 10]),
    (list(range(12, 0, -1)), list(range(1, 13))),
]
IDS = ["empty", "one", "two-rev", "two", "three", "six", "dups", "negatives", "descending"]


@pytest.mark.parametrize("data, expected", SORT_CASES, ids=IDS)
def test_quicksort(data, expected):
    assert quicksort(data) == expected


@pytest.mark.parametrize("data, expected", SORT_CASES, ids=IDS)
def test_quicksort_inplace(data, expected):
    work = list(data)
    assert quicksort_inplace(work) is work
    assert work == expected


def test_inplace_subrange():
    data = [9, 4, 3, 2, 1, 0]
    quicksort_inplace(data, 1, 4)
    assert data == [9, 1, 2, 3, 4, 0]


def test_partition_places_pivot():
    data = [7, 2, 9, 4, 5]
    p = partition(data, 0, 4)
    assert p == 2
    assert data[p] == 5
    assert all(x < 5 for x in data[:p])
    assert all(x >= 5 for x in data[p + 1:])


@pytest.mark.parametrize("k, expected", [(0, 1), (1, 2), (2, 3), (3, 5), (4, 8), (5, 9)])
def test_kth_smallest(k, expected):
    assert kth_smallest([5, 2, 8, 1, 9, 3], k) == expected


def test_kth_smallest_duplicates():
    assert [kth_smallest([3, 1, 3, 2], k) for k in range(4)] == [1, 2, 3, 3]


@pytest.mark.parametrize("k", [-1, 3])
def test_kth_smallest_out_of_range(k):
    with pytest.raises(IndexError):
        kth_smallest([1, 2, 3], k)
