import math

import pytest

from shapes import Rectangle, Shape, Square, Triangle, total_area


def test_describe_rectangle():
    assert Rectangle(2, 3).describe() == (
        "rectangle with 4 sides: area 6 cm^2, perimeter 10 cm")


def test_describe_square_inherits_sides_and_unit():
    assert Square(1.5).describe() == (
        "square with 4 sides: area 2.25 cm^2, perimeter 6.0 cm")


def test_describe_rounds_to_the_shape_precision():
    assert Rectangle(1 / 3, 1).describe() == (
        "rectangle with 4 sides: area 0.33 cm^2, perimeter 2.67 cm")
    assert Triangle(1, 1, 1).describe() == (
        "triangle with 3 sides: area 0.433 cm^2, perimeter 3 cm")


def test_class_attributes():
    assert (Square.sides, Triangle.sides, Triangle.precision) == (4, 3, 3)


def test_triangle_area():
    assert Triangle(3, 4, 5).area() == pytest.approx(6.0)
    assert Triangle(3, 4, 5).perimeter() == 12


@pytest.mark.parametrize("args", [(1, 2, 3), (0, 1, 1), (1, 1, 5)])
def test_not_a_triangle(args):
    with pytest.raises(ValueError, match="not a triangle"):
        Triangle(*args)


@pytest.mark.parametrize("w, h", [(0, 1), (1, 0), (-1, 2)])
def test_bad_rectangle(w, h):
    with pytest.raises(ValueError, match="positive"):
        Rectangle(w, h)


def test_compactness():
    assert Square(2).compactness() == pytest.approx(math.pi / 4)
    assert Triangle(1, 1, 1).compactness() == pytest.approx(math.pi / (3 * math.sqrt(3)))


def test_ordering_by_area():
    shapes = [Rectangle(2, 3), Square(1), Triangle(3, 4, 5)]
    assert [type(s).__name__ for s in sorted(shapes)] == ["Square", "Rectangle", "Triangle"]
    assert Square(1) < Square(2)
    assert not Square(2) < Square(1)


def test_total_area_checks_types():
    assert total_area([Square(2), Rectangle(1, 2)]) == 6
    assert total_area([]) == 0
    with pytest.raises(TypeError, match="not a shape: 3"):
        total_area([Square(1), 3])


def test_abstract_base():
    with pytest.raises(NotImplementedError):
        Shape().area()
    with pytest.raises(NotImplementedError):
        Shape().perimeter()
