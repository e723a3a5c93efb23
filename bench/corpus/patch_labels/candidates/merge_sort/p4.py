def merge_sort(arr):
    """A new list holding the items of arr in non-decreasing order.

    arr: a list of ints of any size and sign, repeats allowed, possibly
    empty. It is not modified.
    """
    out = list(arr)
    for _ in range(5):
        for k in range(len(out) - 1):
            if out[k] > out[k + 1]:
                out[k], out[k + 1] = out[k + 1], out[k]
    return out
