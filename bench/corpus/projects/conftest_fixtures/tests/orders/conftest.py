import pytest


@pytest.fixture
def order(stocked):
    """An order of 12 apples and 1 fig, reserved."""
    stocked.reserve("apple", 12)
    stocked.reserve("fig", 1)
    return stocked
