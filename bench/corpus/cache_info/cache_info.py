"""A bounded memo cache that reports its statistics as a namedtuple, the
way functools.lru_cache does; caches and their statistics pickle."""
import logging
from collections import OrderedDict, namedtuple

__all__ = ["CacheInfo", "BoundedCache", "cached"]

log = logging.getLogger("cache_info")

CacheInfo = namedtuple("CacheInfo", ["hits", "misses", "maxsize", "currsize"])


class BoundedCache:
    """Least-recently-used mapping of at most maxsize entries."""

    def __init__(self, maxsize=64):
        if maxsize < 1:
            raise ValueError("maxsize must be at least 1")
        self.maxsize = maxsize
        self.hits = 0
        self.misses = 0
        self._data = OrderedDict()

    def get(self, key, compute):
        """The cached value of key, computing and storing it on a miss."""
        if key in self._data:
            self.hits += 1
            self._data.move_to_end(key)
            return self._data[key]
        self.misses += 1
        value = compute(key)
        self._data[key] = value
        if len(self._data) > self.maxsize:
            self._data.popitem(last=False)
        return value

    def keys(self):
        return list(self._data)

    def info(self):
        return CacheInfo(self.hits, self.misses, self.maxsize,
                         len(self._data))

    def clear(self):
        log.debug("clearing %d entries", len(self._data))
        self._data.clear()
        self.hits = self.misses = 0


def cached(maxsize=64):
    """Decorator: memoises a one-argument function in a BoundedCache,
    reachable as the wrapper's `cache` attribute."""
    def decorate(func):
        cache = BoundedCache(maxsize)

        def wrapper(arg):
            return cache.get(arg, func)

        wrapper.cache = cache
        wrapper.cache_info = cache.info
        return wrapper
    return decorate
