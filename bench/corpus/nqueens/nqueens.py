"""N-queens by backtracking with column and diagonal sets.

The suite contains one deliberately slow test (counting all solutions of a
larger board, about 0.3 s of real computation).
"""


def solve(n):
    """All solutions; each solution lists the column of the queen in every row."""
    solutions = []
    columns, diagonals, anti_diagonals = set(), set(), set()
    placement = []

    def place(row):
        if row == n:
            solutions.append(tuple(placement))
            return
        for col in range(n):
            if col in columns or row - col in diagonals or row + col in anti_diagonals:
                continue
            columns.add(col)
            diagonals.add(row - col)
            anti_diagonals.add(row + col)
            placement.append(col)
            place(row + 1)
            placement.pop()
            columns.remove(col)
            diagonals.remove(row - col)
            anti_diagonals.remove(row + col)

    place(0)
    return solutions


def count_solutions(n):
    return len(solve(n))


def is_valid(placement):
    """True if no two queens attack each other."""
    n = len(placement)
    for r1 in range(n):
        for r2 in range(r1 + 1, n):
            c1, c2 = placement[r1], placement[r2]
            if c1 == c2 or abs(c1 - c2) == r2 - r1:
                return False
    return True


def render(placement):
    """Board as text, 'Q' for a queen and '.' for an empty square."""
    n = len(placement)
    return "\n".join("".join("Q" if placement[row] == col else "." for col in range(n))
                     for row in range(n))
