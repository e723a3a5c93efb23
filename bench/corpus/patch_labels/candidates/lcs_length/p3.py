def lcs_length(a, b):
    """The length of a longest common subsequence of the strings a and b
    (characters of a, in order, not necessarily adjacent, that also occur
    in that order in b). Characters are compared exactly (case matters).

    a, b: strings, possibly empty.
    """
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a) - 1, -1, -1):
        for j in range(len(b) - 1, -1, -1):
            if a[i] == b[j]:
                table[i][j] = table[i + 1][j + 1] + 1
            else:
                table[i][j] = max(table[i + 1][j], table[i][j + 1])
    return table[0][0]
