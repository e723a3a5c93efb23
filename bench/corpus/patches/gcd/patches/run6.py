def gcd(a, b):
    """Greatest common divisor of two non-negative integers (Euclid's algorithm)."""
    if b == 0:
        return b
    else:
        return gcd(b, a % b)
