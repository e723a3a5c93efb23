from itertools import accumulate


def balanced(parens):
    """
    Balanced Parentheses

    Input:
        parens: a string made of the characters '(' and ')' only, of any
            length, possibly empty.

    Output:
        True when the parentheses are properly nested: every ')' closes an
        earlier unclosed '(' and every '(' is closed. The empty string is
        balanced. False otherwise.
    """
    steps = [1 if ch == "(" else -1 for ch in parens]
    levels = list(accumulate(steps))
    return all(level >= 0 for level in levels) and sum(steps) == 0
