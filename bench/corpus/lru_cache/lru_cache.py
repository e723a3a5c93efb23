"""A least-recently-used cache with hit/miss statistics.

Relies on dicts keeping insertion order: the first key is the least
recently used one.
"""


class LRUCache:
    def __init__(self, capacity=2):
        if capacity <= 0:
            raise ValueError("capacity must be positive")
        self.capacity = capacity
        self._data = {}
        self.hits = 0
        self.misses = 0

    def get(self, key, default=None):
        """Value for key (marking it most recently used), or default."""
        if key in self._data:
            value = self._data.pop(key)
            self._data[key] = value
            self.hits += 1
            return value
        self.misses += 1
        return default

    def put(self, key, value):
        """Store value; evict the least recently used key if the cache is full."""
        if key in self._data:
            self._data.pop(key)
        elif len(self._data) >= self.capacity:
            oldest = next(iter(self._data))
            del self._data[oldest]
        self._data[key] = value

    def peek(self, key):
        """Value for key without touching recency or statistics (KeyError if absent)."""
        return self._data[key]

    def keys(self):
        """Keys from least to most recently used."""
        return list(self._data)

    def __len__(self):
        return len(self._data)

    def __contains__(self, key):
        return key in self._data

    @property
    def hit_ratio(self):
        total = self.hits + self.misses
        return self.hits / total if total else 0.0

    def clear(self):
        self._data.clear()
        self.hits = self.misses = 0


def memoize(capacity=128):
    """Decorator caching a one-argument function in an LRUCache."""
    def decorate(func):
        cache = LRUCache(capacity)
        missing = object()

        def wrapper(arg):
            value = cache.get(arg, missing)
            if value is missing:
                value = func(arg)
                cache.put(arg, value)
            return value

        wrapper.cache = cache
        return wrapper
    return decorate
