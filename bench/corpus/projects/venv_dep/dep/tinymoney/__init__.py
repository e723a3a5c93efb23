"""Formats and parses amounts kept in minor units (cents)."""

__all__ = ["format_amount", "parse_amount"]


def format_amount(cents, currency="EUR"):
    sign = "-" if cents < 0 else ""
    units, minor = divmod(abs(cents), 100)
    grouped = "{:,}".format(units).replace(",", " ")
    return "%s%s.%02d %s" % (sign, grouped, minor, currency)


def parse_amount(text):
    """Cents of "12.50", "-3", "1 000.5"."""
    text = text.replace(" ", "")
    negative = text.startswith("-")
    whole, _, frac = text.lstrip("+-").partition(".")
    if not whole.isdigit() or (frac and not frac.isdigit()) or len(frac) > 2:
        raise ValueError("not an amount: %r" % text)
    cents = int(whole) * 100 + int(frac.ljust(2, "0") or 0)
    return -cents if negative else cents
