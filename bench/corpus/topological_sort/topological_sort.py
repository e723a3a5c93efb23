"""Topological ordering (Kahn's algorithm) with deterministic tie-breaking."""
import heapq


class CycleError(ValueError):
    """The dependency graph is not a DAG."""


def topological_sort(graph):
    """Order the nodes of graph (node -> successors) so every edge points forward.

    Among the nodes that are ready at the same time the smallest comes first.
    Raises CycleError if the graph has a cycle.
    """
    indegree = {node: 0 for node in graph}
    for targets in graph.values():
        for target in targets:
            indegree[target] = indegree.get(target, 0) + 1
    ready = [node for node, degree in indegree.items() if degree == 0]
    heapq.heapify(ready)
    order = []
    while ready:
        node = heapq.heappop(ready)
        order.append(node)
        for target in graph.get(node, ()):
            indegree[target] -= 1
            if indegree[target] == 0:
                heapq.heappush(ready, target)
    if len(order) != len(indegree):
        raise CycleError("graph has a cycle")
    return order


def build_order(tasks, dependencies):
    """Order tasks given (before, after) pairs."""
    graph = {task: [] for task in tasks}
    for before, after in dependencies:
        if before not in graph or after not in graph:
            raise KeyError(f"unknown task in ({before!r}, {after!r})")
        graph[before].append(after)
    return topological_sort(graph)


def is_topological(order, graph):
    """True if order places every node before all of its successors."""
    position = {node: index for index, node in enumerate(order)}
    return all(position[a] < position[b] for a in graph for b in graph[a])
