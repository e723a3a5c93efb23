import pytest

from word_stats import (LETTER_VALUES, SCRABBLE, STOPWORDS, VOWELS, best_word,
                        content_words, scrabble_score, vowel_ratio, word_value,
                        words)


def test_stopwords():
    assert STOPWORDS == {"the", "a", "an", "and", "or", "of", "to", "in", "is"}


def test_letter_values_table():
    assert len(LETTER_VALUES) == 26
    assert (LETTER_VALUES["a"], LETTER_VALUES["m"], LETTER_VALUES["z"]) == (1, 13, 26)


def test_vowels():
    assert VOWELS == set("aeiou")


def test_scrabble_table():
    assert len(SCRABBLE) == 26
    assert [SCRABBLE[c] for c in "adbfkjq"] == [1, 2, 3, 4, 5, 8, 10]


def test_words_strip_punctuation():
    assert words("Hello, world! -- It's 'quoted'.") == ["hello", "world", "it's", "quoted"]


def test_content_words():
    assert content_words("The cat and a Dog of the house") == ["cat", "dog", "house"]


@pytest.mark.parametrize("word, value", [("abc", 6), ("Zz", 52), ("a-b", 3), ("", 0)])
def test_word_value(word, value):
    assert word_value(word) == value


def test_vowel_ratio():
    assert vowel_ratio("banana") == 0.5
    assert vowel_ratio("rhythm") == 0.0
    assert vowel_ratio("A1e!") == 1.0
    assert vowel_ratio("123") == 0.0


@pytest.mark.parametrize("word, score", [("quiz", 22), ("Jukebox", 27), ("tea", 3), ("", 0)])
def test_scrabble_score(word, score):
    assert scrabble_score(word) == score


def test_best_word():
    assert best_word("The quiz of a lazy fox") == "quiz"
    assert best_word("cat bat") == "cat"
    assert best_word("the and of") is None
