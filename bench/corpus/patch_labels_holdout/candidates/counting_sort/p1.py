def counting_sort(arr, k):
    """
    Counting Sort

    Input:
        arr: a list of ints, each x with 0 <= x < k; possibly empty; values
            may repeat. It is not modified.
        k: an int >= 1, the bound on the values

    Output:
        A new list holding the elements of arr in ascending order.

    Example:
        >>> counting_sort([3, 1, 3, 0], 4)
        [0, 1, 3, 3]
    """
    return sorted(arr)
