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
    open_count = 0
    for ch in parens:
        if ch == "(":
            open_count += 1
        elif ch == ")":
            if open_count == 0:
                return False
            open_count -= 1
    return open_count == 0
