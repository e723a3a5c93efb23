def fibonacci(n):
    """The n-th Fibonacci number: fibonacci(0) == 0, fibonacci(1) == 1 and
    fibonacci(n) == fibonacci(n - 1) + fibonacci(n - 2).

    n: an int with 0 <= n <= 90 (the result fits in 63 bits).
    """
    current, following = 0, 1
    for _ in range(n):
        current, following = following, current + following
    return current
