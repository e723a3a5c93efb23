"""Conversion between units of one dimension."""
from .parse import parse_quantity
from .tables import lookup


def convert(value, from_unit, to_unit, digits=6):
    """value in from_unit expressed in to_unit, rounded to digits."""
    dim_a, fa = lookup(from_unit)
    dim_b, fb = lookup(to_unit)
    if dim_a != dim_b:
        raise ValueError("cannot convert %s to %s" % (dim_a, dim_b))
    return round(value * fa / fb, digits)


def convert_text(text, to_unit, digits=6):
    value, unit = parse_quantity(text)
    return convert(value, unit, to_unit, digits)
