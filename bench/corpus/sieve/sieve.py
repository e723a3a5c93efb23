"""Prime numbers: sieve of Eratosthenes, trial division, factorisation."""


def sieve(limit):
    """All primes <= limit, in increasing order."""
    if limit < 2:
        return []
    is_prime = [True] * (limit + 1)
    is_prime[0] = is_prime[1] = False
    p = 2
    while p * p <= limit:
        if is_prime[p]:
            for multiple in range(p * p, limit + 1, p):
                is_prime[multiple] = False
        p += 1
    return [n for n, flag in enumerate(is_prime) if flag]


def is_prime(n):
    """Primality by trial division with 6k +/- 1 candidates."""
    if n < 2:
        return False
    if n < 4:
        return True
    if n % 2 == 0 or n % 3 == 0:
        return False
    k = 5
    while k * k <= n:
        if n % k == 0 or n % (k + 2) == 0:
            return False
        k += 6
    return True


def prime_factors(n):
    """Prime factors of n >= 1 in increasing order, with multiplicity."""
    factors = []
    d = 2
    while d * d <= n:
        while n % d == 0:
            factors.append(d)
            n //= d
        d += 1
    if n > 1:
        factors.append(n)
    return factors
