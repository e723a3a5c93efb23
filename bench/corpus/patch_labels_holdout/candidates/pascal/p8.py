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
    rows = [[1], [1, 1]]
    for r in range(2, n):
        prev = rows[-1]
        rows.append([1] + [prev[i] + prev[i + 1] for i in range(r - 1)] + [1])
    return rows[:n]
