def find_in_sorted(arr, x):
    """An index i with arr[i] == x, or -1 when x does not occur in arr.

    arr: a list of unique ints in increasing order, possibly empty.
    x: an int.
    """
    def search(lo, hi):
        if lo >= hi:
            return -1
        mid = (lo + hi) // 2
        if arr[mid] == x:
            return mid
        if arr[mid] < x:
            return search(mid + 1, hi)
        return search(lo, mid)

    return search(0, len(arr))
