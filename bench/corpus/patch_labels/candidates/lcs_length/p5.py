def lcs_length(a, b):
    """The length of a longest common subsequence of the strings a and b
    (characters of a, in order, not necessarily adjacent, that also occur
    in that order in b). Characters are compared exactly (case matters).

    a, b: strings, possibly empty. Plain recursion: exponential time.
    """
    def go(i, j):
        if i >= len(a) or j >= len(b):
            return 0
        if a[i] == b[j]:
            return go(i + 1, j + 1) + 1
        drop_a = go(i + 1, j)
        drop_b = go(i, j + 1)
        return drop_a if drop_a > drop_b else drop_b

    return go(0, 0)
