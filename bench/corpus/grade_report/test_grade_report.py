import pytest

import grade_report
from grade_report import CurvedReport, Report, letter_grade, top_student

SCORES = {"ann": 91, "bob": 78, "cy": 45, "dee": 78, "eve": 60, "fay": 50}


@pytest.fixture(scope="module")
def report():
    return Report(SCORES)


def test_constants():
    assert grade_report.PASS_MARK == 50
    assert grade_report.MAX_SCORE == 100


@pytest.mark.parametrize("score, letter", [
    (100, "A"), (90, "A"), (89, "B"), (80, "B"), (79, "C"), (70, "C"), (69, "D"),
    (60, "D"), (59, "E"), (50, "E"), (49, "F"), (0, "F"),
])
def test_letter_grade(score, letter):
    assert letter_grade(score) == letter


def test_curve():
    assert letter_grade(85, curve=5) == "A"
    assert letter_grade(98, curve=10) == "A"
    assert letter_grade(45, 5) == "E"


@pytest.mark.parametrize("score", [-1, 101, 1000], ids=["negative", "just-over", "far-over"])
def test_out_of_range(score):
    with pytest.raises(ValueError, match="out of range"):
        letter_grade(score)


def test_decorator_keeps_name():
    assert letter_grade.__name__ == "letter_grade"


def test_average(report):
    assert report.average() == 67.0
    assert Report({"a": 1, "b": 2, "c": 2}).average() == 1.7
    assert Report({}).average() == 0.0


def test_passed(report):
    assert report.passed() == ["ann", "bob", "dee", "eve", "fay"]
    assert Report(SCORES, curve=5).passed() == ["ann", "bob", "cy", "dee", "eve", "fay"]


def test_ranking(report):
    assert report.ranking() == ["ann", "bob", "dee", "eve", "fay", "cy"]


def test_lines(report):
    assert report.lines(limit=2) == ["ann: 91 (A)", "bob: 78 (C)"]
    assert report.lines()[-1] == "cy: 45 (F)"
    assert len(report.lines()) == 6


def test_histogram(report):
    assert report.histogram() == {"A": 1, "C": 2, "D": 1, "E": 1, "F": 1}
    assert list(report.histogram()) == ["A", "C", "D", "E", "F"]


def test_curved_report():
    curved = CurvedReport({"a": 1, "b": 2, "c": 2}, curve=48)
    assert curved.average() == 1.67
    assert curved.lines() == ["b -> 2 (E)", "c -> 2 (E)", "a -> 1 (F)"]
    assert CurvedReport({"z": 45}, curve=5).lines() == ["z -> 45 (E)"]


def test_top_student(report):
    assert top_student(report) == "ann"
    assert top_student(Report({})) is None
