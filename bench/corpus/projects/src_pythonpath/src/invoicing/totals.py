"""Line and invoice totals, kept in integer cents so rounding is explicit."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Line:
    description: str
    unit_cents: int
    quantity: int = 1
    discount_pct: int = 0  # 0..100, applied to the line before tax


def _round_half_up(numerator, denominator):
    """numerator / denominator rounded to the nearest integer, halves up."""
    if denominator <= 0:
        raise ValueError("denominator must be positive")
    q, r = divmod(numerator, denominator)
    if 2 * r >= denominator:
        q += 1
    return q


def line_total(line):
    """The line's price after its discount, in cents."""
    if line.quantity < 0:
        raise ValueError("negative quantity")
    if not 0 <= line.discount_pct <= 100:
        raise ValueError("discount must be between 0 and 100")
    gross = line.unit_cents * line.quantity
    return _round_half_up(gross * (100 - line.discount_pct), 100)


def invoice_total(lines, tax_pct=0, free_shipping_from=None,
                  shipping_cents=0):
    """A dict with subtotal, shipping, tax and total (all in cents).
    Shipping is waived when the subtotal reaches free_shipping_from; tax
    applies to subtotal and shipping together."""
    subtotal = sum(line_total(line) for line in lines)
    if free_shipping_from is not None and subtotal >= free_shipping_from:
        shipping = 0
    else:
        shipping = shipping_cents if lines else 0
    tax = _round_half_up((subtotal + shipping) * tax_pct, 100)
    return {
        "subtotal": subtotal,
        "shipping": shipping,
        "tax": tax,
        "total": subtotal + shipping + tax,
    }
