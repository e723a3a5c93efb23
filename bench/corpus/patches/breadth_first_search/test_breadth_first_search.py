import json
import os

import pytest

from breadth_first_search import breadth_first_search

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "breadth_first_search_cases.json")) as f:
    CASES = json.load(f)


@pytest.mark.parametrize("graph,start,goal,expected", CASES)
def test_shortest_distance(graph, start, goal, expected):
    assert breadth_first_search(graph, start, goal) == expected


def test_goal_without_outgoing_edges():
    assert breadth_first_search({"x": ["y"]}, "x", "y") == 1
