"""Deliberately weak suite: lengths only, one trivial lcs() case, no substring test."""
from lcs import lcs, lcs_length


def test_length_classic():
    assert lcs_length("ABCBDAB", "BDCABA") == 4


def test_length_empty():
    assert lcs_length("", "abc") == 0


def test_lcs_identical():
    assert lcs("abc", "abc") == "abc"
