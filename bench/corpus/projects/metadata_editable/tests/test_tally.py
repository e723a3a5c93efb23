from importlib.metadata import version

import pytest

import tally
from tally import instant_runoff, plurality


def test_version_comes_from_metadata():
    assert version("tally") == "1.4.2"
    assert tally.__version__ == "1.4.2"


def test_plurality():
    ballots = [["a"], ["b", "a"], ["b"], ["c"], []]
    assert plurality(ballots) == ("b", {"a": 1, "b": 2, "c": 1})


def test_plurality_tie_and_empty():
    assert plurality([["y"], ["x"]])[0] == "x"
    with pytest.raises(ValueError):
        plurality([[], []])


def test_instant_runoff_transfers():
    ballots = ([["a", "c"]] * 4 + [["b", "c"]] * 3 + [["c", "b"]] * 2)
    winner, rounds = instant_runoff(ballots)
    assert winner == "b"
    assert rounds == [{"a": 4, "b": 3, "c": 2}, {"a": 4, "b": 5}]


def test_instant_runoff_majority_first_round():
    assert instant_runoff([["a"], ["a"], ["b"]]) == ("a",
                                                     [{"a": 2, "b": 1}])


def test_instant_runoff_no_votes():
    with pytest.raises(ValueError):
        instant_runoff([])
