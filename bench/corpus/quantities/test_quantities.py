import pytest

from quantities import Quantity, UnitMismatch, parse, total

ONE_KM = Quantity(1, "km")


def test_parse():
    q = parse(" 12.5 cm ")
    assert isinstance(q, Quantity)
    assert (q.value, q.unit) == (12.5, "cm")


@pytest.mark.parametrize("text, metres", [("1 km", 1000.0), ("250 cm", 2.5), ("5 mm", 0.005), ("3 m", 3.0)])
def test_to_metres(text, metres):
    assert parse(text).to("m").value == pytest.approx(metres)


def test_conversion_between_units():
    assert Quantity(2, "km").to("cm").value == pytest.approx(200000)
    assert Quantity(1500, "mm").to("m") == Quantity(1.5, "m")


def test_add_same_unit():
    s = Quantity(1, "m") + Quantity(2, "m")
    assert (s.value, s.unit) == (3, "m")


def test_add_mismatch():
    with pytest.raises(UnitMismatch, match="cannot add cm to m"):
        Quantity(1, "m") + Quantity(2, "cm")


def test_add_non_quantity():
    with pytest.raises(TypeError):
        Quantity(1, "m") + 1


def test_equality():
    assert Quantity(100, "cm") == Quantity(1, "m")
    assert Quantity(100, "cm") != Quantity(1.01, "m")
    assert Quantity(1, "m") != "1 m"


def test_unknown_unit():
    with pytest.raises(ValueError, match="unknown unit 'ft'"):
        Quantity(1, "ft")
    with pytest.raises(ValueError, match="unknown unit 'in'"):
        Quantity(1, "m").to("in")


def test_slots():
    with pytest.raises(AttributeError):
        Quantity(1, "m").colour = "red"


def test_repr():
    assert repr(Quantity(2.5, "km")) == "Quantity(2.5, 'km')"


def test_total_mixes_objects_and_strings():
    t = total([ONE_KM, "500 m", Quantity(50000, "cm")])
    assert isinstance(t, Quantity)
    assert t == Quantity(2, "km")
    assert t.unit == "m"
    assert total(["1 m", "1 m"], unit="cm").value == pytest.approx(200)
    assert total([]).value == 0


def test_total_rejects_other_types():
    with pytest.raises(TypeError, match="expected a Quantity, got int"):
        total([Quantity(1, "m"), 5])
