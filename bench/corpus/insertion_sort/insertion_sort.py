"""Insertion sort: plain, keyed (stable), and an inversion counter.

Insertion sort grows a sorted prefix one item at a time, shifting every
larger item of the prefix one slot to the right.
"""


def insertion_sort(arr):
    """Return a new list with the items of arr in ascending order (stable)."""
    result = list(arr)
    for i in range(1, len(result)):
        key = result[i]
        j = i - 1
        while j >= 0 and result[j] > key:
            result[j + 1] = result[j]
            j -= 1
        result[j + 1] = key
    return result


def insertion_sort_by(arr, key):
    """Sort arr by key(item); items with equal keys keep their input order."""
    decorated = [(key(item), index, item) for index, item in enumerate(arr)]
    return [item for _, _, item in insertion_sort(decorated)]


def count_inversions(arr):
    """Number of pairs i < j with arr[i] > arr[j].

    This is exactly the number of single-slot shifts insertion sort makes.
    """
    shifts = 0
    work = list(arr)
    for i in range(1, len(work)):
        key = work[i]
        j = i - 1
        while j >= 0 and work[j] > key:
            work[j + 1] = work[j]
            j -= 1
            shifts += 1
        work[j + 1] = key
    return shifts
