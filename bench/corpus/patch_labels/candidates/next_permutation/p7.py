def next_permutation(perm):
    """The permutation of perm's elements that comes next in lexicographic order.

    perm: a list of unique ints (it is not modified).
    Returns a new list, or None when perm is already the last permutation
    (its elements in decreasing order; this includes [] and one-element lists).
    """
    for i in reversed(range(len(perm) - 1)):
        if perm[i] < perm[i + 1]:
            tail = perm[i + 1:]
            bigger = min(x for x in tail if x > perm[i])
            tail.remove(bigger)
            tail.append(perm[i])
            return perm[:i] + [bigger] + sorted(tail)
    return None
