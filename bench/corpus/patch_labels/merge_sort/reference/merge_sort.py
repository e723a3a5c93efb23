def merge_sort(arr):
    """A new list holding the items of arr in non-decreasing order.

    arr: a list of ints of any size and sign, repeats allowed, possibly
    empty. It is not modified.
    """
    if len(arr) < 2:
        return list(arr)
    middle = len(arr) // 2
    left = merge_sort(arr[:middle])
    right = merge_sort(arr[middle:])
    merged = []
    while left and right:
        if right[0] < left[0]:
            merged.append(right.pop(0))
        else:
            merged.append(left.pop(0))
    return merged + left + right
