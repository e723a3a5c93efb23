def count_words(text):
    """Number of whitespace-separated words in text."""
    return len(text.split())


def count_lines(text):
    """Number of lines; a last line without a newline counts."""
    if not text:
        return 0
    n = text.count("\n")
    if not text.endswith("\n"):
        n += 1
    return n


def longest_word(text):
    """The longest word (the first of equals), or "" for no words."""
    best = ""
    for word in text.split():
        if len(word) > len(best):
            best = word
    return best
