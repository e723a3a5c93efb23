import pytest

from sieve import is_prime, prime_factors, sieve

PRIMES_UNDER_100 = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61,
                    67, 71, 73, 79, 83, 89, 97]


@pytest.fixture(scope="module")
def primes_1000():
    return sieve(1000)


@pytest.mark.parametrize("limit, expected", [
    (-5, []), (0, []), (1, []), (2, [2]), (3, [2, 3]), (4, [2, 3]), (10, [2, 3, 5, 7]),
    (25, [2, 3, 5, 7, 11, 13, 17, 19, 23]), (100, PRIMES_UNDER_100),
])
def test_sieve(limit, expected):
    assert sieve(limit) == expected


def test_sieve_count(primes_1000):
    assert len(primes_1000) == 168
    assert primes_1000[-1] == 997


def test_is_prime_agrees_with_sieve(primes_1000):
    assert [n for n in range(1001) if is_prime(n)] == primes_1000


@pytest.mark.parametrize("n, factors", [
    (1, []), (2, [2]), (12, [2, 2, 3]), (97, [97]), (360, [2, 2, 2, 3, 3, 5]),
    (1001, [7, 11, 13]), (2 ** 10, [2] * 10), (999983 * 2, [2, 999983]),
])
def test_prime_factors(n, factors):
    assert prime_factors(n) == factors
