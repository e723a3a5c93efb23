def lcs_length(a, b):
    """The length of a longest common subsequence of the strings a and b
    (characters of a, in order, not necessarily adjacent, that also occur
    in that order in b). Characters are compared exactly (case matters).

    a, b: strings, possibly empty. Plain recursion: exponential time.
    """
    if a == "" or b == "":
        return 0
    if a[-1] == b[-1]:
        return lcs_length(a[:-1], b[:-1]) + 1
    return max(lcs_length(a[:-1], b), lcs_length(a, b[:-1]))
