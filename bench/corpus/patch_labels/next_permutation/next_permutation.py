def next_permutation(perm):
    """The permutation of perm's elements that comes next in lexicographic order.

    perm: a list of unique ints (it is not modified).
    Returns a new list, or None when perm is already the last permutation
    (its elements in decreasing order; this includes [] and one-element lists).
    """
    result = list(perm)
    pivot = len(result) - 2
    while pivot >= 0 and result[pivot] > result[pivot + 1]:
        pivot -= 1
    if pivot < 0:
        return None
    swap = len(result) - 1
    while result[swap] > result[pivot]:
        swap -= 1
    result[pivot], result[swap] = result[swap], result[pivot]
    result[pivot + 1:] = result[:pivot:-1]
    return result
