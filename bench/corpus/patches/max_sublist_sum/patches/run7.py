import sys
from functools import lru_cache

sys.setrecursionlimit(10 ** 6)


def max_sublist_sum(arr):
    """Largest sum of a contiguous sublist of arr (the empty sublist counts, so >= 0)."""
    values = tuple(arr)

    @lru_cache(maxsize=None)
    def best_ending_at(i):
        if i < 0:
            return 0
        return max(0, best_ending_at(i) + values[i])

    return max([0] + [best_ending_at(i) for i in range(len(values))])
