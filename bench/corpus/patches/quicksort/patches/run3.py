def quicksort(arr):
    """A new list with the elements of arr in ascending order."""
    if not arr:
        return []
    counts = [0] * (max(arr) + 1)
    for x in arr:
        counts[x] += 1
    result = []
    for value, count in enumerate(counts):
        result.extend([value] * count)
    return result
