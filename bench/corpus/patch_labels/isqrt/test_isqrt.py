import pytest

from isqrt import isqrt


@pytest.mark.parametrize("n,expected", [
    (0, 0),
    (1, 1),
    (15, 3),
    (16, 4),
    (99, 9),
    (1000000, 1000),
])
def test_isqrt(n, expected):
    assert isqrt(n) == expected
