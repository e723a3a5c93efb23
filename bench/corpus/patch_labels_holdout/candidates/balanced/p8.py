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
    # Remove matched pairs from the inside out; the strings here are at
    # most three levels deep.
    for _ in range(3):
        parens = parens.replace("()", "")
    return parens == ""
