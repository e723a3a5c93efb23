import pytest

from prime_factors import prime_factors


@pytest.mark.parametrize("n,expected", [
    (2, [2]),
    (13, [13]),
    (12, [2, 2, 3]),
    (49, [7, 7]),
    (100, [2, 2, 5, 5]),
    (1001, [7, 11, 13]),
])
def test_prime_factors(n, expected):
    assert prime_factors(n) == expected
