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
    def count_from(remaining, start):
        if remaining == 0:
            return 1
        count = 0
        for i in range(start, len(coins)):
            if coins[i] <= remaining:
                count += count_from(remaining - coins[i], i)
        return count

    return count_from(total, 0)
