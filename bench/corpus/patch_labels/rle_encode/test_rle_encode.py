import pytest

from rle_encode import rle_encode


@pytest.mark.parametrize("text,expected", [
    ("aaabcc", "3a1b2c"),
    ("abc", "1a1b1c"),
    ("zzzz", "4z"),
    ("x", "1x"),
    ("aabbaa", "2a2b2a"),
    ("hello world", "1h1e2l1o1 1w1o1r1l1d"),
])
def test_encode(text, expected):
    assert rle_encode(text) == expected
