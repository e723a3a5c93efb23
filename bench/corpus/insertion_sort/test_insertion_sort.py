import pytest

from insertion_sort import count_inversions, insertion_sort, insertion_sort_by


@pytest.mark.parametrize(
    "data, expected",
    [
        ([], []),
        ([1], [1]),
        ([2, 1], [1, 2]),
        ([3, 1, 2], [1, 2, 3]),
        ([5, 4, 3, 2, 1], [1, 2, 3, 4, 5]),
        ([1, 2, 3, 4, 5], [1, 2, 3, 4, 5]),
        ([4, 1, 4, 2, 1], [1, 1, 2, 4, 4]),
        ([-3, 0, -7, 12, 5], [-7, -3, 0, 5, 12]),
        (["pear", "apple", "fig"], ["apple", "fig", "pear"]),
    ],
    ids=["empty", "single", "pair", "three", "reversed", "sorted", "duplicates",
         "negatives", "strings"],
)
def test_insertion_sort(data, expected):
    assert insertion_sort(data) == expected


def test_input_not_modified():
    data = [3, 2, 1]
    insertion_sort(data)
    assert data == [3, 2, 1]


def test_sort_by_is_stable():
    words = ["bb", "a", "cc", "d", "eee", "ff"]
    assert insertion_sort_by(words, len) == ["a", "d", "bb", "cc", "ff", "eee"]


def test_sort_by_key_function():
    people = [("ann", 31), ("bob", 25), ("cy", 40)]
    assert insertion_sort_by(people, key=lambda p: p[1]) == [
        ("bob", 25), ("ann", 31), ("cy", 40)]


@pytest.mark.parametrize(
    "data, inversions",
    [([], 0), ([1, 2, 3], 0), ([2, 1], 1), ([3, 2, 1], 3), ([2, 4, 1, 3, 5], 3),
     ([1, 1, 1], 0)],
    ids=lambda value: repr(value),
)
def test_count_inversions(data, inversions):
    assert count_inversions(data) == inversions
