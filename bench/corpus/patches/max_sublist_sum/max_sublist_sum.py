def max_sublist_sum(arr):
    """Largest sum of a contiguous sublist of arr (the empty sublist counts, so >= 0)."""
    max_ending_here = 0
    max_so_far = 0

    for x in arr:
        max_ending_here = max_ending_here + x
        max_so_far = max(max_so_far, max_ending_here)

    return max_so_far
