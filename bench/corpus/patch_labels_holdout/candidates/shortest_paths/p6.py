import heapq

INF = float("inf")


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
    dist = {source: 0}
    heap = [(0, source)]
    visited = set()
    while heap:
        d, node = heapq.heappop(heap)
        if node in visited:
            continue
        visited.add(node)
        for succ, weight in graph[node].items():
            nd = d + weight
            if nd < (dist.get(succ) or INF):
                dist[succ] = nd
                heapq.heappush(heap, (nd, succ))
    return dist
