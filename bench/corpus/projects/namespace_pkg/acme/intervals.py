"""Half-open integer intervals [start, end): merging and gaps.  A module
directly in the namespace package `acme` (which has no __init__.py)."""


def normalise(intervals):
    """Sorted, merged intervals; empty ones dropped, touching ones joined."""
    spans = sorted((s, e) for s, e in intervals if e > s)
    merged = []
    for start, end in spans:
        if merged and start <= merged[-1][1]:
            if end > merged[-1][1]:
                merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    return merged


def total_length(intervals):
    return sum(end - start for start, end in normalise(intervals))


def gaps(intervals, lo, hi):
    """The parts of [lo, hi) that no interval covers."""
    out = []
    cursor = lo
    for start, end in normalise(intervals):
        if end <= lo or start >= hi:
            continue
        if start > cursor:
            out.append((cursor, start))
        cursor = max(cursor, end)
    if cursor < hi:
        out.append((cursor, hi))
    return out
