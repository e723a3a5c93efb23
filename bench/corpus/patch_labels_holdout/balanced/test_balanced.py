import pytest

from balanced import balanced


@pytest.mark.parametrize("parens", ["()", "(())()", "((()))", "()()()"])
def test_balanced(parens):
    assert balanced(parens) is True


@pytest.mark.parametrize("parens", [")(", "(()", "())", "((", "(()))"])
def test_unbalanced(parens):
    assert balanced(parens) is False
