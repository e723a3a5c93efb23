import pytest

from is_subsequence import is_subsequence


@pytest.mark.parametrize("needle,haystack,expected", [
    ("ace", "abcde", True),
    ("aec", "abcde", False),
    ("abc", "abc", True),
    ("ab", "abc", True),
    ("xyz", "xy", False),
    ("dog", "hotdogs", True),
])
def test_is_subsequence(needle, haystack, expected):
    assert is_subsequence(needle, haystack) is expected
