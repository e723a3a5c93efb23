"""Deliberately weak suite: small inputs only, helpers barely checked."""
from heap_sort import heap_sort, heapify, is_max_heap


def test_sorts_small_list():
    assert heap_sort([3, 1, 2]) == [1, 2, 3]


def test_empty():
    assert heap_sort([]) == []


def test_heapify_gives_heap():
    assert is_max_heap(heapify([1, 2, 3]))
