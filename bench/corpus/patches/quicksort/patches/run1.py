def quicksort(values):
    """A new list with the elements of arr in ascending order."""
    if not values:
        return []

    head = values[0]
    left, right = [], []
    for item in values[1:]:
        if item < head:
            left.append(item)
    for item in values[1:]:
        if item >= head:
            right.append(item)
    return quicksort(left) + [head] + quicksort(right)
