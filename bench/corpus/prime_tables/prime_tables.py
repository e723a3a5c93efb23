"""Prime tables built when the module is imported: a sieve generator
walking a bytearray through an index helper that calls its argument's
own index method, a table of primes made by running the sieve at import,
a table of Miller-Rabin witnesses, and a version check that picks one of
two definitions.  Written for litmus's corpus (issue 38): mutants of this
import-time code should run only the tests that can observe them."""
from contextlib import suppress
from itertools import islice
from math import isqrt
from sys import hexversion

LIMIT = 60


def iter_index(seq, value, start=0):
    """Yield every index of value in seq from start on."""
    find = getattr(seq, "index", None)
    if find is None:
        for i, item in enumerate(seq):
            if i >= start and item == value:
                yield i
        return
    i = start - 1
    with suppress(ValueError):
        while True:
            i = find(value, i + 1)
            yield i


def sieve(n):
    """Yield the primes below n."""
    if n > 2:
        yield 2
    data = bytearray((0, 1)) * (n // 2)
    limit = isqrt(n) + 1
    for p in iter_index(data, 1, 3):
        if p >= limit:
            break
        data[p * p::p + p] = bytes(len(range(p * p, n, p + p)))
    yield from iter_index(data, 1, 3)


_PRIMES = tuple(sieve(LIMIT))


def factor(n):
    """The prime factors of n, smallest first (n below LIMIT squared)."""
    out = []
    for p in _PRIMES:
        while n % p == 0:
            out.append(p)
            n //= p
    if n > 1:
        out.append(n)
    return out


# Bases that decide primality exactly below each bound.
_WITNESSES = [
    (2047, (2,)),
    (1373653, (2, 3)),
    (25326001, (2, 3, 5)),
]


def _probable_prime(n, base):
    d, s = n - 1, 0
    while d % 2 == 0:
        d //= 2
        s += 1
    x = pow(base, d, n)
    if x in (1, n - 1):
        return True
    for _ in range(s - 1):
        x = x * x % n
        if x == n - 1:
            return True
    return False


def is_prime(n):
    """Exact for n below 25326001."""
    if n < 2:
        return False
    for p in (2, 3, 5):
        if n % p == 0:
            return n == p
    for bound, bases in _WITNESSES:
        if n < bound:
            return all(_probable_prime(n, b) for b in bases)
    raise ValueError("too large")


def _chunks(items, n):
    """Tuples of n items in a row, the last one maybe shorter."""
    it = iter(items)
    while True:
        chunk = tuple(islice(it, n))
        if not chunk:
            return
        yield chunk


if hexversion >= 0x30C0000:
    from itertools import batched as _batched

    def chunks(items, n):
        return _batched(items, n)
else:
    chunks = _chunks


def describe(n):
    """A line about n."""
    kind = "prime" if is_prime(n) else "composite"
    return "%d is %s" % (n, kind)
