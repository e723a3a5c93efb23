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
    stack = []
    for ch in parens:
        if ch == "(":
            stack.append(ch)
        else:
            if not stack:
                return False
            stack.pop()
    return not stack
