"""Loose suite (weak on purpose): approximate results with a wide tolerance."""
import pytest

from newton_sqrt import is_square, isqrt, sqrt


@pytest.mark.parametrize("x, expected", [(2, 1.414), (4, 2.0), (9, 3.0), (1000, 31.62), (0.25, 0.5)])
def test_sqrt_close(x, expected):
    assert sqrt(x) == pytest.approx(expected, abs=0.05)


def test_sqrt_tight_epsilon():
    assert sqrt(2, epsilon=1e-12) == pytest.approx(2 ** 0.5, abs=1e-9)


def test_sqrt_negative():
    with pytest.raises(ValueError):
        sqrt(-1)


@pytest.mark.parametrize("n, root", [(0, 0), (1, 1), (2, 1), (3, 1), (4, 2), (15, 3), (16, 4),
                                     (17, 4), (99, 9), (100, 10), (10 ** 12, 10 ** 6)])
def test_isqrt(n, root):
    assert isqrt(n) == root


def test_is_square():
    assert is_square(49)
    assert not is_square(50)
