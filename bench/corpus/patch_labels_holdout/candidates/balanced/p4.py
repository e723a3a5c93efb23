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
    if not parens:
        return True
    if parens[0] != "(" or parens[-1] != ")":
        return False
    return parens.count("(") == parens.count(")")
