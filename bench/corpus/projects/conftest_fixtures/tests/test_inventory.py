import pytest

from inventory import Inventory, OutOfStock


@pytest.mark.stock
def test_receive_and_available(stocked):
    assert stocked.available("apple") == 20
    stocked.receive("apple", 5)
    assert stocked.available("apple") == 25
    with pytest.raises(ValueError):
        stocked.receive("apple", 0)


@pytest.mark.stock
def test_reserve_limits(stocked):
    stocked.reserve("pear", 20)
    assert stocked.available("pear") == 0
    with pytest.raises(OutOfStock):
        stocked.reserve("pear", 1)


@pytest.mark.pricing
def test_value_uses_session_prices(stocked, price_list):
    assert stocked.value(price_list) == 20 * (30 + 45 + 120)


def test_reorder_report():
    inv = Inventory(reorder_levels={"a": 5, "b": 3})
    inv.receive("a", 5)
    inv.receive("b", 4)
    assert inv.to_reorder() == {"a": 5}


def test_plugin_option(warehouse_name, module_log):
    module_log.append(warehouse_name)
    assert warehouse_name == "main"
