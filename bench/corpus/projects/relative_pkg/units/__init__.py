"""Unit conversion for lengths and masses, from strings such as "3.5 km"."""
from .convert import convert, convert_text
from .tables import UnknownUnit

__all__ = ["convert", "convert_text", "UnknownUnit"]
