def hanoi(height, start=1, end=3):
    """Moves [(from_peg, to_peg), ...] that carry a tower of the given height from peg
    start to peg end (pegs 1, 2, 3), never putting a disk on a smaller one."""
    moves = []

    def move_tower(n, source, target):
        if n <= 0:
            return
        spare = ({1, 2, 3} - {source} - {target}).pop()
        move_tower(n - 1, source, spare)
        moves.append((source, target))
        move_tower(n - 1, spare, target)

    move_tower(height, start, end)
    return moves
