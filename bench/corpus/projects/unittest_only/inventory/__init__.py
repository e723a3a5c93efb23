"""A small shop's stock and prices."""
