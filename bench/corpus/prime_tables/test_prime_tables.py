import time

from prime_tables import (LIMIT, chunks, describe, factor, is_prime,
                          iter_index, sieve)


def test_iter_index():
    assert list(iter_index("abcab", "a")) == [0, 3]


def test_iter_index_start():
    assert list(iter_index([1, 0, 1, 1], 1, 1)) == [2, 3]


def test_iter_index_without_index_method():
    assert list(iter_index(iter("abab"), "b")) == [1, 3]


def test_sieve():
    assert list(sieve(30)) == [2, 3, 5, 7, 11, 13, 17, 19, 23, 29]


def test_sieve_tiny():
    assert list(sieve(3)) == [2]


def test_factor():
    assert factor(360) == [2, 2, 2, 3, 3, 5]


def test_factor_large_prime_part():
    assert factor(2 * 3541) == [2, 3541]


def test_is_prime_small():
    assert [n for n in range(30) if is_prime(n)] == list(sieve(30))


def test_is_prime_large():
    assert is_prime(1000003)
    assert not is_prime(1000001)


def test_chunks():
    assert list(chunks("abcde", 2)) == [("a", "b"), ("c", "d"), ("e",)]


def test_describe():
    assert describe(9) == "9 is composite"


class TestOther:
    def test_limit(self):
        assert LIMIT == 60

    def test_slow_sorted(self):
        # Slow enough (0.1 s) that running the whole suite for each
        # import-time mutant costs more than litmus's readers analysis.
        time.sleep(0.1)
        assert sorted([3, 1, 2]) == [1, 2, 3]
