"""Bank accounts with history, overdraft, transfers and CSV statements."""
import csv


class InsufficientFunds(Exception):
    """A withdrawal would take the balance below the overdraft limit."""


class Account:
    overdraft_limit = 0

    def __init__(self, owner, balance=0):
        if balance < 0:
            raise ValueError("opening balance cannot be negative")
        self.owner = owner
        self.balance = balance
        self.history = [("open", balance)]

    def deposit(self, amount):
        if amount <= 0:
            raise ValueError("deposit must be positive")
        self.balance += amount
        self.history.append(("deposit", amount))
        return self.balance

    def withdraw(self, amount):
        if amount <= 0:
            raise ValueError("withdrawal must be positive")
        if amount > self.balance + self.overdraft_limit:
            raise InsufficientFunds(f"{self.owner}: cannot withdraw {amount}")
        self.balance -= amount
        self.history.append(("withdraw", amount))
        return self.balance

    def transfer(self, other, amount):
        """Move amount to other; nothing changes if the withdrawal fails."""
        self.withdraw(amount)
        other.deposit(amount)

    def save(self, path):
        with open(path, "w", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle)
            writer.writerow(["owner", self.owner])
            for kind, amount in self.history:
                writer.writerow([kind, amount])

    @classmethod
    def load(cls, path):
        with open(path, newline="", encoding="utf-8") as handle:
            rows = list(csv.reader(handle))
        account = cls(rows[0][1], int(rows[1][1]))
        for kind, amount in rows[2:]:
            getattr(account, kind)(int(amount))
        return account


class OverdraftAccount(Account):
    overdraft_limit = 100
