from node import Node
from reachable import reachable


def build():
    """a -> b, c;  b -> d;  c -> e;  e -> a (a cycle);  f -> a."""
    a, b, c, d, e, f = (Node(v) for v in "abcdef")
    a.successors = [b, c]
    b.successors = [d]
    c.successors = [e]
    e.successors = [a]
    f.successors = [a]
    return a, b, c, d, e, f


def test_goal_in_first_branch():
    a, b, c, d, e, f = build()
    assert reachable(a, d) is True


def test_goal_in_second_branch():
    a, b, c, d, e, f = build()
    assert reachable(a, e) is True


def test_node_reaches_itself():
    a, b, c, d, e, f = build()
    assert reachable(c, c) is True


def test_leaf_reaches_nothing():
    a, b, c, d, e, f = build()
    assert reachable(d, a) is False


def test_unconnected_nodes():
    assert reachable(Node("x"), Node("y")) is False
