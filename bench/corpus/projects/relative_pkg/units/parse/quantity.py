"""Parses "12 km", "3.5kg", "-2 ft" into (value, unit)."""
from ..tables import UnknownUnit, lookup


def parse_quantity(text):
    text = text.strip()
    i = 0
    if i < len(text) and text[i] in "+-":
        i += 1
    digits = dots = 0
    while i < len(text) and (text[i].isdigit() or text[i] == "."):
        dots += text[i] == "."
        digits += text[i].isdigit()
        i += 1
    if digits == 0 or dots > 1:
        raise ValueError("no number in %r" % text)
    value = float(text[:i])
    unit = text[i:].strip()
    if not unit:
        raise UnknownUnit("no unit in %r" % text)
    lookup(unit)  # raises UnknownUnit for a unit nobody knows
    return value, unit
