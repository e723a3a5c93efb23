import heapq


def shortest_paths(graph, source):
    """
    Shortest path lengths from one node of a weighted directed graph.

    Input:
        graph: a dict mapping every node (a str) to a dict {successor: weight}
            of its outgoing edges. Weights are non-negative ints (0 allowed).
            Every successor is itself a key of graph. Cycles are allowed.
        source: a key of graph.

    Output:
        A dict mapping every node reachable from source (source included,
        at distance 0) to the length of a shortest path from source to it
        (an int). Nodes that source cannot reach are left out.
        graph is not modified.
    """
    best = {source: 0}
    frontier = [(0, source)]
    while frontier:
        d, node = heapq.heappop(frontier)
        if d > best[node]:
            continue
        for succ, weight in graph[node].items():
            candidate = d + weight
            if candidate < best.get(succ, candidate + 1):
                best[succ] = candidate
                heapq.heappush(frontier, (candidate, succ))
    return best
