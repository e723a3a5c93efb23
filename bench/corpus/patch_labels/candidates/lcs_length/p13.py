def lcs_length(a, b):
    """The length of a longest common subsequence of the strings a and b
    (characters of a, in order, not necessarily adjacent, that also occur
    in that order in b). Characters are compared exactly (case matters).

    a, b: strings, possibly empty.
    """
    rows, cols = len(a), len(b)
    table = [[0] * cols for _ in range(rows)]
    for i in range(rows):
        for j in range(cols):
            if a[i] == b[j]:
                table[i][j] = (table[i - 1][j - 1] if i and j else 0) + 1
            else:
                up = table[i - 1][j] if i else 0
                left = table[i][j - 1] if j else 0
                table[i][j] = max(up, left)
    return table[-1][-1]
