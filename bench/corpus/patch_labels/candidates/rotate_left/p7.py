from math import gcd


def rotate_left(arr, k):
    """Rotate arr left by k places, in place: the item at index i moves to
    index (i - k) mod len(arr). Returns None.

    arr: a list of ints, possibly empty (then nothing happens).
    k: a non-negative int; it may be larger than len(arr).
    """
    n = len(arr)
    if not n:
        return None
    k %= n
    for start in range(gcd(n, k)):
        temp = arr[start]
        i = start
        while True:
            j = (i + k) % n
            if j == start:
                break
            arr[i] = arr[j]
            i = j
        arr[i] = temp
    return None
