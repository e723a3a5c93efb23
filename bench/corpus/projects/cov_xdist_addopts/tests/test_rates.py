import pytest

from shipping import parcel_rate, quote
from shipping.rates import billable_kg


def test_billable_weight_takes_the_larger():
    assert billable_kg(2, (10, 10, 10)) == 2
    assert billable_kg(2, (50, 40, 30)) == 12


@pytest.mark.parametrize("kg, cents", [(0.5, 500), (1, 500), (1.01, 900),
                                       (5, 900), (10, 1500), (30, 3200)])
def test_domestic_bands(kg, cents):
    assert parcel_rate(kg, "domestic") == cents


def test_zone_factor():
    assert parcel_rate(3, "eu") == 1440
    assert parcel_rate(3, "world") == 2250


def test_rate_rejects():
    with pytest.raises(KeyError):
        parcel_rate(1, "moon")
    with pytest.raises(ValueError):
        parcel_rate(0, "eu")
    with pytest.raises(ValueError, match="over 30 kg"):
        parcel_rate(30.5, "domestic")


def test_quote_surcharges():
    assert quote(1, (10, 10, 10), "domestic") == 500
    assert quote(1, (10, 10, 10), "domestic", fragile=True) == 750
    assert quote(1, (10, 10, 10), "domestic", fragile=True,
                 express=True) == 1125
