import unittest

from inventory.pricing import bulk_price, discount
from support import TestSuite


class DiscountTest(unittest.TestCase):
    def test_discount(self):
        self.assertEqual(discount(80.0, 25), 60.0)

    def test_discount_bounds(self):
        self.assertEqual(discount(10.0, 100), 0.0)
        self.assertEqual(discount(10.0, 0), 10.0)
        for bad in (-1, 101):
            with self.assertRaises(ValueError):
                discount(10.0, bad)


class BulkPriceCase(unittest.TestCase):
    """One bulk price; its quantity and price are given by load_tests."""

    def __init__(self, methodName="runTest", qty=None, want=None):
        super().__init__(methodName)
        self.qty, self.want = qty, want

    def test_price(self):
        self.assertEqual(bulk_price(2.0, self.qty), self.want)


def load_tests(loader, tests, pattern):
    suite = unittest.TestSuite()
    suite.addTests(loader.loadTestsFromTestCase(DiscountTest))
    suite.addTest(TestSuite(BulkPriceCase, "test_price",
                            [(9, 18.0), (10, 19.0), (100, 180.0)]))
    return suite
