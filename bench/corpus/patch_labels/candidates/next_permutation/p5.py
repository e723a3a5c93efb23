def next_permutation(perm):
    """The permutation of perm's elements that comes next in lexicographic order.

    perm: a list of unique ints (it is not modified).
    Returns a new list, or None when perm is already the last permutation
    (its elements in decreasing order; this includes [] and one-element lists).
    """
    items = list(perm)
    k = len(items) - 2
    while k >= 0 and not items[k] < items[k + 1]:
        k -= 1
    if k < 0:
        return None
    # the smallest element right of k that is larger than items[k]
    larger = [j for j in range(k + 1, len(items)) if items[j] and items[j] > items[k]]
    j = min(larger, key=lambda idx: items[idx])
    items[k], items[j] = items[j], items[k]
    items[k + 1:] = sorted(items[k + 1:])
    return items
