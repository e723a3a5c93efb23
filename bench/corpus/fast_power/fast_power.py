"""Exponentiation by squaring: recursive integer power and iterative modular
power.

power() recurses on exp // 2 until exp == 0: mutating that base case
(`exp == 0` -> `exp == 1`) or the step makes the recursion endless.
mod_pow() loops while exp > 0: `exp > 0` -> `exp >= 0` loops forever.
"""


def power(base, exp):
    """base ** exp for an integer exp (negative exponents give floats)."""
    if exp < 0:
        return 1 / power(base, -exp)
    if exp == 0:
        return 1
    half = power(base, exp // 2)
    if exp % 2 == 0:
        return half * half
    return half * half * base


def mod_pow(base, exp, mod):
    """(base ** exp) % mod for exp >= 0, mod >= 1."""
    if mod == 1:
        return 0
    result = 1
    base %= mod
    while exp > 0:
        if exp & 1:
            result = result * base % mod
        base = base * base % mod
        exp >>= 1
    return result


def digits_of_power(base, exp, count=3):
    """The last `count` decimal digits of base ** exp, as a zero-padded string."""
    return str(mod_pow(base, exp, 10 ** count)).zfill(count)
