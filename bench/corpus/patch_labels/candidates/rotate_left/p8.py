def rotate_left(arr, k):
    """Rotate arr left by k places, in place: the item at index i moves to
    index (i - k) mod len(arr). Returns None.

    arr: a list of ints, possibly empty (then nothing happens).
    k: a non-negative int; it may be larger than len(arr).
    """
    n = len(arr)
    if n:
        rotated = [arr[(i + k) % n] for i in range(n)]
        arr[:] = rotated
