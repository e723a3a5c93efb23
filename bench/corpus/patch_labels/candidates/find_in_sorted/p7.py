import bisect


def find_in_sorted(arr, x):
    """An index i with arr[i] == x, or -1 when x does not occur in arr.

    arr: a list of unique ints in increasing order, possibly empty.
    x: an int.
    """
    pos = bisect.bisect_left(arr, x)
    if pos < len(arr) and arr[pos] == x:
        return pos
    return -1
