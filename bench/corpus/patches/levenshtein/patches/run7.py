import sys
from functools import lru_cache

sys.setrecursionlimit(10 ** 6)


@lru_cache(maxsize=None)
def levenshtein(source, target):
    """Edit distance (insertions, deletions, substitutions) between two strings."""
    if source == '' or target == '':
        return len(source) or len(target)

    elif source[0] == target[0]:
        return levenshtein(source, target)

    else:
        return 1 + min(
            levenshtein(source, target[1:]),
            levenshtein(source[1:], target[1:]),
            levenshtein(source[1:], target)
        )
