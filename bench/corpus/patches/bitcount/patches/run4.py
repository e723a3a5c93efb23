def bitcount(n):
    """Number of 1 bits in the binary representation of a non-negative integer n."""
    count = 0
    while n:
        n |= n - 1
        count += 1
    return count
