import pytest

from version_order import InvalidVersion, Version, latest, parse

V1_5 = Version((1, 5))


@pytest.mark.parametrize("lo, hi", [
    ("1.0", "1.0.1"),
    ("1.0rc1", "1.0"),
    ("1.0a2", "1.0b1"),
    ("1.0b1", "1.0rc1"),
    ("1.0rc1", "1.0rc2"),
    ("0.9.9", "1.0a1"),
    ("1.2", "1.10"),
])
def test_total_order(lo, hi):
    a, b = parse(lo), parse(hi)
    assert a < b and b > a
    assert a <= b and b >= a
    assert not a >= b and not b <= a
    assert a != b


def test_trailing_zeros_are_equal():
    assert parse("1.0.0") == parse("1") == parse("1.0")
    assert parse("1.0.0") <= parse("1") >= parse("1.0")
    assert hash(parse("2.0")) == hash(parse("2"))
    assert len({parse("2.0"), parse("2"), parse("2.0.0")}) == 1


def test_sorting():
    texts = ["1.10", "1.2", "1.0rc1", "1.0", "0.1", "1.0b2"]
    assert [str(v) for v in sorted(map(parse, texts))] == [
        "0.1", "1b2", "1rc1", "1", "1.2", "1.10"]


def test_str_and_repr():
    assert str(parse("3.1.4")) == "3.1.4"
    assert str(parse(" 2.0rc3 ")) == "2rc3"
    assert repr(parse("1.5")) == "Version('1.5')"


def test_comparison_with_other_types():
    assert parse("1.0") != "1.0"
    assert (parse("1.0") == 1) is False
    with pytest.raises(TypeError, match="Expected a Version type"):
        parse("1.0") < "2.0"


@pytest.mark.parametrize("bad", ["", "1.", "v1.0", "1.0c1", "1.0rc", "a.b"])
def test_invalid(bad):
    with pytest.raises(InvalidVersion, match="invalid version"):
        parse(bad)


def test_prerelease_flag():
    assert parse("1.0a1").is_prerelease
    assert not parse("1.0").is_prerelease
    assert Version((1, 2), ("b", 3)) == parse("1.2b3")


def test_latest():
    texts = ["1.0", "2.0rc1", "1.5", "1.4.9"]
    assert latest(texts) == V1_5
    assert latest(texts) <= V1_5 < latest(texts, allow_pre=True)
    assert latest(texts, allow_pre=True) == parse("2.0rc1")
    assert latest(["3.0b1"]) is None
    assert latest([]) is None
