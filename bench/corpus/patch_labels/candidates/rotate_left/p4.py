def rotate_left(arr, k):
    """Rotate arr left by k places, in place: the item at index i moves to
    index (i - k) mod len(arr). Returns None.

    arr: a list of ints, possibly empty (then nothing happens).
    k: a non-negative int; it may be larger than len(arr).
    """
    n = len(arr)
    if n == 0:
        return None
    k %= n
    if k == 0:
        return None
    # juggling: move every item k places to the left along the cycle from 0
    start = 0
    saved = arr[start]
    i = start
    while True:
        j = (i + k) % n
        if j == start:
            break
        arr[i] = arr[j]
        i = j
    arr[i] = saved
    return None
