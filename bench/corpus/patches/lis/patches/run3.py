def lis(arr):
    """Length of the longest strictly increasing subsequence of arr."""
    if not arr:
        return 0
    best = run = 1
    for i in range(1, len(arr)):
        if arr[i - 1] < arr[i]:
            run += 1
        else:
            run = 1
        best = max(best, run)
    return best
