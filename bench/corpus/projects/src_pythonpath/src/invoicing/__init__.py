"""Invoice arithmetic in integer cents."""
from invoicing.totals import Line, invoice_total, line_total

__all__ = ["Line", "invoice_total", "line_total"]
