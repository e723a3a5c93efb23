"""Temperatures: conversions and a comfort scale.

>>> round(to_fahrenheit(37.0), 1)
98.6
"""

FREEZING_C = 0.0
# (upper bound in Celsius, name), coldest first.
BANDS = ((10.0, "cold"), (18.0, "cool"), (25.0, "mild"))


def to_fahrenheit(celsius):
    """
    >>> to_fahrenheit(100)
    212.0
    >>> to_fahrenheit(-40)
    -40.0
    """
    return celsius * 9 / 5 + 32.0


def to_celsius(fahrenheit):
    """
    >>> to_celsius(212)
    100.0
    >>> to_celsius(32)
    0.0
    """
    return (fahrenheit - 32.0) * 5 / 9


def comfort(celsius):
    """The name of a temperature's band; "hot" above the last one.

    >>> [comfort(t) for t in (-5, 10, 17.9, 24, 25, 31)]
    ['cold', 'cool', 'cool', 'mild', 'hot', 'hot']
    """
    for upper, name in BANDS:
        if celsius < upper:
            return name
    return "hot"


class Thermometer:
    """Readings and their range.

    >>> t = Thermometer()
    >>> t.spread()
    Traceback (most recent call last):
        ...
    ValueError: no readings
    """

    def __init__(self):
        self.readings = []

    def record(self, celsius):
        """
        >>> t = Thermometer()
        >>> t.record(21.5)
        1
        >>> t.record(19.0)
        2
        """
        self.readings.append(celsius)
        return len(self.readings)

    def spread(self):
        """
        >>> t = Thermometer()
        >>> for c in (3.0, -2.5, 7.5): n = t.record(c)
        >>> t.spread()
        10.0
        """
        if not self.readings:
            raise ValueError("no readings")
        return max(self.readings) - min(self.readings)

    def frozen(self):
        """Whether any reading was at or below freezing.

        >>> t = Thermometer()
        >>> t.record(0.0)
        1
        >>> t.frozen()
        True
        """
        return any(c <= FREEZING_C for c in self.readings)
