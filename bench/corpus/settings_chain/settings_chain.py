"""Layered settings: a child looks a key up in its parent when it has no
value of its own; NOT_SET marks an argument nobody passed."""

NOT_SET = "__not_set__"


class Settings:
    def __init__(self, values=None, parent=None):
        self._values = dict(values or {})
        self.parent = parent

    def get(self, key, default=NOT_SET):
        """The value of key here or in a parent; default, or KeyError when
        no default was given."""
        node = self
        while node is not None:
            if key in node._values:
                return node._values[key]
            node = node.parent
        if default is NOT_SET:
            raise KeyError(key)
        return default

    def set(self, key, value):
        self._values[key] = value

    def pop(self, key, default=NOT_SET):
        """Removes key from this layer only."""
        if key in self._values:
            return self._values.pop(key)
        if default is NOT_SET:
            raise KeyError(key)
        return default

    def child(self, **values):
        return Settings(values, parent=self)

    def flatten(self):
        """Every visible key and value, children overriding parents."""
        chain = []
        node = self
        while node is not None:
            chain.append(node._values)
            node = node.parent
        out = {}
        for values in reversed(chain):
            out.update(values)
        return out


def from_lines(lines, parent=None):
    """KEY=VALUE lines; blank lines and # comments are skipped."""
    values = {}
    for n, line in enumerate(lines, 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, value = line.partition("=")
        if not sep or not key.strip():
            raise ValueError("line %d: expected KEY=VALUE" % n)
        values[key.strip()] = value.strip()
    return Settings(values, parent)
