import json
import pathlib

import pytest

from edit_distance import closest, levenshtein, levenshtein_recursive, similarity

CASES = json.loads(
    (pathlib.Path(__file__).parent / "edit_distance_cases.json").read_text(encoding="utf-8"))
IDS = [case["id"] for case in CASES]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_levenshtein(case):
    assert levenshtein(case["source"], case["target"]) == case["distance"]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_symmetric(case):
    assert levenshtein(case["target"], case["source"]) == case["distance"]


@pytest.mark.parametrize(
    "case", [case for case in CASES if len(case["source"]) + len(case["target"]) <= 14],
    ids=lambda case: case["id"])
def test_recursive_agrees(case):
    assert levenshtein_recursive(case["source"], case["target"]) == case["distance"]


def test_similarity():
    assert similarity("", "") == 1.0
    assert similarity("abc", "abc") == 1.0
    assert similarity("abc", "xyz") == 0.0
    assert similarity("abcd", "abce") == pytest.approx(0.75)


def test_closest():
    assert closest("helo", ["world", "hello", "help"]) == "hello"
    assert closest("cat", ["hat", "bat"]) == "hat"
