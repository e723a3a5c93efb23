def detect_cycle(head):
    """Whether the linked list that starts at head runs into a cycle.

    head: a Node (node.py), or None for the empty list. Following
    .successor from head either ends at None (no cycle) or comes back to a
    node seen before (a cycle; it may close on any node, not only head).
    Nodes are compared by identity. Returns True or False.
    """
    node = head
    for _ in range(50):
        if node is None:
            return False
        node = node.successor
    # Still walking after 50 steps: the list must loop.
    return True
