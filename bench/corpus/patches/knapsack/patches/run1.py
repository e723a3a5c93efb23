def knapsack(capacity, items):
    """Best total value of a subset of items [(weight, value), ...] whose total weight
    is at most capacity (0/1 knapsack, dynamic programming)."""
    prev = [0] * (capacity + 1)
    for weight, value in items:
        cur = list(prev)
        for j in range(max(weight, 1), capacity + 1):
            cur[j] = max(prev[j], value + prev[j - weight])
        prev = cur
    return prev[capacity]
