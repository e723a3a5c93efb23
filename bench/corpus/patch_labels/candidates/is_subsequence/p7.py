from itertools import combinations


def is_subsequence(needle, haystack):
    """Whether needle can be made from haystack by deleting characters
    (the remaining ones keep their order).

    needle, haystack: strings, possibly empty. "" is a subsequence of every
    string, "" included; a non-empty needle is never a subsequence of "".
    Returns True or False.
    """
    return any("".join(picked) == needle
               for picked in combinations(haystack, len(needle)))
