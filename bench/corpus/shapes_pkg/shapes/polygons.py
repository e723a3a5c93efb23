"""Polygons built on shapes.base.Shape."""
import math

from shapes.base import Shape


class Rectangle(Shape):
    sides = 4

    def __init__(self, width, height):
        if width <= 0 or height <= 0:
            raise ValueError("sides must be positive")
        self.width = width
        self.height = height

    def area(self):
        return self.width * self.height

    def perimeter(self):
        return 2 * (self.width + self.height)


class Square(Rectangle):
    def __init__(self, side):
        super().__init__(side, side)


class Triangle(Shape):
    sides = 3
    precision = 3

    def __init__(self, a, b, c):
        x, y, z = sorted((a, b, c))
        if x <= 0 or x + y <= z:
            raise ValueError("not a triangle: %s, %s, %s" % (a, b, c))
        self.a, self.b, self.c = a, b, c

    def perimeter(self):
        return self.a + self.b + self.c

    def area(self):
        s = self.perimeter() / 2
        return math.sqrt(s * (s - self.a) * (s - self.b) * (s - self.c))
