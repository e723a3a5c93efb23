import pytest

from rpn_eval import rpn_eval


@pytest.mark.parametrize("tokens,expected", [
    ([3, 4, "+"], 7),
    ([10, 4, "-"], 6),
    ([2, 3, 4, "*", "+"], 14),
    ([7, 2, "/"], 3.5),
    ([5, 1, 2, "+", 4, "*", "+", 3, "-"], 14),
    ([42], 42),
])
def test_rpn_eval(tokens, expected):
    assert rpn_eval(tokens) == expected
