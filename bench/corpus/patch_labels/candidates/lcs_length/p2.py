def lcs_length(a, b):
    """The length of a longest common subsequence of the strings a and b
    (characters of a, in order, not necessarily adjacent, that also occur
    in that order in b). Characters are compared exactly (case matters).

    a, b: strings, possibly empty.
    """
    count = 0
    pos = 0
    for ch in a:
        found = b.find(ch, pos)
        if found != -1:
            count += 1
            pos = found + 1
    return count
