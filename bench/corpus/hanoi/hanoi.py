"""Towers of Hanoi (QuixBugs style) and a checker that replays the moves.

Both recursions count height down to 0: mutating the `height - 1` step, or
move_count's base case `height == 0`, gives a recursion without end.
"""


def hanoi(height, start=1, end=3):
    """List of (from_peg, to_peg) moves that carry `height` disks from start to end."""
    steps = []
    if height > 0:
        helper = ({1, 2, 3} - {start} - {end}).pop()
        steps.extend(hanoi(height - 1, start, helper))
        steps.append((start, end))
        steps.extend(hanoi(height - 1, helper, end))
    return steps


def move_count(height):
    """Number of moves hanoi(height) makes, by the recurrence T(n) = 2 T(n-1) + 1."""
    if height == 0:
        return 0
    return 2 * move_count(height - 1) + 1


def replay(height, moves, start=1):
    """Apply moves to a tower on `start`; return the final pegs or raise ValueError."""
    pegs = {1: [], 2: [], 3: []}
    pegs[start] = list(range(height, 0, -1))
    for source, target in moves:
        if not pegs[source]:
            raise ValueError(f"no disk on peg {source}")
        disk = pegs[source][-1]
        if pegs[target] and pegs[target][-1] < disk:
            raise ValueError(f"disk {disk} placed on a smaller disk")
        pegs[target].append(pegs[source].pop())
    return pegs
