import math


def fibonacci(n):
    """The n-th Fibonacci number: fibonacci(0) == 0, fibonacci(1) == 1 and
    fibonacci(n) == fibonacci(n - 1) + fibonacci(n - 2).

    n: an int with 0 <= n <= 90 (the result fits in 63 bits).
    """
    # Binet's formula
    phi = (1 + math.sqrt(5)) / 2
    return round(phi ** n / math.sqrt(5))
