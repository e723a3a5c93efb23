def reachable(startnode, goalnode):
    """Whether goalnode can be reached from startnode by following
    successor edges. A node always reaches itself.

    startnode, goalnode: Node objects (node.py). The graph may have cycles,
    and values need not be unique: nodes are compared by identity.
    Returns True or False.
    """
    visited = set()
    pending = [startnode]
    while pending:
        node = pending.pop()
        if node is goalnode:
            return True
        if node in visited:
            continue
        visited.add(node)
        pending = list(node.successors)
    return False
