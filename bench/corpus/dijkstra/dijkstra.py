"""Dijkstra's single-source shortest paths on weighted directed graphs.

graph: dict node -> dict neighbour -> non-negative weight.
"""
import heapq

INFINITY = float("inf")


def dijkstra(graph, source):
    """Distance from source to every reachable node."""
    dist = {source: 0}
    heap = [(0, source)]
    done = set()
    while heap:
        d, node = heapq.heappop(heap)
        if node in done:
            continue
        done.add(node)
        for nbr, weight in graph.get(node, {}).items():
            if weight < 0:
                raise ValueError("negative edge weight")
            candidate = d + weight
            if candidate < dist.get(nbr, INFINITY):
                dist[nbr] = candidate
                heapq.heappush(heap, (candidate, nbr))
    return dist


def shortest_path(graph, source, target):
    """(distance, path) of a shortest path, or (INFINITY, []) if unreachable."""
    dist = {source: 0}
    previous = {}
    heap = [(0, source)]
    while heap:
        d, node = heapq.heappop(heap)
        if node == target:
            break
        if d > dist[node]:
            continue
        for nbr, weight in graph.get(node, {}).items():
            candidate = d + weight
            if candidate < dist.get(nbr, INFINITY):
                dist[nbr] = candidate
                previous[nbr] = node
                heapq.heappush(heap, (candidate, nbr))
    if target not in dist:
        return INFINITY, []
    path = [target]
    while path[-1] != source:
        path.append(previous[path[-1]])
    return dist[target], path[::-1]
