import json
import os

import pytest

from levenshtein import levenshtein

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "levenshtein_cases.json")) as f:
    CASES = json.load(f)


@pytest.mark.parametrize("source,target,expected", CASES)
def test_levenshtein(source, target, expected):
    assert levenshtein(source, target) == expected


def test_symmetric_on_disjoint():
    assert levenshtein("ab", "cde") == levenshtein("cde", "ab") == 3
