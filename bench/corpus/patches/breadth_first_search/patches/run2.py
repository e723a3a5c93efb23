from collections import deque


def breadth_first_search(graph, start, goal):
    """Number of edges on a shortest path from start to goal in a directed graph given as
    {node: [neighbour, ...]}, or -1 when goal is unreachable."""
    queue = deque([(start, 0)])
    seen = {start}
    while queue:
        node, dist = queue.popleft()
        if node == goal:
            return dist
        for nxt in graph.get(node, []):
            if nxt not in seen:
                seen.add(nxt)
                queue.append((nxt, dist + 1))
    return -1
