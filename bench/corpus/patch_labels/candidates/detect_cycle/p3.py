def detect_cycle(head):
    """Whether the linked list that starts at head runs into a cycle.

    head: a Node (node.py), or None for the empty list. Following
    .successor from head either ends at None (no cycle) or comes back to a
    node seen before (a cycle; it may close on any node, not only head).
    Nodes are compared by identity. Returns True or False.
    """
    # Brent's algorithm: the hare moves one step at a time and the tortoise
    # jumps to the hare whenever the step count reaches a power of two.
    if head is None:
        return False
    power = steps = 1
    tortoise, hare = head, head.successor
    while hare is not None:
        if hare is tortoise:
            return True
        if steps == power:
            tortoise = hare
            power *= 2
            steps = 0
        hare = hare.successor
        steps += 1
    return False
