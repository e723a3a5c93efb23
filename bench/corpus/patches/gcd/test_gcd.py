import json
import os

import pytest

from gcd import gcd

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "gcd_cases.json")) as f:
    CASES = json.load(f)


@pytest.mark.parametrize("a,b,expected", CASES)
def test_gcd_cases(a, b, expected):
    assert gcd(a, b) == expected


def test_gcd_with_zero():
    assert gcd(9, 0) == 9
