"""A small stock ledger: receive, reserve, release and ship items, with a
reorder report."""


class OutOfStock(Exception):
    pass


class Inventory:
    def __init__(self, reorder_levels=None):
        self.on_hand = {}
        self.reserved = {}
        self.reorder_levels = dict(reorder_levels or {})

    def receive(self, sku, qty):
        if qty <= 0:
            raise ValueError("quantity must be positive")
        self.on_hand[sku] = self.on_hand.get(sku, 0) + qty

    def available(self, sku):
        return self.on_hand.get(sku, 0) - self.reserved.get(sku, 0)

    def reserve(self, sku, qty):
        if qty > self.available(sku):
            raise OutOfStock(sku)
        self.reserved[sku] = self.reserved.get(sku, 0) + qty

    def release(self, sku, qty):
        held = self.reserved.get(sku, 0)
        self.reserved[sku] = max(0, held - qty)

    def ship(self, sku, qty):
        """Ships reserved items; they leave both reserved and on hand."""
        if qty > self.reserved.get(sku, 0):
            raise OutOfStock("only %d of %s reserved"
                             % (self.reserved.get(sku, 0), sku))
        self.reserved[sku] -= qty
        self.on_hand[sku] -= qty

    def to_reorder(self):
        """SKUs whose available stock is at or below their reorder level,
        with the quantity that brings them back to twice the level."""
        out = {}
        for sku, level in sorted(self.reorder_levels.items()):
            avail = self.available(sku)
            if avail <= level:
                out[sku] = 2 * level - avail
        return out

    def value(self, prices):
        return sum(prices[sku] * qty for sku, qty in self.on_hand.items())
