import pytest

from invoicing import Line, invoice_total, line_total
from invoicing.totals import _round_half_up


def test_round_half_up():
    assert _round_half_up(5, 10) == 1
    assert _round_half_up(4, 10) == 0
    assert _round_half_up(15, 10) == 2
    with pytest.raises(ValueError):
        _round_half_up(1, 0)


def test_line_total_with_quantity_and_discount():
    assert line_total(Line("pen", 199, 3)) == 597
    assert line_total(Line("pen", 199, 3, discount_pct=10)) == 537
    assert line_total(Line("gift", 500, 1, discount_pct=100)) == 0


@pytest.mark.parametrize("line", [Line("x", 100, -1),
                                  Line("x", 100, 1, discount_pct=101),
                                  Line("x", 100, 1, discount_pct=-1)])
def test_line_total_rejects(line):
    with pytest.raises(ValueError):
        line_total(line)


def test_invoice_with_tax_and_shipping():
    got = invoice_total([Line("a", 1000, 2), Line("b", 250)], tax_pct=20,
                        shipping_cents=500)
    assert got == {"subtotal": 2250, "shipping": 500, "tax": 550,
                   "total": 3300}


def test_free_shipping_threshold_is_inclusive():
    lines = [Line("a", 5000)]
    assert invoice_total(lines, free_shipping_from=5000,
                         shipping_cents=400)["shipping"] == 0
    assert invoice_total(lines, free_shipping_from=5001,
                         shipping_cents=400)["shipping"] == 400


def test_empty_invoice_has_no_shipping():
    assert invoice_total([], shipping_cents=400)["total"] == 0
