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
    dist = {}

    def visit(node, d):
        if node in dist and dist[node] <= d:
            return
        dist[node] = d
        for succ, weight in graph[node].items():
            visit(succ, d + weight)

    visit(source, 0)
    return dist
