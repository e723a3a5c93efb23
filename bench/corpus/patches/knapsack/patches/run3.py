def knapsack(capacity, items):
    """Best total value of a subset of items [(weight, value), ...] whose total weight
    is at most capacity (0/1 knapsack, dynamic programming)."""
    total = 0
    room = capacity
    for weight, value in sorted(items, key=lambda it: it[1] / it[0], reverse=True):
        if weight <= room:
            room -= weight
            total += value
    return total
