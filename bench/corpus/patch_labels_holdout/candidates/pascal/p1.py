def pascal(n):
    """
    Pascal's Triangle

    Input:
        n: an int >= 0 (no upper bound)

    Output:
        The first n rows of Pascal's triangle, as a list of n lists of ints:
        row r (counting from 0) has the r + 1 binomial coefficients
        C(r, 0), C(r, 1), ..., C(r, r). pascal(0) == [].

    Example:
        >>> pascal(4)
        [[1], [1, 1], [1, 2, 1], [1, 3, 3, 1]]
    """
    rows = []
    row = [1]
    for _ in range(n):
        rows.append(row)
        row = [a + b for a, b in zip([0] + row, row + [0])]
    return rows
