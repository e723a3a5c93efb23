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
    divisor = 2
    while n > 1:
        if divisor * divisor > n:
            factors.append(n)
            break
        if n % divisor:
            divisor += 1 if divisor == 2 else 2
        else:
            factors.append(divisor)
            n //= divisor
    return factors
