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
    for _ in range(len(graph) - 1):
        changed = False
        for node, edges in graph.items():
            if node not in dist:
                continue
            for succ, weight in edges.items():
                if succ not in dist or dist[node] + weight < dist[succ]:
                    dist[succ] = dist[node] + weight
                    changed = True
        if not changed:
            break
    return dist
