class Node:
    """A cell of a singly linked list.

    value: any value; values may repeat along a list.
    successor: the next Node, or None after the last cell.
    """

    def __init__(self, value=None, successor=None):
        self.value = value
        self.successor = successor

    def __repr__(self):
        return "Node(%r)" % (self.value,)
