"""Prices: discounts for quantity."""

# (from this many items, percent off), largest first.
TIERS = ((100, 10), (10, 5))


def discount(total, percent):
    if percent < 0 or percent > 100:
        raise ValueError("percent out of range: %r" % percent)
    return round(total * (100 - percent) / 100, 2)


def bulk_price(unit, qty):
    """The price of `qty` items: 5% off from 10, 10% off from 100."""
    total = unit * qty
    for at_least, percent in TIERS:
        if qty >= at_least:
            return discount(total, percent)
    return total
