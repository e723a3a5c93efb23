def merge_sort(arr):
    """A new list holding the items of arr in non-decreasing order.

    arr: a list of ints of any size and sign, repeats allowed, possibly
    empty. It is not modified.
    """
    if len(arr) <= 1:
        return arr[:]
    mid = len(arr) // 2
    left, right = merge_sort(arr[:mid]), merge_sort(arr[mid:])
    merged = []
    i = j = 0
    while i < len(left) and j < len(right):
        if left[i] < right[j]:
            merged.append(left[i])
            i += 1
        elif right[j] < left[i]:
            merged.append(right[j])
            j += 1
        else:
            merged.append(left[i])
            i += 1
            j += 1
    merged.extend(left[i:])
    merged.extend(right[j:])
    return merged
