def bitcount(n):
    """Number of 1 bits in the binary representation of a non-negative integer n."""
    ones = 0
    while n:
        ones += n & 1
        n >>= 1
    return ones
