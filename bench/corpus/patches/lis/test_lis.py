import json
import os

import pytest

from lis import lis

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "lis_cases.json")) as f:
    CASES = json.load(f)


@pytest.mark.parametrize("arr,expected", CASES)
def test_lis(arr, expected):
    assert lis(arr) == expected
