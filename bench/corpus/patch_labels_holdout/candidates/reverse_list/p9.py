def reverse_list(head):
    """
    Reverse a singly linked list in place.

    Input:
        head: the first Node of a linked list (node.py), or None for the
            empty list. The list ends in None (it has no cycle); it may be of
            any length, and values may repeat.

    Output:
        The new first node, which is the old last node (None for the empty
        list). The list is reversed by relinking the successor fields of its
        own nodes: no node is created, and the old head ends up last, with
        successor None.
    """
    new_head = None
    new_tail = None
    while head is not None:
        # Detach the last node of what is left and append it to the result.
        before = None
        last = head
        while last.successor is not None:
            before = last
            last = last.successor
        if before is None:
            head = None
        else:
            before.successor = None
        if new_tail is None:
            new_head = last
        else:
            new_tail.successor = last
        new_tail = last
    return new_head
