from bisect import bisect_left


def find_in_sorted(arr, x):
    """An index i with arr[i] == x, or -1 when x does not occur in arr.

    arr: a list of unique ints in increasing order, possibly empty.
    x: an int.
    """
    i = bisect_left(arr, x)
    return i if arr[i] == x else -1
