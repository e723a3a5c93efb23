from itertools import combinations


def lcs_length(a, b):
    """The length of a longest common subsequence of the strings a and b
    (characters of a, in order, not necessarily adjacent, that also occur
    in that order in b). Characters are compared exactly (case matters).

    a, b: strings, possibly empty.
    """
    short, other = (a, b) if len(a) <= len(b) else (b, a)
    for size in range(len(short), 0, -1):
        for picked in combinations(short, size):
            rest = iter(other)
            if all(ch in rest for ch in picked):
                return size
    return 0
