from collections import deque


def reachable(startnode, goalnode):
    """Whether goalnode can be reached from startnode by following
    successor edges. A node always reaches itself.

    startnode, goalnode: Node objects (node.py). The graph may have cycles,
    and values need not be unique: nodes are compared by identity.
    Returns True or False.
    """
    queue = deque([startnode])
    seen = {id(startnode)}
    while queue:
        node = queue.popleft()
        if node is goalnode:
            return True
        for succ in node.successors:
            if id(succ) not in seen:
                seen.add(id(succ))
                queue.append(succ)
    return False
