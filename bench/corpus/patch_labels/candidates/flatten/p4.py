def flatten(arr):
    """Generate the non-list items of a nested list, left to right.

    arr: a list whose elements are lists (nested to any depth) or non-list
    values of any type (numbers, strings, None, tuples, ...). Every non-list
    value is yielded as it is; lists (only lists) are walked into.
    """
    for item in arr:
        if isinstance(item, list):
            for inner in flatten(item):
                yield inner
        elif item:
            yield item
