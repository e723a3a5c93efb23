def rotate_left(arr, k):
    """Rotate arr left by k places, in place: the item at index i moves to
    index (i - k) mod len(arr). Returns None.

    arr: a list of ints, possibly empty (then nothing happens).
    k: a non-negative int; it may be larger than len(arr).
    """
    arr[:] = arr[k:] + arr[:k]
