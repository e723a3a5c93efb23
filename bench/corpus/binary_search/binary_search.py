"""Binary search on sorted lists: bisect_left, bisect_right, find, count."""


def bisect_left(arr, x, lo=0, hi=None):
    """First index i in [lo, hi] such that arr[i] >= x (insertion point)."""
    if hi is None:
        hi = len(arr)
    while lo < hi:
        mid = (lo + hi) // 2
        if arr[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo


def bisect_right(arr, x, lo=0, hi=None):
    """First index i in [lo, hi] such that arr[i] > x."""
    if hi is None:
        hi = len(arr)
    while lo < hi:
        mid = (lo + hi) // 2
        if x < arr[mid]:
            hi = mid
        else:
            lo = mid + 1
    return lo


def find(arr, x):
    """Index of the first occurrence of x in sorted arr, or -1."""
    i = bisect_left(arr, x)
    if i < len(arr) and arr[i] == x:
        return i
    return -1


def count(arr, x):
    """How many times x occurs in sorted arr."""
    return bisect_right(arr, x) - bisect_left(arr, x)


def find_in_sorted(arr, x):
    """QuixBugs-style recursive search: any index of x in sorted arr, or -1."""

    def search(start, end):
        if start == end:
            return -1
        mid = start + (end - start) // 2
        if x < arr[mid]:
            return search(start, mid)
        elif x > arr[mid]:
            return search(mid + 1, end)
        else:
            return mid

    return search(0, len(arr))
