import json
import os

import pytest

from quicksort import quicksort

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "quicksort_cases.json")) as f:
    CASES = json.load(f)


@pytest.mark.parametrize("arr,expected", CASES)
def test_quicksort(arr, expected):
    assert quicksort(arr) == expected


def test_keeps_length():
    data = [4, 4, 4, 4]
    assert len(quicksort(data)) == len(data)
