import json
import os

import pytest

from next_permutation import next_permutation

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "next_permutation_cases.json")) as f:
    CASES = json.load(f)


@pytest.mark.parametrize("perm,expected", CASES)
def test_next_permutation(perm, expected):
    assert next_permutation(perm) == expected


def test_input_not_modified():
    perm = [1, 2, 3]
    next_permutation(perm)
    assert perm == [1, 2, 3]
