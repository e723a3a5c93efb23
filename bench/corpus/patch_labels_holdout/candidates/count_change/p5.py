from itertools import product


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
    # Try every number of each coin that does not exceed the total.
    ranges = [range(total // coin + 1) for coin in coins]
    return sum(1 for counts in product(*ranges)
               if sum(k * coin for k, coin in zip(counts, coins)) == total)
