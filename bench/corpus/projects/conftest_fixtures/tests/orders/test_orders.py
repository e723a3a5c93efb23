import pytest

from inventory import OutOfStock


@pytest.mark.stock
def test_ship_reduces_both(order):
    order.ship("apple", 12)
    assert order.on_hand["apple"] == 8
    assert order.reserved["apple"] == 0
    assert order.available("apple") == 8


def test_cannot_ship_more_than_reserved(order):
    with pytest.raises(OutOfStock, match="only 1 of fig reserved"):
        order.ship("fig", 2)


def test_release_never_goes_negative(order):
    order.release("fig", 5)
    assert order.reserved["fig"] == 0
    assert order.available("fig") == 20


def test_reorder_after_reservation(order):
    assert order.to_reorder() == {"apple": 12}
    order.reserve("fig", 17)
    assert order.to_reorder() == {"apple": 12, "fig": 2}


def test_module_scope_is_per_module(module_log):
    assert module_log == []
