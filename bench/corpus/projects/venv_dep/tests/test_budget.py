import pytest

from budget import Budget


@pytest.fixture
def budget():
    return Budget({"food": "300", "fun": "50.5"})


def test_spend_returns_remaining(budget):
    assert budget.spend("food", "12.25") == 28775
    assert budget.spend("food", "0.75") == 28700


def test_spend_rejects(budget):
    with pytest.raises(KeyError):
        budget.spend("rent", "1")
    with pytest.raises(ValueError):
        budget.spend("food", "-1")
    with pytest.raises(ValueError):
        budget.spend("food", "0")


def test_over_budget(budget):
    budget.spend("fun", "50.50")
    assert budget.over_budget() == []
    budget.spend("fun", "0.01")
    budget.spend("food", "1 000")
    assert budget.over_budget() == ["food", "fun"]


def test_report(budget):
    budget.spend("fun", "60")
    assert budget.report() == ["food: 0.00 EUR / 300.00 EUR",
                               "fun: 60.00 EUR / 50.50 EUR !"]
