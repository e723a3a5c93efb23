"""Levenshtein edit distance, with the edit operations and a similarity ratio."""


def levenshtein(source, target):
    """Minimum number of single-character insertions, deletions, substitutions."""
    if not source:
        return len(target)
    if not target:
        return len(source)
    previous = list(range(len(target) + 1))
    for i, s_char in enumerate(source, start=1):
        current = [i]
        for j, t_char in enumerate(target, start=1):
            cost = 0 if s_char == t_char else 1
            current.append(min(previous[j] + 1,          # delete
                               current[j - 1] + 1,       # insert
                               previous[j - 1] + cost))  # substitute / keep
        previous = current
    return previous[-1]


def levenshtein_recursive(source, target):
    """QuixBugs-style recursive definition (exponential: short inputs only)."""
    if not source or not target:
        return len(source) or len(target)
    if source[0] == target[0]:
        return levenshtein_recursive(source[1:], target[1:])
    return 1 + min(
        levenshtein_recursive(source, target[1:]),
        levenshtein_recursive(source[1:], target[1:]),
        levenshtein_recursive(source[1:], target),
    )


def similarity(source, target):
    """1.0 for identical strings, 0.0 for completely different ones."""
    longest = max(len(source), len(target))
    if longest == 0:
        return 1.0
    return 1.0 - levenshtein(source, target) / longest


def closest(word, candidates):
    """The candidate with the smallest distance to word (first on ties)."""
    return min(candidates, key=lambda candidate: levenshtein(word, candidate))
