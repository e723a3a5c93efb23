def is_subsequence(needle, haystack):
    """Whether needle can be made from haystack by deleting characters
    (the remaining ones keep their order).

    needle, haystack: strings, possibly empty. "" is a subsequence of every
    string, "" included; a non-empty needle is never a subsequence of "".
    Returns True or False.
    """
    pos = 0
    for ch in needle:
        pos = haystack.find(ch, pos)
        if pos < 0:
            return False
    return True
