"""Dotted release versions with pre-release tags (1.2, 1.2.0rc1), ordered
with functools.total_ordering from __eq__ and __lt__ alone."""
import functools
import logging
import re

__all__ = ["Version", "parse", "latest", "InvalidVersion"]

log = logging.getLogger("version_order")

_PATTERN = re.compile(r"^(\d+(?:\.\d+)*)(?:(a|b|rc)(\d+))?$")
_PRE_RANK = {"a": 0, "b": 1, "rc": 2}


class InvalidVersion(ValueError):
    pass


@functools.total_ordering
class Version:
    """A release (tuple of ints, trailing zeros ignored) and an optional
    pre-release (tag, number); 1.0rc1 < 1.0 < 1.0.1."""

    def __init__(self, release, pre=None):
        release = tuple(release)
        while len(release) > 1 and release[-1] == 0:
            release = release[:-1]
        self.release = release
        self.pre = pre

    def _key(self):
        if self.pre is None:
            return (self.release, 1, 0, 0)
        tag, num = self.pre
        return (self.release, 0, _PRE_RANK[tag], num)

    def __eq__(self, other):
        if not isinstance(other, Version):
            return NotImplemented
        return self._key() == other._key()

    def __lt__(self, other):
        if not isinstance(other, Version):
            raise TypeError("Expected a Version type but got %r" % type(other))
        return self._key() < other._key()

    def __hash__(self):
        return hash(self._key())

    def __str__(self):
        text = ".".join(str(n) for n in self.release)
        if self.pre is not None:
            text += "%s%d" % self.pre
        return text

    def __repr__(self):
        return "Version(%r)" % str(self)

    @property
    def is_prerelease(self):
        return self.pre is not None


def parse(text):
    m = _PATTERN.match(text.strip())
    if not m:
        raise InvalidVersion("invalid version: %r" % text)
    release = [int(part) for part in m.group(1).split(".")]
    pre = (m.group(2), int(m.group(3))) if m.group(2) else None
    return Version(release, pre)


def latest(texts, allow_pre=False):
    """The greatest version among texts, pre-releases only if allowed."""
    versions = [parse(t) for t in texts]
    log.debug("choosing among %d versions", len(versions))
    if not allow_pre:
        versions = [v for v in versions if not v.is_prerelease]
    return max(versions) if versions else None
