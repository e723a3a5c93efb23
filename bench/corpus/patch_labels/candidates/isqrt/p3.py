def isqrt(n):
    """The integer square root of n: the largest int r with r * r <= n.

    n: a non-negative int, of any size.
    """
    if n < 2:
        return n
    # Newton's iteration on integers, from above
    x = n
    y = (x + 1) // 2
    while y < x:
        x = y
        y = (x + n // x) // 2
    return x
