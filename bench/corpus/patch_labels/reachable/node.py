class Node:
    """A node of a directed graph.

    value: any label; two different nodes may hold the same value, so nodes
    are told apart by identity, never by value.
    successors: the nodes this node has an edge to (a list, possibly empty).
    """

    def __init__(self, value=None, successors=None):
        self.value = value
        self.successors = list(successors) if successors else []

    def __repr__(self):
        return "Node(%r)" % (self.value,)
