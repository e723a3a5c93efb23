"""Deliberately weak suite: a few is_palindrome cases, one longest_palindrome."""
import pytest

from palindromes import is_palindrome, longest_palindrome


@pytest.mark.parametrize("text", ["racecar", "A man, a plan, a canal: Panama!", ""],
                         ids=["word", "sentence", "empty"])
def test_palindromes(text):
    assert is_palindrome(text)


def test_not_palindrome():
    assert not is_palindrome("python")


def test_longest():
    assert longest_palindrome("forgeeksskeegfor") == "geeksskeeg"
