import pytest

from dfs import connected_components, depth_first_search, has_cycle, preorder


@pytest.fixture(scope="module")
def directed():
    return {1: [2, 3], 2: [4], 3: [4, 5], 4: [6], 5: [], 6: [], 7: [1]}


@pytest.fixture(scope="module")
def undirected():
    edges = [(1, 2), (2, 3), (4, 5), (7, 8), (8, 9), (9, 7)]
    graph = {node: [] for node in range(1, 10)}
    for a, b in edges:
        graph[a].append(b)
        graph[b].append(a)
    return graph


@pytest.mark.parametrize("start, goal, expected", [
    (1, 6, True), (1, 5, True), (7, 6, True), (6, 1, False), (5, 4, False), (3, 3, True),
])
def test_reachable(directed, start, goal, expected):
    assert depth_first_search(directed, start, goal) is expected


def test_reachable_through_cycle():
    graph = {"a": ["b"], "b": ["c", "a"], "c": ["a", "d"], "d": []}
    assert depth_first_search(graph, "a", "d")
    assert not depth_first_search(graph, "d", "a")
    assert not depth_first_search(graph, "a", "z")


def test_preorder(directed):
    assert preorder(directed, 1) == [1, 2, 4, 6, 3, 5]
    assert preorder(directed, 5) == [5]


def test_components(undirected):
    assert connected_components(undirected) == [[1, 2, 3], [4, 5], [6], [7, 8, 9]]


@pytest.mark.parametrize("graph, expected", [
    ({}, False),
    ({1: []}, False),
    ({1: [1]}, True),
    ({1: [2], 2: [3], 3: []}, False),
    ({1: [2], 2: [3], 3: [1]}, True),
    ({1: [2, 3], 2: [4], 3: [4], 4: []}, False),
    ({1: [2], 2: [], 3: [4], 4: [5], 5: [3]}, True),
], ids=["empty", "single", "self-loop", "chain", "triangle", "diamond", "second-component"])
def test_has_cycle(graph, expected):
    assert has_cycle(graph) is expected
