def next_permutation(seq):
    """The next permutation of perm in lexicographic order, or None if perm is the last."""
    pos = len(seq) - 2
    while pos >= 0 and not seq[pos] < seq[pos + 1]:
        pos -= 1
    if pos < 0:
        return None
    swap_with = len(seq) - 1
    while not seq[pos] < seq[swap_with]:
        swap_with -= 1
    result = list(seq)
    result[pos], result[swap_with] = seq[swap_with], seq[pos]
    result[pos + 1:] = reversed(result[pos + 1:])
    return result
