import pytest

from node import Node
from detect_cycle import detect_cycle


def chain(values, close=False):
    """A list of the values; with close=True the last node links back to the head."""
    head = None
    for value in reversed(values):
        head = Node(value, head)
    if close and head is not None:
        last = head
        while last.successor is not None:
            last = last.successor
        last.successor = head
    return head


@pytest.mark.parametrize("values", [[1, 2, 3], [4, 5, 6, 7], [9]])
def test_no_cycle(values):
    assert detect_cycle(chain(values)) is False


@pytest.mark.parametrize("values", [[1, 2, 3, 4, 5], [8, 9]])
def test_cycle_back_to_head(values):
    assert detect_cycle(chain(values, close=True)) is True


def test_node_pointing_to_itself():
    node = Node(7)
    node.successor = node
    assert detect_cycle(node) is True
