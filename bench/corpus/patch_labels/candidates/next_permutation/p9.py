def next_permutation(perm):
    """The permutation of perm's elements that comes next in lexicographic order.

    perm: a list of unique ints (it is not modified).
    Returns a new list, or None when perm is already the last permutation
    (its elements in decreasing order; this includes [] and one-element lists).
    """
    i = len(perm) - 2
    while i >= 0 and perm[i] > perm[i + 1]:
        i -= 1
    if i < 0:
        return None
    j = len(perm) - 1
    while perm[j] < perm[i]:
        j -= 1
    perm[i], perm[j] = perm[j], perm[i]
    perm[i + 1:] = perm[i + 1:][::-1]
    return perm
