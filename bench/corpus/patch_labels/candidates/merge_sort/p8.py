def merge_sort(arr):
    """A new list holding the items of arr in non-decreasing order.

    arr: a list of ints of any size and sign, repeats allowed, possibly
    empty. It is not modified.
    """
    runs = [[x] for x in arr]
    while len(runs) > 1:
        paired = []
        for k in range(0, len(runs), 2):
            if k + 1 == len(runs):
                paired.append(runs[k])
                continue
            a, b = runs[k], runs[k + 1]
            ia = ib = 0
            merged = []
            while ia < len(a) and ib < len(b):
                if b[ib] < a[ia]:
                    merged.append(b[ib])
                    ib += 1
                else:
                    merged.append(a[ia])
                    ia += 1
            paired.append(merged + a[ia:] + b[ib:])
        runs = paired
    return runs[0] if runs else []
