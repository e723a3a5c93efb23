import pytest

from nqueens import count_solutions, is_valid, render, solve

KNOWN_COUNTS = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680]


@pytest.mark.parametrize("n, count", list(enumerate(KNOWN_COUNTS, start=1))[:8],
                         ids=lambda value: str(value))
def test_small_boards(n, count):
    assert count_solutions(n) == count


def test_four_queens():
    assert solve(4) == [(1, 3, 0, 2), (2, 0, 3, 1)]


def test_every_solution_valid():
    assert all(is_valid(p) for p in solve(6))


@pytest.mark.parametrize("placement, expected", [
    ((1, 3, 0, 2), True), ((0, 1), False), ((0, 2, 1), False), ((0, 0), False), ((), True),
], ids=["four", "diagonal", "later-diagonal", "column", "empty"])
def test_is_valid(placement, expected):
    assert is_valid(placement) is expected


def test_render():
    assert render((1, 3, 0, 2)) == ".Q..\n...Q\nQ...\n..Q."


def test_slow_full_count_up_to_eleven():
    """Deliberately slow (~0.3 s): every board size up to 11, all solutions checked."""
    solutions = solve(11)
    counts = [count_solutions(n) for n in range(1, 11)] + [len(solutions)]
    assert counts == KNOWN_COUNTS
    assert len(set(solutions)) == 2680
    assert all(is_valid(p) for p in solutions)
    mirrored = {tuple(10 - c for c in p) for p in solutions}
    assert mirrored == set(solutions)
