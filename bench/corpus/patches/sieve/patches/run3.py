_PRIMES = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29]


def sieve(max):
    """All primes p with 2 <= p <= max, in increasing order."""
    return [p for p in _PRIMES if p <= max]
