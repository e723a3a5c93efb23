import json
import pathlib

import pytest

from binary_search import bisect_left, bisect_right, count, find, find_in_sorted

CASES = json.loads(
    (pathlib.Path(__file__).parent / "binary_search_cases.json").read_text(encoding="utf-8"))
IDS = [case["id"] for case in CASES]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_bisect_left(case):
    assert bisect_left(case["arr"], case["x"]) == case["left"]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_bisect_right(case):
    assert bisect_right(case["arr"], case["x"]) == case["right"]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_find(case):
    assert find(case["arr"], case["x"]) == case["find"]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_count(case):
    assert count(case["arr"], case["x"]) == case["right"] - case["left"]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_find_in_sorted(case):
    index = find_in_sorted(case["arr"], case["x"])
    if case["find"] == -1:
        assert index == -1
    else:
        assert case["arr"][index] == case["x"]


def test_bisect_with_bounds():
    arr = [1, 2, 3, 4, 5, 6]
    assert bisect_left(arr, 1, lo=2) == 2
    assert bisect_left(arr, 6, hi=3) == 3
    assert bisect_right(arr, 4, 1, 5) == 4
