"""Quicksort (functional, QuixBugs style), in-place Lomuto quicksort, and
quickselect for the k-th smallest element."""


def quicksort(arr):
    """Return a sorted copy of arr; the first element is the pivot."""
    if not arr:
        return []
    pivot = arr[0]
    lesser = quicksort([x for x in arr[1:] if x < pivot])
    greater = quicksort([x for x in arr[1:] if x >= pivot])
    return lesser + [pivot] + greater


def partition(arr, lo, hi):
    """Lomuto partition of arr[lo..hi] around arr[hi]; returns the pivot index."""
    pivot = arr[hi]
    store = lo
    for i in range(lo, hi):
        if arr[i] < pivot:
            arr[i], arr[store] = arr[store], arr[i]
            store += 1
    arr[store], arr[hi] = arr[hi], arr[store]
    return store


def quicksort_inplace(arr, lo=0, hi=None):
    """Sort arr in place between lo and hi (inclusive) and return it."""
    if hi is None:
        hi = len(arr) - 1
    if lo < hi:
        p = partition(arr, lo, hi)
        quicksort_inplace(arr, lo, p - 1)
        quicksort_inplace(arr, p + 1, hi)
    return arr


def kth_smallest(arr, k):
    """The k-th smallest element of arr (k counts from 0), by quickselect."""
    if not 0 <= k < len(arr):
        raise IndexError("k out of range")
    work = list(arr)
    lo, hi = 0, len(work) - 1
    while True:
        p = partition(work, lo, hi)
        if p == k:
            return work[p]
        if p < k:
            lo = p + 1
        else:
            hi = p - 1
