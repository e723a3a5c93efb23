def prime_factors(n):
    """
    Prime Factorization

    Input:
        n: an int >= 1 (no upper bound)

    Output:
        A list of the prime factors of n in ascending order, each repeated
        as often as it divides n, so that their product is n.
        prime_factors(1) == [].

    Example:
        >>> prime_factors(60)
        [2, 2, 3, 5]
    """
    factors = []
    d = 2
    while d * d < n:
        while n % d == 0:
            factors.append(d)
            n //= d
        d += 1
    if n > 1:
        factors.append(n)
    return factors
