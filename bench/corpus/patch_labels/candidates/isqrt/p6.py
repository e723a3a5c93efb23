def isqrt(n):
    """The integer square root of n: the largest int r with r * r <= n.

    n: a non-negative int, of any size.
    """
    remainder, root = n, 0
    bit = 1
    while bit * 4 <= n:
        bit *= 4
    while bit:
        if remainder >= root + bit:
            remainder -= root + bit
            root = (root >> 1) + bit
        else:
            root >>= 1
        bit >>= 2
    return root
