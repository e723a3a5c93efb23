import pytest

from units import UnknownUnit, convert, convert_text
from units.parse import parse_quantity
from units.tables import lookup


def test_lookup_aliases_and_case():
    assert lookup("Feet") == ("length", 0.3048)
    assert lookup("kg") == ("mass", 1.0)
    with pytest.raises(UnknownUnit):
        lookup("parsec")


@pytest.mark.parametrize("text, expected", [
    ("12 km", (12.0, "km")), ("3.5kg", (3.5, "kg")),
    ("-2 ft", (-2.0, "ft")), ("+.5 m", (0.5, "m")),
])
def test_parse_quantity(text, expected):
    assert parse_quantity(text) == expected


@pytest.mark.parametrize("text", ["km", "1.2.3 m", "-", ""])
def test_parse_quantity_needs_a_number(text):
    with pytest.raises(ValueError):
        parse_quantity(text)


def test_parse_quantity_needs_a_known_unit():
    with pytest.raises(UnknownUnit):
        parse_quantity("5")
    with pytest.raises(UnknownUnit):
        parse_quantity("5 furlongs")


def test_convert():
    assert convert(1, "mi", "km", 3) == 1.609
    assert convert(2, "lb", "kg", 4) == 0.9072
    assert convert(1500, "mm", "m") == 1.5


def test_convert_refuses_mixed_dimensions():
    with pytest.raises(ValueError, match="cannot convert length to mass"):
        convert(1, "m", "kg")


def test_convert_text():
    assert convert_text("3 feet", "in") == 36.0
