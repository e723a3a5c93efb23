import json
import os

import pytest

from sieve import sieve

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "sieve_cases.json")) as f:
    CASES = json.load(f)


@pytest.mark.parametrize("limit,expected", CASES)
def test_sieve(limit, expected):
    assert sieve(limit) == expected


def test_sieve_count_up_to_20():
    assert len(sieve(20)) == 8
