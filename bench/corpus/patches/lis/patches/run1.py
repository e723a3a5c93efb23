from bisect import bisect_left


def lis(arr):
    """Length of the longest strictly increasing subsequence of arr."""
    tails = []
    for x in arr:
        k = bisect_left(tails, x)
        if k == len(tails):
            tails.append(x)
        else:
            tails[k] = x
    return len(tails)
