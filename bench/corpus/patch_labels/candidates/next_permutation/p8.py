def next_permutation(perm):
    """The permutation of perm's elements that comes next in lexicographic order.

    perm: a list of unique ints (it is not modified).
    Returns a new list, or None when perm is already the last permutation
    (its elements in decreasing order; this includes [] and one-element lists).
    """
    n = len(perm)
    pivot = next((i for i in range(n - 2, -1, -1) if perm[i] < perm[i + 1]), None)
    if pivot is None:
        return None
    successor = max(j for j in range(pivot + 1, n) if perm[j] > perm[pivot])
    out = list(perm)
    out[pivot], out[successor] = out[successor], out[pivot]
    out[pivot + 1:] = out[pivot + 1:][::-1]
    return out
