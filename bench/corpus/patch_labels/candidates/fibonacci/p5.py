def fibonacci(n):
    """The n-th Fibonacci number: fibonacci(0) == 0, fibonacci(1) == 1 and
    fibonacci(n) == fibonacci(n - 1) + fibonacci(n - 2).

    n: an int with 0 <= n <= 90 (the result fits in 63 bits).
    """
    fibs = [0, 1]
    for i in range(2, n + 1):
        fibs.append(fibs[i - 1] + fibs[i - 2])
    return fibs[n]
