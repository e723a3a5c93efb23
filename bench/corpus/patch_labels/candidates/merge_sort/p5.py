from itertools import permutations


def merge_sort(arr):
    """A new list holding the items of arr in non-decreasing order.

    arr: a list of ints of any size and sign, repeats allowed, possibly
    empty. It is not modified.
    """
    for candidate in permutations(arr):
        if all(candidate[k] <= candidate[k + 1] for k in range(len(candidate) - 1)):
            return list(candidate)
    return []
