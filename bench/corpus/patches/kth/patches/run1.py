def kth(items, rank):
    """The k-th smallest element (0-based) of the non-empty list arr, by quickselect."""
    while True:
        pivot = items[0]
        smaller = [x for x in items if x < pivot]
        larger = [x for x in items if x > pivot]
        not_larger = len(items) - len(larger)
        if rank < len(smaller):
            items = smaller
        elif rank >= not_larger:
            items = larger
            rank -= not_larger
        else:
            return pivot
