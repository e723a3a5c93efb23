import json
import os

import pytest

from knapsack import knapsack

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "knapsack_cases.json")) as f:
    CASES = json.load(f)


@pytest.mark.parametrize("capacity,items,expected", CASES)
def test_knapsack(capacity, items, expected):
    assert knapsack(capacity, [tuple(item) for item in items]) == expected


def test_each_item_once():
    assert knapsack(10, [(3, 10), (9, 5)]) == 10
