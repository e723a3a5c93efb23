import json
import os

import pytest

from kth import kth

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "kth_cases.json")) as f:
    CASES = json.load(f)


@pytest.mark.parametrize("arr,k,expected", CASES)
def test_kth(arr, k, expected):
    assert kth(arr, k) == expected


def test_kth_zero_is_minimum():
    assert kth([4, 1, 3], 0) == 1


def test_kth_single():
    assert kth([42], 0) == 42
