def isqrt(n):
    """The integer square root of n: the largest int r with r * r <= n.

    n: a non-negative int, of any size.
    """
    lo, hi = 0, n
    answer = 0
    while lo <= hi:
        mid = (lo + hi) // 2
        if mid * mid <= n:
            answer = mid
            lo = mid + 1
        else:
            hi = mid - 1
    return answer
