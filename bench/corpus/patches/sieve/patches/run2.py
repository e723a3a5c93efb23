def sieve(max):
    """All primes p with 2 <= p <= max, in increasing order."""
    primes = []  # primes found so far
    for n in range(2, max + 1):
        # n is prime when no smaller prime divides it
        if all(n % p > 0 for p in primes):
            primes.append(n)
    return primes
