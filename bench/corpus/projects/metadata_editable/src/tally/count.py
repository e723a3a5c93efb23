"""Plurality and instant-runoff counts over ranked ballots (lists of
candidate names, most preferred first)."""
from collections import Counter


def plurality(ballots):
    """(winner, counts) by first preferences; a tie goes to the name that
    sorts first."""
    counts = Counter(b[0] for b in ballots if b)
    if not counts:
        raise ValueError("no votes")
    winner = min(counts, key=lambda c: (-counts[c], c))
    return winner, dict(counts)


def instant_runoff(ballots):
    """(winner, rounds): each round drops the candidate with the fewest
    first preferences (ties: the name that sorts last) until one holds a
    strict majority of the ballots still expressing a preference."""
    remaining = {c for b in ballots for c in b}
    rounds = []
    while remaining:
        counts = Counter()
        for ballot in ballots:
            for choice in ballot:
                if choice in remaining:
                    counts[choice] += 1
                    break
        total = sum(counts.values())
        for c in remaining:
            counts.setdefault(c, 0)
        rounds.append(dict(counts))
        leader = min(counts, key=lambda c: (-counts[c], c))
        if 2 * counts[leader] > total or len(remaining) == 1:
            return leader, rounds
        loser = max(counts, key=lambda c: (-counts[c], c))
        remaining.discard(loser)
    raise ValueError("no votes")
