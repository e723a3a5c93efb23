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
    finished = set()
    while True:
        best = None
        for node, d in dist.items():
            if node not in finished and (best is None or d < dist[best]):
                best = node
        if best is None:
            return dist
        finished.add(best)
        for succ, weight in graph[best].items():
            if succ not in dist or dist[best] + weight < dist[succ]:
                dist[succ] = dist[best] + weight
