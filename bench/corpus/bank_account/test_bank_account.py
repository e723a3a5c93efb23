import pytest

from bank_account import Account, InsufficientFunds, OverdraftAccount


@pytest.fixture
def alice():
    return Account("alice", 100)


@pytest.fixture
def bob():
    return OverdraftAccount("bob")


def test_opening(alice, bob):
    assert alice.balance == 100
    assert bob.balance == 0
    assert alice.history == [("open", 100)]


def test_negative_opening():
    with pytest.raises(ValueError):
        Account("eve", -1)


def test_deposit_and_withdraw(alice):
    assert alice.deposit(50) == 150
    assert alice.withdraw(30) == 120
    assert alice.history == [("open", 100), ("deposit", 50), ("withdraw", 30)]


@pytest.mark.parametrize("amount", [0, -5], ids=["zero", "negative"])
def test_invalid_amounts(alice, amount):
    with pytest.raises(ValueError):
        alice.deposit(amount)
    with pytest.raises(ValueError):
        alice.withdraw(amount)


def test_withdraw_whole_balance(alice):
    assert alice.withdraw(100) == 0
    with pytest.raises(InsufficientFunds, match="alice"):
        alice.withdraw(1)


def test_overdraft(bob):
    assert bob.withdraw(100) == -100
    with pytest.raises(InsufficientFunds):
        bob.withdraw(1)


def test_transfer(alice, bob):
    alice.transfer(bob, 60)
    assert (alice.balance, bob.balance) == (40, 60)


def test_failed_transfer_changes_nothing(alice, bob):
    with pytest.raises(InsufficientFunds):
        alice.transfer(bob, 101)
    assert (alice.balance, bob.balance) == (100, 0)


def test_save_and_load(tmp_path, alice):
    alice.deposit(25)
    alice.withdraw(5)
    path = tmp_path / "alice.csv"
    alice.save(path)
    assert path.read_text(encoding="utf-8").splitlines() == [
        "owner,alice", "open,100", "deposit,25", "withdraw,5"]
    copy = Account.load(path)
    assert copy.owner == "alice"
    assert copy.balance == 120
    assert copy.history == alice.history
