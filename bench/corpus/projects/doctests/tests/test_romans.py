import pytest

from romans import from_roman, to_roman


def test_round_trip():
    for n in range(1, 4000):
        assert from_roman(to_roman(n)) == n


@pytest.mark.parametrize("bad", ["", "ABC", "IC", "VV"])
def test_rejects(bad):
    with pytest.raises(ValueError):
        from_roman(bad)
