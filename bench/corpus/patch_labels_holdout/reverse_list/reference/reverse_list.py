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
    prev = None
    node = head
    while node is not None:
        following = node.successor
        node.successor = prev
        prev = node
        node = following
    return prev
