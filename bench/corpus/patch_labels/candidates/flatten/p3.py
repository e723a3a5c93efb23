def flatten(arr):
    """Generate the non-list items of a nested list, left to right.

    arr: a list whose elements are lists (nested to any depth) or non-list
    values of any type (numbers, strings, None, tuples, ...). Every non-list
    value is yielded as it is; lists (only lists) are walked into.
    """
    def collect(items, out):
        for item in items:
            if isinstance(item, list):
                collect(item, out)
            else:
                out.append(item)
        return out

    yield from collect(arr, [])
