import pytest

from dijkstra import INFINITY, dijkstra, shortest_path


@pytest.fixture
def roads():
    return {
        "A": {"B": 7, "C": 9, "F": 14},
        "B": {"A": 7, "C": 10, "D": 15},
        "C": {"A": 9, "B": 10, "D": 11, "F": 2},
        "D": {"B": 15, "C": 11, "E": 6},
        "E": {"D": 6, "F": 9},
        "F": {"A": 14, "C": 2, "E": 9},
        "G": {"A": 1},
    }


def test_all_distances(roads):
    assert dijkstra(roads, "A") == {"A": 0, "B": 7, "C": 9, "D": 20, "E": 20, "F": 11}


def test_source_only():
    assert dijkstra({"x": {}}, "x") == {"x": 0}
    assert dijkstra({}, "q") == {"q": 0}


def test_zero_weights():
    graph = {1: {2: 0}, 2: {3: 0}, 3: {}}
    assert dijkstra(graph, 1) == {1: 0, 2: 0, 3: 0}


def test_negative_weight_rejected():
    with pytest.raises(ValueError, match="negative"):
        dijkstra({1: {2: -1}}, 1)


@pytest.mark.parametrize("target, distance, path", [
    ("A", 0, ["A"]),
    ("B", 7, ["A", "B"]),
    ("E", 20, ["A", "C", "F", "E"]),
    ("D", 20, ["A", "C", "D"]),
    ("F", 11, ["A", "C", "F"]),
], ids=["self", "direct", "via-two", "via-one", "detour"])
def test_shortest_path(roads, target, distance, path):
    assert shortest_path(roads, "A", target) == (distance, path)


def test_unreachable(roads):
    assert shortest_path(roads, "A", "G") == (INFINITY, [])
    assert "G" not in dijkstra(roads, "A")


def test_cheaper_long_path_wins():
    graph = {"s": {"t": 10, "a": 1}, "a": {"b": 1}, "b": {"t": 1}, "t": {}}
    assert shortest_path(graph, "s", "t") == (3, ["s", "a", "b", "t"])
    assert dijkstra(graph, "s")["t"] == 3


def test_stale_heap_entries_are_skipped():
    # "a" is pushed twice (5, then 2); the stale (5, "a") is popped before "c",
    # whose successor "d" is only found after "c" is expanded
    graph = {"s": {"a": 5, "b": 1, "c": 10}, "b": {"a": 1}, "a": {}, "c": {"d": 1}}
    assert dijkstra(graph, "s") == {"s": 0, "a": 2, "b": 1, "c": 10, "d": 11}
    assert shortest_path(graph, "s", "d") == (11, ["s", "c", "d"])
