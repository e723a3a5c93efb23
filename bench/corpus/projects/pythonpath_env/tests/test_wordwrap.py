import pytest

from wordwrap import fill, wrap


def test_wrap_greedy():
    assert wrap("the quick brown fox jumps", 10) == ["the quick", "brown fox",
                                                     "jumps"]


def test_wrap_exact_width_fits():
    assert wrap("abcd efgh", 9) == ["abcd efgh"]
    assert wrap("abcd efgh", 8) == ["abcd", "efgh"]


def test_wrap_hanging_indent():
    assert wrap("one two three four", 9, indent="  ") == ["one two", "  three",
                                                          "  four"]


def test_wrap_breaks_long_words():
    assert wrap("abcdefghij", 4) == ["abcd", "efgh", "ij"]
    assert wrap("hi abcdefgh", 4) == ["hi", "abcd", "efgh"]


def test_wrap_empty_and_bad_width():
    assert wrap("   ", 5) == []
    with pytest.raises(ValueError):
        wrap("x", 2, indent="  ")


def test_fill():
    assert fill("a b c", 3) == "a b\nc"
