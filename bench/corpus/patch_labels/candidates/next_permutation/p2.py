def next_permutation(perm):
    """The permutation of perm's elements that comes next in lexicographic order.

    perm: a list of unique ints (it is not modified).
    Returns a new list, or None when perm is already the last permutation
    (its elements in decreasing order; this includes [] and one-element lists).
    """
    n = len(perm)
    for i in range(n - 2, -1, -1):
        if perm[i] and perm[i] < perm[i + 1]:
            for j in range(n - 1, i, -1):
                if perm[j] > perm[i]:
                    nxt = perm[:]
                    nxt[i], nxt[j] = nxt[j], nxt[i]
                    return nxt[:i + 1] + nxt[i + 1:][::-1]
    return None
