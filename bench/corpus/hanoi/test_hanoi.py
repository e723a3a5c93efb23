import pytest

from hanoi import hanoi, move_count, replay


def test_zero_disks():
    assert hanoi(0) == []


def test_one_disk():
    assert hanoi(1) == [(1, 3)]
    assert hanoi(1, 2, 1) == [(2, 1)]


def test_two_disks():
    assert hanoi(2) == [(1, 2), (1, 3), (2, 3)]


@pytest.mark.parametrize("height", range(1, 8))
def test_moves_are_legal_and_complete(height):
    moves = hanoi(height)
    assert len(moves) == 2 ** height - 1
    pegs = replay(height, moves)
    assert pegs == {1: [], 2: [], 3: list(range(height, 0, -1))}


def test_other_pegs():
    pegs = replay(3, hanoi(3, start=3, end=2), start=3)
    assert pegs[2] == [3, 2, 1]


@pytest.mark.parametrize("height, count", [(0, 0), (1, 1), (2, 3), (5, 31), (10, 1023)])
def test_move_count(height, count):
    assert move_count(height) == count


def test_replay_rejects_illegal_moves():
    with pytest.raises(ValueError, match="smaller"):
        replay(2, [(1, 2), (1, 2)])
    with pytest.raises(ValueError, match="no disk"):
        replay(1, [(2, 3)])
