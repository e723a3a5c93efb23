def levenshtein(source, target):
    """Edit distance (insertions, deletions, substitutions) between two strings."""
    previous = list(range(len(target) + 1))
    for i, s_char in enumerate(source, 1):
        current = [i]
        for j, t_char in enumerate(target, 1):
            if s_char == t_char:
                current.append(previous[j - 1])
            else:
                current.append(1 + min(previous[j], previous[j - 1], current[j - 1]))
        previous = current
    return previous[-1]
