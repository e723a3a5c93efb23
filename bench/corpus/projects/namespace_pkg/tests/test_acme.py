from acme.intervals import gaps, normalise, total_length
from acme.textstats import top_words, words


def test_normalise_merges_overlapping_and_touching():
    assert normalise([(5, 8), (1, 3), (2, 4), (8, 9)]) == [(1, 4), (5, 9)]


def test_normalise_drops_empty_and_keeps_contained():
    assert normalise([(3, 3), (1, 10), (2, 5)]) == [(1, 10)]


def test_total_length():
    assert total_length([(0, 4), (2, 6), (10, 11)]) == 7
    assert total_length([]) == 0


def test_gaps():
    assert gaps([(2, 4), (6, 7)], 0, 10) == [(0, 2), (4, 6), (7, 10)]
    assert gaps([(0, 10)], 0, 10) == []
    assert gaps([(-5, 1), (12, 20)], 0, 10) == [(1, 10)]


def test_words_handles_apostrophes():
    assert words("It's the dog's 'bone'.") == ["it's", "the", "dog's", "bone"]


def test_top_words_ties_alphabetical():
    text = "b a c b a d"
    assert top_words(text, 2) == [("a", 2), ("b", 2)]
    assert top_words("aa b aa b ccc", n=5, min_length=2) == [("aa", 2),
                                                             ("ccc", 1)]
