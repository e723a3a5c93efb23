import pytest

from count_change import count_change


@pytest.mark.parametrize("total,coins,expected", [
    (4, [1, 2], 3),
    (10, [2, 3, 5], 4),
    (7, [2, 4], 0),
    (0, [3], 1),
    (100, [1, 5, 10, 25], 242),
])
def test_count_change(total, coins, expected):
    assert count_change(total, coins) == expected
