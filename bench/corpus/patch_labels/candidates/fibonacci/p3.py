def _pair(n):
    """(F(n), F(n + 1)) by fast doubling."""
    if n == 0:
        return 0, 1
    a, b = _pair(n >> 1)
    c = a * (2 * b - a)
    d = a * a + b * b
    if n & 1:
        return d, c + d
    return c, d


def fibonacci(n):
    """The n-th Fibonacci number: fibonacci(0) == 0, fibonacci(1) == 1 and
    fibonacci(n) == fibonacci(n - 1) + fibonacci(n - 2).

    n: an int with 0 <= n <= 90 (the result fits in 63 bits).
    """
    return _pair(n)[0]
