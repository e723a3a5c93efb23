"""Heap sort with an explicit sift-down, plus helpers built on the heap.

The test suite of this program is deliberately weak.
"""


def sift_down(heap, start, end):
    """Restore the max-heap property of heap[start..end] below start."""
    root = start
    while True:
        child = 2 * root + 1
        if child > end:
            break
        if child + 1 <= end and heap[child] < heap[child + 1]:
            child += 1
        if heap[root] < heap[child]:
            heap[root], heap[child] = heap[child], heap[root]
            root = child
        else:
            break


def heapify(items):
    """Turn items into a max-heap in place."""
    n = len(items)
    for start in range((n - 2) // 2, -1, -1):
        sift_down(items, start, n - 1)
    return items


def heap_sort(arr):
    """Return a sorted copy of arr."""
    heap = heapify(list(arr))
    for end in range(len(heap) - 1, 0, -1):
        heap[0], heap[end] = heap[end], heap[0]
        sift_down(heap, 0, end - 1)
    return heap


def is_max_heap(items):
    """True if every parent is >= its children."""
    return all(items[(i - 1) // 2] >= items[i] for i in range(1, len(items)))


def nlargest(arr, k):
    """The k largest items of arr, largest first."""
    if k <= 0:
        return []
    return heap_sort(arr)[::-1][:k]
