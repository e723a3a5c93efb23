"""Merge sort, top-down (recursive) and bottom-up (iterative)."""


def merge(left, right):
    """Merge two sorted lists into one sorted list (stable: left wins ties)."""
    result = []
    i = j = 0
    while i < len(left) and j < len(right):
        if left[i] <= right[j]:
            result.append(left[i])
            i += 1
        else:
            result.append(right[j])
            j += 1
    result.extend(left[i:])
    result.extend(right[j:])
    return result


def merge_sort(arr):
    """Return a sorted copy of arr (top-down recursive merge sort)."""
    if len(arr) <= 1:
        return list(arr)
    middle = len(arr) // 2
    left = merge_sort(arr[:middle])
    right = merge_sort(arr[middle:])
    return merge(left, right)


def merge_sort_bottom_up(arr):
    """Return a sorted copy of arr, merging runs of width 1, 2, 4, ..."""
    items = list(arr)
    n = len(items)
    width = 1
    while width < n:
        merged = []
        for start in range(0, n, 2 * width):
            left = items[start:start + width]
            right = items[start + width:start + 2 * width]
            merged.extend(merge(left, right))
        items = merged
        width *= 2
    return items
