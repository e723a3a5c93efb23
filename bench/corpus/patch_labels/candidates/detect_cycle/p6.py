def detect_cycle(head):
    """Whether the linked list that starts at head runs into a cycle.

    head: a Node (node.py), or None for the empty list. Following
    .successor from head either ends at None (no cycle) or comes back to a
    node seen before (a cycle; it may close on any node, not only head).
    Nodes are compared by identity. Returns True or False.
    """
    slow = fast = head
    while fast is not None and fast.successor is not None:
        slow = slow.successor
        fast = fast.successor.successor
        if fast is not None and slow.value == fast.value:
            return True
    return False
