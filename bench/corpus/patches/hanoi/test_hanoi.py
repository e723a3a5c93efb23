import json
import os

import pytest

from hanoi import hanoi

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "hanoi_cases.json")) as f:
    CASES = json.load(f)


@pytest.mark.parametrize("height,start,end,expected", CASES)
def test_hanoi(height, start, end, expected):
    assert hanoi(height, start, end) == [tuple(move) for move in expected]


def test_default_pegs():
    assert hanoi(2) == [(1, 2), (1, 3), (2, 3)]
