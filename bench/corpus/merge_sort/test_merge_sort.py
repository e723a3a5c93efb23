import json
import pathlib

import pytest

from merge_sort import merge, merge_sort, merge_sort_bottom_up

CASES = json.loads(
    (pathlib.Path(__file__).parent / "merge_sort_cases.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_merge_sort(case):
    assert merge_sort(case["input"]) == case["expected"]


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_merge_sort_bottom_up(case):
    assert merge_sort_bottom_up(case["input"]) == case["expected"]


def test_merge_basic():
    assert merge([1, 4, 9], [2, 3, 10, 11]) == [1, 2, 3, 4, 9, 10, 11]
    assert merge([], [1]) == [1]
    assert merge([1], []) == [1]


class Keyed:
    """Compares by key only, so ties are visible through the tag."""

    def __init__(self, key, tag):
        self.key, self.tag = key, tag

    def __le__(self, other):
        return self.key <= other.key

    def __lt__(self, other):
        return self.key < other.key


def test_merge_is_stable():
    merged = merge([Keyed(1, "a"), Keyed(2, "b")], [Keyed(1, "c"), Keyed(2, "d")])
    assert [item.tag for item in merged] == ["a", "c", "b", "d"]


def test_merge_sort_is_stable():
    items = [Keyed(2, "x"), Keyed(1, "y"), Keyed(2, "z"), Keyed(1, "w")]
    assert [item.tag for item in merge_sort(items)] == ["y", "w", "x", "z"]


def test_does_not_modify_input():
    data = [3, 1, 2]
    merge_sort(data)
    merge_sort_bottom_up(data)
    assert data == [3, 1, 2]
