def next_permutation(perm):
    """The permutation of perm's elements that comes next in lexicographic order.

    perm: a list of unique ints (it is not modified).
    Returns a new list, or None when perm is already the last permutation
    (its elements in decreasing order; this includes [] and one-element lists).
    """
    size = len(perm)
    for left in range(size - 2, -1, -1):
        if perm[left] < perm[left + 1]:
            right = size - 1
            while perm[right] < perm[left]:
                right -= 1
            out = perm[:left] + [perm[right]]
            rest = perm[left + 1:]
            rest[right - left - 1] = perm[left]
            return out + rest[::-1]
    return None
