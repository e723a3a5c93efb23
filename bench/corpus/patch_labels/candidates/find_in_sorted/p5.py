def find_in_sorted(arr, x):
    """An index i with arr[i] == x, or -1 when x does not occur in arr.

    arr: a list of unique ints in increasing order, possibly empty.
    x: an int.
    """
    first, last = 0, len(arr) - 1
    while first <= last:
        middle = (first + last) // 2
        if arr[middle] == x:
            return middle
        if arr[middle] < x:
            first = middle + 1
        else:
            last = middle - 1
    return -1
