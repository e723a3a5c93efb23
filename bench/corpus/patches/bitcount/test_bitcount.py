import json
import os

import pytest

from bitcount import bitcount

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "bitcount_cases.json")) as f:
    CASES = json.load(f)


@pytest.mark.parametrize("n,expected", CASES)
def test_bitcount(n, expected):
    assert bitcount(n) == expected
