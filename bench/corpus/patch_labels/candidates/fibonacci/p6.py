def fibonacci(n):
    """The n-th Fibonacci number: fibonacci(0) == 0, fibonacci(1) == 1 and
    fibonacci(n) == fibonacci(n - 1) + fibonacci(n - 2).

    n: an int with 0 <= n <= 90 (the result fits in 63 bits).
    """
    if not 0 <= n <= 90:
        raise ValueError("n must be between 0 and 90, got %r" % (n,))
    prev, cur = 1, 0
    steps = 0
    while steps < n:
        prev, cur = cur, prev + cur
        steps += 1
    return cur
