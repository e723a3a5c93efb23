from itertools import permutations


def next_permutation(perm):
    """The permutation of perm's elements that comes next in lexicographic order.

    perm: a list of unique ints (it is not modified).
    Returns a new list, or None when perm is already the last permutation
    (its elements in decreasing order; this includes [] and one-element lists).
    """
    ordered = list(permutations(sorted(perm)))
    position = ordered.index(tuple(perm))
    if position + 1 == len(ordered):
        return None
    return list(ordered[position + 1])
