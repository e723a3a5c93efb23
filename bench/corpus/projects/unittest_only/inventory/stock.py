"""Stock levels by SKU."""


class OutOfStock(Exception):
    """More was taken than the shop has."""


class Stock:
    def __init__(self):
        self._levels = {}

    @classmethod
    def from_lines(cls, lines):
        """Reads "SKU QUANTITY" lines; blank lines and # comments are
        skipped, and a SKU met twice adds up."""
        stock = cls()
        for line in lines:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            sku, qty = line.split()
            stock.add(sku, int(qty))
        return stock

    def add(self, sku, qty):
        if qty <= 0:
            raise ValueError("quantity must be positive: %r" % qty)
        self._levels[sku] = self._levels.get(sku, 0) + qty

    def take(self, sku, qty):
        have = self._levels.get(sku, 0)
        if qty > have:
            raise OutOfStock(sku)
        left = have - qty
        if left == 0:
            del self._levels[sku]
        else:
            self._levels[sku] = left
        return left

    def level(self, sku):
        return self._levels.get(sku, 0)

    def skus(self):
        return sorted(self._levels)

    def low(self, threshold):
        """The SKUs with fewer than `threshold` left, in order."""
        return [s for s in self.skus() if self._levels[s] < threshold]
