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
    rows = [[1]]
    for r in range(1, n):
        above = rows[-1]
        row = [1]
        for c in range(1, r):
            row.append(above[c - 1] + above[c])
        row.append(1)
        rows.append(row)
    return rows
