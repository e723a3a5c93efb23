import operator

OPS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv}


def rpn_eval(tokens):
    """
    Reverse Polish Notation Evaluation

    Input:
        tokens: a list of numbers (ints or finite floats, of any sign) and
            operator strings "+", "-", "*", "/", forming a valid postfix
            expression: every operator has two operands before it and one
            value is left at the end. It is not modified.

    Precondition:
        No "/" has a right operand equal to 0.

    Output:
        The value of the expression, with Python's arithmetic: "/" is true
        division (7 / 2 == 3.5, and its result is always a float). So the
        value is an int when every number is an int and no "/" is used, and
        a float otherwise.

    Example:
        >>> rpn_eval([3, 4, "+", 2, "*"])
        14
    """
    stack = []
    for token in tokens:
        if token in OPS:
            right = stack.pop()
            left = stack.pop()
            stack.append(OPS[token](left, right))
        else:
            stack.append(token)
    return float(stack.pop())
