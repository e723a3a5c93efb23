from functools import lru_cache


def lcs_length(a, b):
    """The length of a longest common subsequence of the strings a and b
    (characters of a, in order, not necessarily adjacent, that also occur
    in that order in b). Characters are compared exactly (case matters).

    a, b: strings, possibly empty.
    """
    @lru_cache(maxsize=None)
    def best(i, j):
        if i == len(a) or j == len(b):
            return 0
        if a[i] == b[j]:
            return 1 + best(i + 1, j + 1)
        return max(best(i + 1, j), best(i, j + 1))

    return best(0, 0)
