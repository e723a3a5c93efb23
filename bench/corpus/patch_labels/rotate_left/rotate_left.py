def _flip(arr, first, last):
    """Reverse arr[first:last + 1] in place."""
    while first < last:
        arr[first], arr[last] = arr[last], arr[first]
        first += 1
        last -= 1


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
    _flip(arr, 0, k)
    _flip(arr, k, n - 1)
    _flip(arr, 0, n - 1)
    return None
