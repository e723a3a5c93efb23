def find_in_sorted(arr, x):
    """An index i with arr[i] == x, or -1 when x does not occur in arr.

    arr: a list of unique ints in increasing order, possibly empty.
    x: an int.
    """
    for index, value in enumerate(arr):
        if value == x:
            return index
        if value > x:
            break
    return -1
