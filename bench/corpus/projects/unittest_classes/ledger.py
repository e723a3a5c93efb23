"""Double-entry bookkeeping: balanced journal entries posted to accounts,
a trial balance and account statements."""
from collections import defaultdict


class Unbalanced(ValueError):
    pass


class Ledger:
    def __init__(self):
        self.balances = defaultdict(int)
        self.journal = []

    def post(self, memo, debits, credits):
        """debits and credits map account -> amount (positive cents); the
        two must sum to the same total."""
        if not debits or not credits:
            raise Unbalanced("an entry needs a debit and a credit")
        for amount in list(debits.values()) + list(credits.values()):
            if amount <= 0:
                raise ValueError("amounts must be positive")
        if sum(debits.values()) != sum(credits.values()):
            raise Unbalanced(memo)
        for account, amount in debits.items():
            self.balances[account] += amount
        for account, amount in credits.items():
            self.balances[account] -= amount
        self.journal.append((memo, dict(debits), dict(credits)))
        return len(self.journal)

    def trial_balance(self):
        """(total debit balances, total credit balances): equal when the
        books are consistent."""
        dr = sum(b for b in self.balances.values() if b > 0)
        cr = -sum(b for b in self.balances.values() if b < 0)
        return dr, cr

    def statement(self, account):
        """Running balance of one account, one (memo, change, balance) per
        entry that touched it."""
        rows, running = [], 0
        for memo, debits, credits in self.journal:
            change = debits.get(account, 0) - credits.get(account, 0)
            if change:
                running += change
                rows.append((memo, change, running))
        return rows
