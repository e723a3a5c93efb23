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
    for r in range(n):
        row = [1]
        value = 1
        for c in range(1, r + 1):
            value = value * (r - c + 1) / c
            row.append(int(value))
        rows.append(row)
    return rows
