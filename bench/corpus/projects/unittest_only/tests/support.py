"""Helpers of the test modules, imported as `support`: unittest's
discovery of tests/ puts tests/ first on the import path."""
import unittest

SHOP = """
# the shop's opening stock
apple 5
pear 12

apple 3
plum 1
"""


class TestSuite(unittest.TestSuite):
    """One test method of a case class, run once per set of arguments.
    Named like a test class and with an __init__ of its own: a helper,
    not a test."""

    def __init__(self, case_class, method, cases):
        super().__init__(case_class(method, *args) for args in cases)
