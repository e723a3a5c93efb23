def isqrt(n):
    """The integer square root of n: the largest int r with r * r <= n.

    n: a non-negative int, of any size.
    """
    for r in range(1001):
        if (r + 1) * (r + 1) > n:
            return r
