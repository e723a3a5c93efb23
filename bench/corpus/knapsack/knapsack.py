"""0/1 and unbounded knapsack by dynamic programming.

items: list of (weight, value) pairs with positive integer weights.
"""


def knapsack(capacity, items):
    """Best total value of a subset of items whose weight fits in capacity."""
    best = [0] * (capacity + 1)
    for weight, value in items:
        for room in range(capacity, weight - 1, -1):
            candidate = best[room - weight] + value
            if candidate > best[room]:
                best[room] = candidate
    return best[capacity]


def knapsack_choice(capacity, items):
    """(best value, sorted indices of one optimal subset), via a full table."""
    n = len(items)
    table = [[0] * (capacity + 1) for _ in range(n + 1)]
    for i in range(1, n + 1):
        weight, value = items[i - 1]
        for room in range(capacity + 1):
            table[i][room] = table[i - 1][room]
            if weight <= room and table[i - 1][room - weight] + value > table[i][room]:
                table[i][room] = table[i - 1][room - weight] + value
    chosen = []
    room = capacity
    for i in range(n, 0, -1):
        if table[i][room] != table[i - 1][room]:
            chosen.append(i - 1)
            room -= items[i - 1][0]
    return table[n][capacity], sorted(chosen)


def unbounded_knapsack(capacity, items):
    """Best value when every item may be taken any number of times."""
    best = [0] * (capacity + 1)
    for room in range(1, capacity + 1):
        for weight, value in items:
            if weight <= room:
                best[room] = max(best[room], best[room - weight] + value)
    return best[capacity]
