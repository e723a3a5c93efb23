import pytest

from topological_sort import CycleError, build_order, is_topological, topological_sort


def test_chain():
    assert topological_sort({"a": ["b"], "b": ["c"], "c": []}) == ["a", "b", "c"]


def test_ties_broken_by_smallest():
    graph = {5: [11], 7: [11, 8], 3: [8, 10], 11: [2, 9, 10], 8: [9], 2: [], 9: [], 10: []}
    order = topological_sort(graph)
    assert order == [3, 5, 7, 8, 11, 2, 9, 10]
    assert is_topological(order, graph)


def test_nodes_only_as_targets():
    assert topological_sort({"x": ["y", "z"]}) == ["x", "y", "z"]


def test_empty():
    assert topological_sort({}) == []


@pytest.mark.parametrize("graph", [
    {1: [1]},
    {1: [2], 2: [1]},
    {1: [2], 2: [3], 3: [4], 4: [2]},
], ids=["self-loop", "two-cycle", "tail-cycle"])
def test_cycle_detected(graph):
    with pytest.raises(CycleError):
        topological_sort(graph)


def test_build_order():
    tasks = ["deploy", "test", "build", "lint", "fetch"]
    deps = [("fetch", "build"), ("build", "test"), ("lint", "test"), ("test", "deploy")]
    assert build_order(tasks, deps) == ["fetch", "build", "lint", "test", "deploy"]


def test_build_order_unknown_task():
    with pytest.raises(KeyError):
        build_order(["a"], [("a", "b")])


def test_is_topological():
    graph = {"a": ["b"], "b": []}
    assert is_topological(["a", "b"], graph)
    assert not is_topological(["b", "a"], graph)
