"""Word statistics whose lookup tables are built by module-level
comprehensions at import time."""
import string

STOPWORDS = frozenset(w.lower() for w in "The A An And Or Of To In Is".split())
LETTER_VALUES = {ch: i + 1 for i, ch in enumerate(string.ascii_lowercase)}
VOWELS = {ch for ch in "aeiou"}
SCRABBLE = {ch: score for score, letters in [(1, "aeilnorstu"), (2, "dg"),
                                             (3, "bcmp"), (4, "fhvwy"),
                                             (5, "k"), (8, "jx"), (10, "qz")]
            for ch in letters}


def words(text):
    """Lower-case words of text, punctuation stripped."""
    out = []
    for raw in text.split():
        w = raw.strip(string.punctuation).lower()
        if w:
            out.append(w)
    return out


def content_words(text):
    return [w for w in words(text) if w not in STOPWORDS]


def word_value(word):
    """Sum of letter positions (a=1 ... z=26); other characters count 0."""
    return sum(LETTER_VALUES.get(ch, 0) for ch in word.lower())


def vowel_ratio(word):
    letters = [ch for ch in word.lower() if ch.isalpha()]
    if not letters:
        return 0.0
    return sum(ch in VOWELS for ch in letters) / len(letters)


def scrabble_score(word):
    return sum(SCRABBLE.get(ch, 0) for ch in word.lower())


def best_word(text):
    """The content word with the highest Scrabble score (first on ties)."""
    best = None
    for w in content_words(text):
        if best is None or scrabble_score(w) > scrabble_score(best):
            best = w
    return best
