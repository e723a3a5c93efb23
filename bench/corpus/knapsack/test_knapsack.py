import json
import pathlib

import pytest

from knapsack import knapsack, knapsack_choice, unbounded_knapsack

CASES = json.loads(
    (pathlib.Path(__file__).parent / "knapsack_cases.json").read_text(encoding="utf-8"))
IDS = [case["id"] for case in CASES]


def as_items(case):
    return [tuple(item) for item in case["items"]]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_knapsack(case):
    assert knapsack(case["capacity"], as_items(case)) == case["best"]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_knapsack_choice(case):
    items = as_items(case)
    value, chosen = knapsack_choice(case["capacity"], items)
    assert value == case["best"]
    assert sum(items[i][0] for i in chosen) <= case["capacity"]
    assert sum(items[i][1] for i in chosen) == value
    assert len(set(chosen)) == len(chosen)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_unbounded(case):
    assert unbounded_knapsack(case["capacity"], as_items(case)) == case["unbounded"]


def test_choice_indices():
    assert knapsack_choice(50, [(10, 60), (20, 100), (30, 120)]) == (220, [1, 2])
