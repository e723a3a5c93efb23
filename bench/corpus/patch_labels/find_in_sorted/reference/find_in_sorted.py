def find_in_sorted(arr, x):
    """An index i with arr[i] == x, or -1 when x does not occur in arr.

    arr: a list of unique ints in increasing order, possibly empty.
    x: an int.
    """
    lo, hi = 0, len(arr)
    while lo < hi:
        mid = (lo + hi) // 2
        if arr[mid] < x:
            lo = mid + 1
        elif arr[mid] > x:
            hi = mid
        else:
            return mid
    return -1
