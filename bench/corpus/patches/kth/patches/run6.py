def kth(arr, k):
    """The k-th smallest element (0-based) of the non-empty list arr, by quickselect."""
    pivot = arr[0]
    below = [x for x in arr if x < pivot
    above = [x for x in arr if x > pivot]

    num_less = len(below)
    num_lessoreq = len(arr) - len(above)

    if k < num_less:
        return kth(below, k)
    elif k >= num_lessoreq:
        return kth(above, k - num_lessoreq)
    else:
        return pivot
