def reachable(startnode, goalnode):
    """Whether goalnode can be reached from startnode by following
    successor edges. A node always reaches itself.

    startnode, goalnode: Node objects (node.py). The graph may have cycles,
    and values need not be unique: nodes are compared by identity.
    Returns True or False.
    """
    def walk(node, path):
        # Try every simple path out of node; path holds the nodes on the
        # current path so that a cycle is never followed twice.
        if node is goalnode:
            return True
        result = False
        for nxt in node.successors:
            if all(nxt is not p for p in path):
                if walk(nxt, path + [nxt]):
                    result = True
        return result

    return walk(startnode, [startnode])
