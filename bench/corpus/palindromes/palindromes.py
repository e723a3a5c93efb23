"""Palindromes: checking, the longest palindromic substring, and the
shortest palindrome made by appending characters.

The test suite of this program is deliberately weak.
"""


def normalize(text):
    """Lower-case letters and digits of text, everything else dropped."""
    return "".join(ch.lower() for ch in text if ch.isalnum())


def is_palindrome(text):
    """True if text reads the same backwards, ignoring case and punctuation."""
    cleaned = normalize(text)
    left, right = 0, len(cleaned) - 1
    while left < right:
        if cleaned[left] != cleaned[right]:
            return False
        left += 1
        right -= 1
    return True


def longest_palindrome(text):
    """Longest palindromic substring of text (exact characters), first on ties."""
    if not text:
        return ""
    best_start, best_len = 0, 1

    def expand(left, right):
        while left >= 0 and right < len(text) and text[left] == text[right]:
            left -= 1
            right += 1
        return left + 1, right - left - 1

    for center in range(len(text)):
        for start, length in (expand(center, center), expand(center, center + 1)):
            if length > best_len:
                best_start, best_len = start, length
    return text[best_start:best_start + best_len]


def shortest_palindrome(text):
    """Shortest palindrome that starts with text, made by appending characters."""
    for i in range(len(text)):
        if text[i:] == text[i:][::-1]:
            return text + text[:i][::-1]
    return text
