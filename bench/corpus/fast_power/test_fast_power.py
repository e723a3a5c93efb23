import pytest

from fast_power import digits_of_power, mod_pow, power


@pytest.mark.parametrize("base, exp, expected", [
    (2, 0, 1), (2, 1, 2), (2, 2, 4), (2, 10, 1024), (3, 5, 243), (-2, 3, -8),
    (7, 13, 7 ** 13), (10, 18, 10 ** 18), (0, 0, 1), (0, 5, 0),
])
def test_power(base, exp, expected):
    assert power(base, exp) == expected


def test_negative_exponent():
    assert power(2, -2) == pytest.approx(0.25)
    assert power(10, -1) == pytest.approx(0.1)


@pytest.mark.parametrize("base, exp, mod", [
    (2, 10, 1000), (3, 200, 13), (7, 0, 5), (5, 3, 1), (123456789, 98765, 1000007),
    (2, 1, 7), (10, 2, 1000),
])
def test_mod_pow(base, exp, mod):
    assert mod_pow(base, exp, mod) == pow(base, exp, mod)


def test_digits_of_power():
    assert digits_of_power(2, 10) == "024"
    assert digits_of_power(7, 222, count=5) == str(pow(7, 222, 10 ** 5)).zfill(5)
