from shortest_paths import shortest_paths


def test_chain():
    graph = {"a": {"b": 2}, "b": {"c": 3}, "c": {"d": 1}, "d": {}}
    assert shortest_paths(graph, "a") == {"a": 0, "b": 2, "c": 5, "d": 6}


def test_cheaper_detour():
    graph = {"s": {"t": 10, "u": 1}, "u": {"v": 2}, "v": {"t": 3}, "t": {}}
    assert shortest_paths(graph, "s") == {"s": 0, "t": 6, "u": 1, "v": 3}


def test_cycle():
    graph = {"q": {"r": 1, "s": 5}, "r": {"s": 1}, "s": {"r": 2}}
    assert shortest_paths(graph, "q") == {"q": 0, "r": 1, "s": 2}


def test_single_node():
    assert shortest_paths({"x": {}}, "x") == {"x": 0}
