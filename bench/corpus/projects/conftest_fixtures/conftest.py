import pytest

from inventory import Inventory

pytest_plugins = ["inventory_plugin"]


@pytest.fixture(scope="session")
def price_list():
    return {"apple": 30, "pear": 45, "fig": 120}


@pytest.fixture(scope="module")
def module_log():
    # One list per test module: tests of a module may append to it.
    return []


@pytest.fixture
def stocked(price_list):
    inv = Inventory(reorder_levels={"apple": 10, "fig": 2})
    for sku in price_list:
        inv.receive(sku, 20)
    return inv
