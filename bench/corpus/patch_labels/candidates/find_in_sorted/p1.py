def find_in_sorted(arr, x):
    """An index i with arr[i] == x, or -1 when x does not occur in arr.

    arr: a list of unique ints in increasing order, possibly empty.
    x: an int.
    """
    if x in arr:
        return arr.index(x)
    return -1
