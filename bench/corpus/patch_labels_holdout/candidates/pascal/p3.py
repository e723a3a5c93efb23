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
    if n <= 0:
        return []
    rows = pascal(n - 1)
    if not rows:
        return [[1]]
    last = rows[-1]
    rows.append([1] + [last[i] + last[i + 1] for i in range(len(last) - 1)] + [1])
    return rows
