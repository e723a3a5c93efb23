def isqrt(n):
    """The integer square root of n: the largest int r with r * r <= n.

    n: a non-negative int, of any size.
    """
    root = 0
    while (root + 1) * (root + 1) <= n:
        root += 1
    return root
