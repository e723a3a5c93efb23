import pytest

from slugkit import fold, slugify, unique_slug


def test_fold_drops_accents():
    assert fold("Crème brûlée") == "Creme brulee"
    assert fold("日本") == ""


def test_slugify_basic():
    assert slugify("Hello, World!") == "hello-world"
    assert slugify("  many   spaces__and--dashes ") == "many-spaces-and-dashes"


def test_slugify_custom_separator():
    assert slugify("a b c", sep="_") == "a_b_c"


def test_slugify_cuts_at_word_boundary():
    assert slugify("the quick brown fox", max_length=15) == "the-quick-brown"
    assert slugify("the quick brown fox", max_length=14) == "the-quick"


def test_slugify_long_single_word_is_truncated():
    assert slugify("Supercalifragilistic", max_length=5) == "super"


def test_slugify_rejects_zero_length():
    with pytest.raises(ValueError):
        slugify("x", max_length=0)


def test_slugify_empty():
    assert slugify("!!!") == ""


def test_unique_slug():
    assert unique_slug("Post", set()) == "post"
    assert unique_slug("Post", {"post"}) == "post-2"
    assert unique_slug("Post", {"post", "post-2", "post-3"}) == "post-4"


def test_unique_slug_keeps_limit():
    got = unique_slug("abcdef", {"abcdef"}, max_length=6)
    assert got == "abcd-2"
