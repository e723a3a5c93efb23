def reachable(startnode, goalnode):
    """Whether goalnode can be reached from startnode by following
    successor edges. A node always reaches itself.

    startnode, goalnode: Node objects (node.py). The graph may have cycles,
    and values need not be unique: nodes are compared by identity.
    Returns True or False.
    """
    stack = [startnode]
    seen = set()
    while stack:
        node = stack.pop()
        if node.value == goalnode.value:
            return True
        if id(node) in seen:
            continue
        seen.add(id(node))
        stack.extend(node.successors)
    return False
