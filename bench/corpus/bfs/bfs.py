"""Breadth-first search over adjacency-list graphs (dict: node -> neighbours)."""
from collections import deque


def breadth_first_search(graph, start, goal):
    """True if goal is reachable from start."""
    queue = deque([start])
    visited = {start}
    while queue:
        node = queue.popleft()
        if node == goal:
            return True
        for neighbour in graph.get(node, ()):
            if neighbour not in visited:
                visited.add(neighbour)
                queue.append(neighbour)
    return False


def shortest_path(graph, start, goal):
    """A path with the fewest edges from start to goal, or None."""
    parents = {start: None}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        if node == goal:
            path = []
            while node is not None:
                path.append(node)
                node = parents[node]
            return path[::-1]
        for neighbour in graph.get(node, ()):
            if neighbour not in parents:
                parents[neighbour] = node
                queue.append(neighbour)
    return None


def distances(graph, start):
    """Number of edges from start to every reachable node."""
    dist = {start: 0}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for neighbour in graph.get(node, ()):
            if neighbour not in dist:
                dist[neighbour] = dist[node] + 1
                queue.append(neighbour)
    return dist


def grid_steps(grid, start, goal):
    """Fewest 4-way moves through '.' cells of a list of strings, or -1."""
    rows, cols = len(grid), len(grid[0])
    seen = {start}
    frontier = [start]
    steps = 0
    while frontier:
        if goal in frontier:
            return steps
        following = []
        for r, c in frontier:
            for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                nr, nc = r + dr, c + dc
                if 0 <= nr < rows and 0 <= nc < cols and grid[nr][nc] == "." \
                        and (nr, nc) not in seen:
                    seen.add((nr, nc))
                    following.append((nr, nc))
        frontier = following
        steps += 1
    return -1
