import pytest

from node import Node
from reverse_list import reverse_list


def chain(values):
    head = None
    for value in reversed(values):
        head = Node(value, head)
    return head


def values_of(head):
    out = []
    while head is not None:
        out.append(head.value)
        head = head.successor
    return out


@pytest.mark.parametrize("values", [[1, 2, 3], [4, 5], [6, 7, 8, 9]])
def test_reverses(values):
    assert values_of(reverse_list(chain(values))) == values[::-1]


def test_single_node():
    head = Node("x")
    assert values_of(reverse_list(head)) == ["x"]
