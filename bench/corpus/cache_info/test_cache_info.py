import pickle

import pytest

from cache_info import BoundedCache, CacheInfo, cached


EMPTY = CacheInfo(0, 0, 64, 0)


def square(x):
    return x * x


@pytest.fixture
def cache():
    c = BoundedCache(maxsize=2)
    c.get(1, square)
    c.get(2, square)
    c.get(1, square)
    return c


def test_info_fields(cache):
    info = cache.info()
    assert info == (1, 2, 2, 2)
    assert (info.hits, info.misses, info.maxsize, info.currsize) == (1, 2, 2, 2)
    assert CacheInfo._fields == ("hits", "misses", "maxsize", "currsize")


def test_info_repr(cache):
    assert repr(cache.info()) == "CacheInfo(hits=1, misses=2, maxsize=2, currsize=2)"


def test_info_pickles(cache):
    info = cache.info()
    back = pickle.loads(pickle.dumps(info))
    assert back == info
    assert type(back) is CacheInfo


def test_cache_pickles_with_its_entries(cache):
    back = pickle.loads(pickle.dumps(cache))
    assert back.keys() == [2, 1]
    assert back.info() == cache.info()
    assert back.get(2, lambda k: -1) == 4


def test_eviction_is_least_recently_used(cache):
    cache.get(3, square)
    assert cache.keys() == [1, 3]
    assert cache.get(2, lambda k: "recomputed") == "recomputed"
    assert cache.info().misses == 4


def test_bad_maxsize():
    with pytest.raises(ValueError, match="at least 1"):
        BoundedCache(0)
    assert BoundedCache(1).maxsize == 1


def test_default_maxsize():
    assert BoundedCache().info() == EMPTY
    assert pickle.loads(pickle.dumps(EMPTY)) == EMPTY


def test_clear(cache):
    cache.clear()
    assert cache.info() == CacheInfo(0, 0, 2, 0)
    assert cache.keys() == []


def test_decorator():
    calls = []

    @cached(maxsize=3)
    def slow(x):
        calls.append(x)
        return x + 1

    assert [slow(1), slow(1), slow(2)] == [2, 2, 3]
    assert calls == [1, 2]
    assert slow.cache_info() == CacheInfo(1, 2, 3, 2)
    assert pickle.loads(pickle.dumps(slow.cache_info())).hits == 1
    assert cached()(square).cache.maxsize == 64
