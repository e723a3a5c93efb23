"""Temperature conversion between Celsius, Fahrenheit and Kelvin, and
parsing of readings such as "21.5C" or "70 F"."""

ABSOLUTE_ZERO_C = -273.15
_TO_C = {
    "C": lambda v: v,
    "F": lambda v: (v - 32) * 5 / 9,
    "K": lambda v: v + ABSOLUTE_ZERO_C,
}
_FROM_C = {
    "C": lambda c: c,
    "F": lambda c: c * 9 / 5 + 32,
    "K": lambda c: c - ABSOLUTE_ZERO_C,
}


def convert(value, src, dst):
    src, dst = src.upper(), dst.upper()
    if src not in _TO_C or dst not in _FROM_C:
        raise ValueError("unknown scale %s or %s" % (src, dst))
    celsius = _TO_C[src](value)
    if celsius < ABSOLUTE_ZERO_C:
        raise ValueError("below absolute zero")
    return round(_FROM_C[dst](celsius), 2)


def parse_reading(text):
    """(value, scale) of "21.5C", "70 F", "-3 c"."""
    text = text.strip()
    if len(text) < 2:
        raise ValueError("not a reading: %r" % text)
    scale = text[-1].upper()
    if scale not in _TO_C:
        raise ValueError("no scale in %r" % text)
    return float(text[:-1].strip()), scale


def comfort(celsius):
    """A word for an indoor temperature in Celsius."""
    if celsius < 18:
        return "cold"
    if celsius <= 24:
        return "comfortable"
    return "warm"
