"""Monthly budget envelopes: spending against limits, with amounts read
and printed through the tinymoney package (installed in the venv)."""
from tinymoney import format_amount, parse_amount


class Budget:
    def __init__(self, limits):
        """limits: category -> amount text, e.g. {"food": "300"}."""
        self.limits = {c: parse_amount(a) for c, a in limits.items()}
        self.spent = {c: 0 for c in self.limits}

    def spend(self, category, amount_text):
        if category not in self.limits:
            raise KeyError(category)
        cents = parse_amount(amount_text)
        if cents <= 0:
            raise ValueError("spending must be positive")
        self.spent[category] += cents
        return self.remaining(category)

    def remaining(self, category):
        return self.limits[category] - self.spent[category]

    def over_budget(self):
        return sorted(c for c in self.limits if self.remaining(c) < 0)

    def report(self):
        """One line per category: spent / limit, and a mark when over."""
        lines = []
        for c in sorted(self.limits):
            mark = " !" if self.remaining(c) < 0 else ""
            lines.append("%s: %s / %s%s" % (c, format_amount(self.spent[c]),
                                            format_amount(self.limits[c]),
                                            mark))
        return lines
