def count_change(total, coins):
    """
    Counting Change

    Input:
        total: an int >= 0, the amount to make
        coins: a list of distinct positive ints (the coin values), in any
            order, possibly empty. It is not modified.

    Output:
        The number of distinct ways to make total from coins, each coin value
        usable any number of times; the order of the coins does not matter
        (5 = 2 + 3 and 5 = 3 + 2 are one way). There is exactly one way to
        make 0 (no coins at all), even when coins is empty.

    Example:
        >>> count_change(10, [2, 3, 5])
        4
    """
    n = len(coins)
    # table[i][t]: the ways to make t with the first i coin values
    table = [[0] * (total + 1) for _ in range(n + 1)]
    for i in range(n + 1):
        table[i][0] = 1
    for i in range(1, n + 1):
        coin = coins[i - 1]
        for t in range(1, total + 1):
            table[i][t] = table[i - 1][t] + (table[i][t - coin] if t >= coin else 0)
    return table[n][total]
