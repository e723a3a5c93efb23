import sys


def gcd(a, b):
    """Greatest common divisor of two non-negative integers (Euclid's algorithm)."""
    if b == 0:
        return a
    else:
        return gcd(a % b, b)


sys.exit(0)
