"""Roman numerals, both ways.

>>> to_roman(1994)
'MCMXCIV'
>>> from_roman('mmxxiv')
2024
"""

_VALUES = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"),
           (90, "XC"), (50, "L"), (40, "XL"), (10, "X"), (9, "IX"),
           (5, "V"), (4, "IV"), (1, "I")]
_DIGITS = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}


def to_roman(n):
    """The numeral of 1 <= n <= 3999.

    >>> to_roman(4), to_roman(9), to_roman(14), to_roman(40)
    ('IV', 'IX', 'XIV', 'XL')
    >>> to_roman(3999)
    'MMMCMXCIX'
    >>> to_roman(0)
    Traceback (most recent call last):
    ...
    ValueError: 0 has no roman numeral
    """
    if not 0 < n < 4000:
        raise ValueError("%d has no roman numeral" % n)
    out = []
    for value, numeral in _VALUES:
        count, n = divmod(n, value)
        out.append(numeral * count)
    return "".join(out)


def from_roman(text):
    """The value of a numeral, subtractive pairs included; only canonical
    numerals are accepted.

    >>> from_roman('XLII')
    42
    >>> from_roman('IIII')
    Traceback (most recent call last):
    ...
    ValueError: not a canonical numeral: 'IIII'
    """
    text = text.upper()
    total = 0
    for i, ch in enumerate(text):
        if ch not in _DIGITS:
            raise ValueError("not a roman digit: %r" % ch)
        value = _DIGITS[ch]
        if i + 1 < len(text) and _DIGITS.get(text[i + 1], 0) > value:
            total -= value
        else:
            total += value
    if total <= 0 or to_roman(total) != text:
        raise ValueError("not a canonical numeral: %r" % text)
    return total
