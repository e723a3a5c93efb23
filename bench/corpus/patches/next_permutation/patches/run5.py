def next_permutation(perm):
    """The next permutation of perm in lexicographic order, or None if perm is the last."""
    i = len(perm) - 2
    while i >= 0:
        if perm[i] < perm[i + 1]:
            for j in range(len(perm) - 1, i, -1):
                if perm[i] < perm[j]:
                    next_perm = list(perm)
                    next_perm[i], next_perm[j] = perm[j], perm[i]
                    next_perm[i + 1:] = reversed(next_perm[i + 1:])
                    return next_perm
        i - 1
    return None
