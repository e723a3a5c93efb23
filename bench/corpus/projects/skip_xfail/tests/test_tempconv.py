import sys

import pytest

from tempconv import comfort, convert, parse_reading


def test_convert_known_points():
    assert convert(100, "C", "F") == 212
    assert convert(32, "f", "c") == 0
    assert convert(0, "K", "C") == -273.15
    assert convert(-40, "F", "C") == -40


def test_convert_rejects():
    with pytest.raises(ValueError):
        convert(-500, "C", "K")
    with pytest.raises(ValueError):
        convert(1, "C", "R")


def test_parse_reading():
    assert parse_reading(" 21.5C") == (21.5, "C")
    assert parse_reading("70 f") == (70.0, "F")
    with pytest.raises(ValueError):
        parse_reading("7")
    with pytest.raises(ValueError):
        parse_reading("70 X")


@pytest.mark.parametrize("c, word", [(17.9, "cold"), (18, "comfortable"),
                                     (24, "comfortable"), (24.1, "warm")])
def test_comfort(c, word):
    assert comfort(c) == word


@pytest.mark.skip(reason="Rankine is not supported yet")
def test_rankine():
    assert convert(0, "C", "R") == 491.67


@pytest.mark.skipif(sys.version_info < (3, 0), reason="needs Python 3")
def test_skipif_false_runs():
    assert convert(20, "C", "K") == 293.15


@pytest.mark.skipif(sys.platform != "win32", reason="Windows only")
def test_skipif_true_skips():
    assert convert(0, "C", "F") == 32


def test_skip_at_run_time():
    pytest.importorskip("a_module_nobody_installed")


@pytest.mark.xfail(reason="float output is rounded to 2 digits")
def test_xfail_fails():
    assert convert(1, "F", "C") == -17.222


@pytest.mark.xfail(reason="might be exact", strict=False)
def test_xfail_passes_not_strict():
    assert convert(212, "F", "C") == 100


@pytest.mark.xfail(strict=True, raises=ValueError,
                   reason="scales are single letters")
def test_xfail_strict_fails():
    parse_reading("20 deg")
