"""Bit manipulation: population count (Kernighan), bit length, parity, reversal.

Mutants of bitcount() and bit_length() loop forever: `n &= n - 1` becomes
`n &= n + 1` (or `n - 2`), and `n > 0` becomes `n >= 0` or `n >>= 1`
becomes `n <<= 1`.
"""


def bitcount(n):
    """Number of 1 bits in the non-negative integer n."""
    if n < 0:
        raise ValueError("bitcount of a negative number")
    count = 0
    while n:
        n &= n - 1
        count += 1
    return count


def bit_length(n):
    """Number of bits needed to write the non-negative integer n."""
    length = 0
    while n > 0:
        n >>= 1
        length += 1
    return length


def parity(n):
    """1 if n has an odd number of 1 bits, else 0."""
    return bitcount(n) % 2


def reverse_bits(n, width=8):
    """Reverse the lowest `width` bits of n."""
    result = 0
    for _ in range(width):
        result = (result << 1) | (n & 1)
        n >>= 1
    return result


def is_power_of_two(n):
    """True for 1, 2, 4, 8, ..."""
    return n > 0 and n & (n - 1) == 0
