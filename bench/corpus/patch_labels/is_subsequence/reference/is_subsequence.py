def is_subsequence(needle, haystack):
    """Whether needle can be made from haystack by deleting characters
    (the remaining ones keep their order).

    needle, haystack: strings, possibly empty. "" is a subsequence of every
    string, "" included; a non-empty needle is never a subsequence of "".
    Returns True or False.
    """
    matched = 0
    for ch in haystack:
        if matched < len(needle) and needle[matched] == ch:
            matched += 1
    return matched == len(needle)
