from functools import lru_cache


@lru_cache(maxsize=None)
def fibonacci(n):
    """The n-th Fibonacci number: fibonacci(0) == 0, fibonacci(1) == 1 and
    fibonacci(n) == fibonacci(n - 1) + fibonacci(n - 2).

    n: an int with 0 <= n <= 90 (the result fits in 63 bits).
    """
    if n <= 1:
        return n
    return fibonacci(n - 1) + fibonacci(n - 2)
