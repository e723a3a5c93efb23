"""Depth-first search: reachability, preorder, components, cycle detection."""

WHITE, GREY, BLACK = 0, 1, 2


def depth_first_search(graph, start, goal, visited=None):
    """True if goal is reachable from start (recursive DFS)."""
    if visited is None:
        visited = set()
    if start == goal:
        return True
    visited.add(start)
    return any(depth_first_search(graph, nxt, goal, visited)
               for nxt in graph.get(start, ()) if nxt not in visited)


def preorder(graph, start):
    """Nodes in the order an iterative DFS first visits them."""
    order = []
    seen = set()
    stack = [start]
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        order.append(node)
        # push in reverse so the first neighbour is visited first
        for nxt in reversed(graph.get(node, ())):
            if nxt not in seen:
                stack.append(nxt)
    return order


def connected_components(graph):
    """Components of an undirected graph, each sorted, in order of their least node."""
    seen = set()
    components = []
    for node in sorted(graph):
        if node in seen:
            continue
        component = preorder(graph, node)
        seen.update(component)
        components.append(sorted(component))
    return components


def has_cycle(graph):
    """True if the directed graph contains a cycle (three-colour DFS)."""
    color = {node: WHITE for node in graph}

    def visit(node):
        color[node] = GREY
        for nxt in graph.get(node, ()):
            state = color.get(nxt, WHITE)
            if state == GREY:
                return True
            if state == WHITE and visit(nxt):
                return True
        color[node] = BLACK
        return False

    return any(color[node] == WHITE and visit(node) for node in list(graph))
