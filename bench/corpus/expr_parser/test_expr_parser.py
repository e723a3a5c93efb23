import pytest

from expr_parser import ParseError, evaluate, tokenize


def test_tokenize():
    assert tokenize(" 12 + (3.5*4)") == [
        ("NUM", 12), ("OP", "+"), ("OP", "("), ("NUM", 3.5), ("OP", "*"), ("NUM", 4),
        ("OP", ")"), ("END", None)]
    assert tokenize("   ") == [("END", None)]


@pytest.mark.parametrize("text, value", [
    ("42", 42),
    ("1 + 2", 3),
    ("7 - 10", -3),
    ("2 * 3 + 4", 10),
    ("2 + 3 * 4", 14),
    ("(2 + 3) * 4", 20),
    ("10 - 4 - 3", 3),
    ("12 / 4 / 3", 1),
    ("7 / 2", 3.5),
    ("-3 + 5", 2),
    ("--4", 4),
    ("2 ^ 3 ^ 2", 512),
    ("-2 ^ 2", -4),
    ("2 ^ -1", 0.5),
    ("1.5 * 4", 6.0),
    ("((1))", 1),
    ("  8 * (3 - (2 - 1)) ", 16),
], ids=["number", "add", "sub", "mul-first", "precedence", "parens", "left-assoc-sub",
        "left-assoc-div", "true-div", "unary-minus", "double-minus", "right-assoc-pow",
        "minus-binds-looser", "negative-exponent", "float", "nested-parens", "spaces"])
def test_evaluate(text, value):
    assert evaluate(text) == value


@pytest.mark.parametrize("text", ["", "1 +", "(1 + 2", "1 + 2)", "3 $ 4", "* 2", "1 2"],
                         ids=["empty", "dangling-op", "unclosed", "extra-close",
                              "bad-char", "leading-op", "two-numbers"])
def test_parse_errors(text):
    with pytest.raises(ParseError):
        evaluate(text)


def test_division_by_zero():
    with pytest.raises(ZeroDivisionError, match="division by zero"):
        evaluate("1 / (2 - 2)")


def test_error_message_names_character():
    with pytest.raises(ParseError, match=r"'\$' at 2"):
        tokenize("3 $ 4")
