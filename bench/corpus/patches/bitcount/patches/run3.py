def bitcount(n):
    """Number of 1 bits in the binary representation of a non-negative integer n."""
    return (n & 1) + ((n >> 1) & 1) + ((n >> 2) & 1) + ((n >> 3) & 1)
