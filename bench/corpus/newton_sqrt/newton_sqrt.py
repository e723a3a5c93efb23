"""Square roots by Newton's method: floating point with a tolerance, and
exact integer square roots.

Several mutants of this program never terminate (the loop condition or the
update step is changed so the iteration no longer converges). The suite is
deliberately loose about precision, like QuixBugs' sqrt suite.
"""

EPSILON = 0.01


def sqrt(x, epsilon=EPSILON):
    """Approximate square root of x: stops when |x - approx**2| <= epsilon."""
    if x < 0:
        raise ValueError("square root of a negative number")
    if x == 0:
        return 0.0
    approx = x / 2
    while abs(x - approx * approx) > epsilon:
        approx = 0.5 * (approx + x / approx)
    return approx


def isqrt(n):
    """Largest integer r with r * r <= n (Newton iteration on integers)."""
    if n < 0:
        raise ValueError("square root of a negative number")
    if n < 2:
        return n
    x = n
    y = (x + 1) // 2
    while y < x:
        x = y
        y = (x + n // x) // 2
    return x


def is_square(n):
    """True if n is a perfect square."""
    return n >= 0 and isqrt(n) ** 2 == n
