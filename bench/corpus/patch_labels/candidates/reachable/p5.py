def reachable(startnode, goalnode):
    """Whether goalnode can be reached from startnode by following
    successor edges. A node always reaches itself.

    startnode, goalnode: Node objects (node.py). The graph may have cycles,
    and values need not be unique: nodes are compared by identity.
    Returns True or False.
    """
    # Collect everything reachable from startnode, then look the goal up.
    found = [startnode]
    known = {startnode}
    index = 0
    while index < len(found):
        for nxt in found[index].successors:
            if nxt not in known:
                known.add(nxt)
                found.append(nxt)
        index += 1
    return goalnode in known
