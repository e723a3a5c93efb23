import pytest

from lru_cache import LRUCache, memoize


@pytest.fixture
def cache():
    c = LRUCache(capacity=3)
    for key in "abc":
        c.put(key, key.upper())
    return c


def test_default_capacity():
    assert LRUCache().capacity == 2


@pytest.mark.parametrize("capacity", [0, -1])
def test_bad_capacity(capacity):
    with pytest.raises(ValueError):
        LRUCache(capacity)


def test_get_hit_and_miss(cache):
    assert cache.get("a") == "A"
    assert cache.get("z") is None
    assert cache.get("z", 0) == 0
    assert (cache.hits, cache.misses) == (1, 2)


def test_evicts_least_recently_used(cache):
    cache.get("a")
    cache.put("d", "D")
    assert "b" not in cache
    assert cache.keys() == ["c", "a", "d"]
    assert len(cache) == 3


def test_update_existing_does_not_evict(cache):
    cache.put("a", "alpha")
    assert len(cache) == 3
    assert cache.keys() == ["b", "c", "a"]
    assert cache.peek("a") == "alpha"


def test_peek_does_not_touch(cache):
    assert cache.peek("a") == "A"
    cache.put("d", "D")
    assert "a" not in cache
    assert cache.hits == 0
    with pytest.raises(KeyError):
        cache.peek("a")


def test_capacity_one():
    c = LRUCache(1)
    c.put(1, "x")
    c.put(2, "y")
    assert c.keys() == [2]


def test_hit_ratio(cache):
    assert cache.hit_ratio == 0.0
    cache.get("a")
    cache.get("b")
    cache.get("q")
    cache.get("c")
    assert cache.hit_ratio == pytest.approx(0.75)
    cache.clear()
    assert len(cache) == 0 and cache.hits == 0 and cache.misses == 0


def test_memoize():
    calls = []

    @memoize(capacity=2)
    def square(n):
        calls.append(n)
        return n * n

    assert [square(2), square(2), square(3), square(4), square(2)] == [4, 4, 9, 16, 4]
    assert calls == [2, 3, 4, 2]
    assert square.cache.hits == 1


def test_memoize_caches_none():
    calls = []

    @memoize()
    def nothing(n):
        calls.append(n)

    nothing(1)
    nothing(1)
    assert calls == [1]
