import json
import os

import pytest

from max_sublist_sum import max_sublist_sum

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "max_sublist_sum_cases.json")) as f:
    CASES = json.load(f)


@pytest.mark.parametrize("arr,expected", CASES)
def test_max_sublist_sum(arr, expected):
    assert max_sublist_sum(arr) == expected
