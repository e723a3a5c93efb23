def lcs_length(a, b):
    """The length of a longest common subsequence of the strings a and b
    (characters of a, in order, not necessarily adjacent, that also occur
    in that order in b). Characters are compared exactly (case matters).

    a, b: strings, possibly empty. Plain recursion: exponential time.
    """
    if not a or not b:
        return 0
    head, rest = a[0], a[1:]
    skip = lcs_length(rest, b)
    at = b.find(head)
    if at < 0:
        return skip
    # using a[0] at its first occurrence in b is never worse than later ones
    return max(skip, 1 + lcs_length(rest, b[at + 1:]))
