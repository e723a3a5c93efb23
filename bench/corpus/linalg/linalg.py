"""Small dense matrices as tuples of row tuples. Uses vectors.py from the same folder."""
from fractions import Fraction

from vectors import dot, scale, sub


def identity(n):
    return tuple(tuple(1 if i == j else 0 for j in range(n)) for i in range(n))


def transpose(m):
    return tuple(zip(*m))


def mat_vec(m, v):
    return tuple(dot(row, v) for row in m)


def mat_mul(a, b):
    if len(a[0]) != len(b):
        raise ValueError("shapes do not match")
    columns = transpose(b)
    return tuple(tuple(dot(row, col) for col in columns) for row in a)


def determinant(m):
    """Determinant by Laplace expansion along the first row (recursive)."""
    if len(m) == 1:
        return m[0][0]
    total = 0
    for j, entry in enumerate(m[0]):
        minor = tuple(row[:j] + row[j + 1:] for row in m[1:])
        sign = -1 if j % 2 else 1
        total += sign * entry * determinant(minor)
    return total


def solve(m, b):
    """Solve m x = b exactly (Gauss-Jordan with Fractions); ValueError if singular."""
    n = len(m)
    rows = [tuple(Fraction(x) for x in row) + (Fraction(rhs),) for row, rhs in zip(m, b)]
    for col in range(n):
        pivot = next((r for r in range(col, n) if rows[r][col] != 0), None)
        if pivot is None:
            raise ValueError("matrix is singular")
        rows[col], rows[pivot] = rows[pivot], rows[col]
        rows[col] = scale(rows[col], 1 / rows[col][col])
        for r in range(n):
            if r != col and rows[r][col] != 0:
                rows[r] = sub(rows[r], scale(rows[col], rows[r][col]))
    return tuple(row[-1] for row in rows)
