"""Tests for the two-module subject: linalg.py and vectors.py."""
import math
from fractions import Fraction

import pytest

import vectors
from linalg import determinant, identity, mat_mul, mat_vec, solve, transpose
from vectors import add, cross, dot, norm, scale, sub

A = ((1, 2), (3, 4))
B = ((0, 1), (1, 0))


def test_vector_ops():
    assert add((1, 2), (3, 4)) == (4, 6)
    assert sub((5, 5), (1, 2)) == (4, 3)
    assert scale((1, -2), 3) == (3, -6)
    assert dot((1, 2, 3), (4, 5, 6)) == 32
    assert norm((3, 4)) == 5.0
    assert math.isclose(vectors.norm((1, 1)), math.sqrt(2))


def test_cross():
    assert cross((1, 0, 0), (0, 1, 0)) == (0, 0, 1)
    assert cross((2, 3, 4), (5, 6, 7)) == (-3, 6, -3)


@pytest.mark.parametrize("func", [add, dot], ids=["add", "dot"])
def test_length_mismatch(func):
    with pytest.raises(ValueError):
        func((1, 2), (1, 2, 3))


def test_identity_and_transpose():
    assert identity(2) == ((1, 0), (0, 1))
    assert transpose(((1, 2, 3), (4, 5, 6))) == ((1, 4), (2, 5), (3, 6))


def test_products():
    assert mat_mul(A, B) == ((2, 1), (4, 3))
    assert mat_mul(A, identity(2)) == A
    assert mat_vec(A, (1, 1)) == (3, 7)
    with pytest.raises(ValueError):
        mat_mul(A, ((1, 2, 3),))


@pytest.mark.parametrize("m, det", [
    (((5,),), 5),
    (A, -2),
    (((2, 0, 0), (0, 3, 0), (0, 0, 4)), 24),
    (((1, 2, 3), (4, 5, 6), (7, 8, 9)), 0),
    (((6, 1, 1), (4, -2, 5), (2, 8, 7)), -306),
    (((1, 0, 2, -1), (3, 0, 0, 5), (2, 1, 4, -3), (1, 0, 5, 0)), 30),
], ids=["1x1", "2x2", "diagonal", "singular", "3x3", "4x4"])
def test_determinant(m, det):
    assert determinant(m) == det


def test_solve():
    assert solve(((2, 1), (1, 3)), (3, 5)) == (Fraction(4, 5), Fraction(7, 5))
    assert solve(((0, 1), (1, 0)), (2, 3)) == (3, 2)
    x = solve(((6, 1, 1), (4, -2, 5), (2, 8, 7)), (1, 2, 3))
    assert mat_vec(((6, 1, 1), (4, -2, 5), (2, 8, 7)), x) == (1, 2, 3)


def test_solve_singular():
    with pytest.raises(ValueError, match="singular"):
        solve(((1, 2), (2, 4)), (1, 2))
