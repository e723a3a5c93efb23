"""Unit factors against a base unit per dimension, and their aliases."""


class UnknownUnit(ValueError):
    pass


FACTORS = {
    "length": {"mm": 0.001, "cm": 0.01, "m": 1.0, "km": 1000.0,
               "in": 0.0254, "ft": 0.3048, "mi": 1609.344},
    "mass": {"g": 0.001, "kg": 1.0, "t": 1000.0, "lb": 0.45359237,
             "oz": 0.028349523125},
}

ALIASES = {"meter": "m", "meters": "m", "metre": "m", "kilometre": "km",
           "inch": "in", "inches": "in", "foot": "ft", "feet": "ft",
           "mile": "mi", "miles": "mi", "gram": "g", "grams": "g",
           "kilo": "kg", "pound": "lb", "pounds": "lb", "ounce": "oz"}


def lookup(unit):
    """(dimension, factor) of a unit name or alias."""
    name = ALIASES.get(unit.lower(), unit.lower())
    for dimension, table in FACTORS.items():
        if name in table:
            return dimension, table[name]
    raise UnknownUnit(unit)
