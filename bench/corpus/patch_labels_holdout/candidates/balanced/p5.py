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
    depth = 0
    for i in range(len(parens)):
        depth = depth + 1 if parens[i] == "(" else depth - 1
        if depth == -1:
            break
    return depth == 0
