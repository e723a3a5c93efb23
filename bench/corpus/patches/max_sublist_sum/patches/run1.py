def max_sublist_sum(values):
    """Largest sum of a contiguous sublist of arr (the empty sublist counts, so >= 0)."""
    best = 0
    running = 0
    for value in values:
        running += value
        if running < 0:
            running = 0
        if running > best:
            best = running
    return best
