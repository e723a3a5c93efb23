import pytest

from bfs import breadth_first_search, distances, grid_steps, shortest_path


@pytest.fixture(scope="module")
def graph():
    return {
        "a": ["b", "c"],
        "b": ["d"],
        "c": ["d", "e"],
        "d": ["f"],
        "e": ["f"],
        "f": [],
        "g": ["a"],
        "x": ["y"],
        "y": ["x"],
    }


@pytest.mark.parametrize("start, goal, expected", [
    ("a", "f", True), ("a", "a", True), ("f", "a", False), ("g", "e", True),
    ("x", "a", False), ("x", "y", True), ("z", "z", True), ("z", "a", False),
])
def test_reachable(graph, start, goal, expected):
    assert breadth_first_search(graph, start, goal) is expected


def test_shortest_path(graph):
    assert shortest_path(graph, "a", "f") == ["a", "b", "d", "f"]
    assert shortest_path(graph, "g", "e") == ["g", "a", "c", "e"]
    assert shortest_path(graph, "a", "a") == ["a"]
    assert shortest_path(graph, "f", "a") is None


def test_cycle_terminates(graph):
    assert shortest_path(graph, "x", "a") is None
    assert breadth_first_search(graph, "y", "q") is False


def test_distances(graph):
    assert distances(graph, "a") == {"a": 0, "b": 1, "c": 1, "d": 2, "e": 2, "f": 3}
    assert distances(graph, "x") == {"x": 0, "y": 1}


GRID = [
    "..#....",
    ".##.##.",
    "...#...",
    "#.....#",
]


@pytest.mark.parametrize("start, goal, steps", [
    ((0, 0), (0, 0), 0),
    ((0, 0), (2, 0), 2),
    ((0, 0), (0, 6), 12),
    ((0, 0), (3, 5), 8),
    ((0, 0), (1, 3), 16),
], ids=["same", "down", "far-corner", "bottom", "pocket"])
def test_grid_steps(start, goal, steps):
    assert grid_steps(GRID, start, goal) == steps


def test_grid_unreachable():
    assert grid_steps([".#.", "##.", "..."], (0, 0), (2, 2)) == -1
