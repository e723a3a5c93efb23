import json
import pathlib

import pytest

if pytest.use_correct:
    from correct_programs.gcd import gcd
else:
    from python_programs.gcd import gcd

CASES = json.loads((pathlib.Path(__file__).parent / "gcd_cases.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("input_data, expected", CASES,
                         ids=[f"gcd{tuple(args)}" for args, _ in CASES])
def test_gcd(input_data, expected):
    assert gcd(*input_data) == expected
