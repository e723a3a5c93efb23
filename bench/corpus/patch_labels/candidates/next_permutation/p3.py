def next_permutation(perm):
    """The permutation of perm's elements that comes next in lexicographic order.

    perm: a list of unique ints (it is not modified).
    Returns a new list, or None when perm is already the last permutation
    (its elements in decreasing order; this includes [] and one-element lists).
    """
    p = perm[:]
    i = len(p) - 1
    while i > 0 and p[i - 1] >= p[i]:
        i -= 1
    if i == 0:
        return None
    j = len(p) - 1
    while p[j] <= p[i - 1]:
        j -= 1
    p[i - 1], p[j] = p[j], p[i - 1]
    p[i:] = reversed(p[i:])
    return p
