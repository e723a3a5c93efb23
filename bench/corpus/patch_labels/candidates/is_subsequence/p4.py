def is_subsequence(needle, haystack):
    """Whether needle can be made from haystack by deleting characters
    (the remaining ones keep their order).

    needle, haystack: strings, possibly empty. "" is a subsequence of every
    string, "" included; a non-empty needle is never a subsequence of "".
    Returns True or False.
    """
    if not needle or not haystack:
        return False
    i = 0
    for ch in haystack:
        if ch == needle[i]:
            i += 1
            if i == len(needle):
                return True
    return False
