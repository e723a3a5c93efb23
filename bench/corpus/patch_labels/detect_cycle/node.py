class Node:
    """A node of a singly linked list.

    value: any label (values may repeat along a list).
    successor: the next node, or None at the end of the list.
    """

    def __init__(self, value=None, successor=None):
        self.value = value
        self.successor = successor

    def __repr__(self):
        return "Node(%r)" % (self.value,)
