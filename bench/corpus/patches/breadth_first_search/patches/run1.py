def breadth_first_search(graph, start, goal):
    """Number of edges on a shortest path from start to goal in a directed graph given as
    {node: [neighbour, ...]}, or -1 when goal is unreachable."""
    frontier = [start]
    visited = {start}
    depth = 0
    while frontier:
        upcoming = []
        for node in frontier:
            if node == goal:
                return depth
            for neighbour in graph.get(node, []):
                if neighbour not in visited:
                    visited.add(neighbour)
                    upcoming.append(neighbour)
        frontier = upcoming
        depth += 1
    return -1
