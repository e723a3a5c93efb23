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
    if head is None:
        return None
    cells = []
    cell = head
    while cell is not None:
        cells.append(cell)
        cell = cell.successor
    for i in range(len(cells) - 1, 0, -1):
        cells[i].successor = cells[i - 1]
    cells[0].successor = None
    return cells[-1]
