"""Plane shapes: the base class in shapes.base, polygons in
shapes.polygons."""
from shapes.base import Shape, total_area
from shapes.polygons import Rectangle, Square, Triangle

__all__ = ["Shape", "Rectangle", "Square", "Triangle", "total_area"]
