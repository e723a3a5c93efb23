import pytest

from to_base import to_base


@pytest.mark.parametrize("num,b,expected", [
    (31, 16, "1F"),
    (255, 16, "FF"),
    (6, 2, "110"),
    (100, 10, "100"),
    (64, 8, "100"),
    (5, 7, "5"),
])
def test_to_base(num, b, expected):
    assert to_base(num, b) == expected
