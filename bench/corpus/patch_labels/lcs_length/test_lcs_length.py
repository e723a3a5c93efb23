import pytest

from lcs_length import lcs_length


@pytest.mark.parametrize("a,b,expected", [
    ("ab", "xab", 2),
    ("abc", "abc", 3),
    ("house", "mouse", 4),
    ("abcd", "bd", 2),
])
def test_common_subsequence(a, b, expected):
    assert lcs_length(a, b) == expected


def test_nothing_in_common():
    assert lcs_length("pqrstuvwxyz", "abcdefghijk") == 0


def test_long_strings_nothing_in_common():
    assert lcs_length("abcdefghijkl", "mnopqrstuvwx") == 0
