"""The base class of every shape: units, rounding and the shared
reporting; subclasses give area() and perimeter()."""
import math


class Shape:
    unit = "cm"
    precision = 2
    sides = 0

    def area(self):
        raise NotImplementedError

    def perimeter(self):
        raise NotImplementedError

    def describe(self):
        return "%s with %d sides: area %s %s^2, perimeter %s %s" % (
            type(self).__name__.lower(), self.sides,
            round(self.area(), self.precision), self.unit,
            round(self.perimeter(), self.precision), self.unit)

    def compactness(self):
        """4 pi area / perimeter^2: 1 for a circle, less for polygons."""
        p = self.perimeter()
        return 4 * math.pi * self.area() / (p * p)

    def __lt__(self, other):
        if not isinstance(other, Shape):
            return NotImplemented
        return self.area() < other.area()


def total_area(shapes):
    for s in shapes:
        if not isinstance(s, Shape):
            raise TypeError("not a shape: %r" % (s,))
    return sum(s.area() for s in shapes)
