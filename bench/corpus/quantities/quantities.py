"""Lengths with units: Quantity objects, checked with isinstance wherever
they meet other values."""
import logging

__all__ = ["Quantity", "UnitMismatch", "parse", "total"]
__version__ = "1.2.0"

log = logging.getLogger("quantities")

FACTORS = {"mm": 0.001, "cm": 0.01, "m": 1.0, "km": 1000.0}


class UnitMismatch(ValueError):
    pass


class Quantity:
    __slots__ = ("value", "unit")

    def __init__(self, value, unit):
        if unit not in FACTORS:
            raise ValueError("unknown unit %r" % unit)
        self.value = value
        self.unit = unit

    def to(self, unit):
        if unit not in FACTORS:
            raise ValueError("unknown unit %r" % unit)
        return Quantity(self.value * FACTORS[self.unit] / FACTORS[unit], unit)

    def __add__(self, other):
        if not isinstance(other, Quantity):
            return NotImplemented
        if other.unit != self.unit:
            raise UnitMismatch("cannot add %s to %s" % (other.unit, self.unit))
        return Quantity(self.value + other.value, self.unit)

    def __eq__(self, other):
        if not isinstance(other, Quantity):
            return NotImplemented
        return abs(self.to("m").value - other.to("m").value) < 1e-9

    def __repr__(self):
        return "Quantity(%r, %r)" % (self.value, self.unit)


def parse(text):
    """'12.5 cm' -> Quantity(12.5, 'cm')."""
    number, _, unit = text.strip().partition(" ")
    return Quantity(float(number), unit.strip())


def total(items, unit="m"):
    """Sum of Quantity objects or strings, in unit."""
    acc = Quantity(0.0, unit)
    for item in items:
        if isinstance(item, str):
            item = parse(item)
        if not isinstance(item, Quantity):
            raise TypeError("expected a Quantity, got %s" % type(item).__name__)
        log.debug("adding %r", item)
        acc = acc + item.to(unit)
    return acc
