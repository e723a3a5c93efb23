import pytest

from fibonacci import fibonacci


@pytest.mark.parametrize("n,expected", [
    (0, 0),
    (1, 1),
    (2, 1),
    (5, 5),
    (10, 55),
    (20, 6765),
])
def test_fibonacci(n, expected):
    assert fibonacci(n) == expected
