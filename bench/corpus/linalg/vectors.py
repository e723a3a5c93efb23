"""Vector helpers on tuples of numbers (used by linalg.py)."""
import math


def add(u, v):
    if len(u) != len(v):
        raise ValueError("vectors of different lengths")
    return tuple(a + b for a, b in zip(u, v))


def sub(u, v):
    return add(u, scale(v, -1))


def scale(v, k):
    return tuple(k * a for a in v)


def dot(u, v):
    if len(u) != len(v):
        raise ValueError("vectors of different lengths")
    return sum(a * b for a, b in zip(u, v))


def norm(v):
    return math.sqrt(dot(v, v))


def cross(u, v):
    """Cross product of two 3-vectors."""
    return (u[1] * v[2] - u[2] * v[1],
            u[2] * v[0] - u[0] * v[2],
            u[0] * v[1] - u[1] * v[0])
