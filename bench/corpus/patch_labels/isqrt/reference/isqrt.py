def isqrt(n):
    """The integer square root of n: the largest int r with r * r <= n.

    n: a non-negative int, of any size.
    """
    low, high = 0, n + 1
    while high - low > 1:
        middle = (low + high) // 2
        if middle * middle <= n:
            low = middle
        else:
            high = middle
    return low
