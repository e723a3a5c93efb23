def sieve(limit):
    """All primes p with 2 <= p <= max, in increasing order."""
    composite = [False] * (limit + 1)
    primes = []
    for n in range(2, limit + 1):
        if not composite[n]:
            primes.append(n)
            for multiple in range(n * n, limit + 1, n):
                composite[multiple] = True
    return primes
