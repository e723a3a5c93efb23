"""Grade reports: module-level constants, a validating decorator, a class with
class-body attributes, default arguments, a nested function and lambdas.

Mutants of every one of those constructs change observable behaviour.
"""
import functools

PASS_MARK = 50
MAX_SCORE = 100
GRADE_BOUNDARIES = (
    (90, "A"),
    (80, "B"),
    (70, "C"),
    (60, "D"),
    (PASS_MARK, "E"),
)
FAIL_GRADE = "F"


def validate_score(func):
    """Reject scores outside 0..MAX_SCORE before calling func."""
    @functools.wraps(func)
    def wrapper(score, *args, **kwargs):
        if not 0 <= score <= MAX_SCORE:
            raise ValueError(f"score out of range: {score}")
        return func(score, *args, **kwargs)
    return wrapper


@validate_score
def letter_grade(score, curve=0):
    """Letter for score after adding curve (capped at MAX_SCORE)."""
    adjusted = min(score + curve, MAX_SCORE)
    for bound, letter in GRADE_BOUNDARIES:
        if adjusted >= bound:
            return letter
    return FAIL_GRADE


class Report:
    precision = 1
    separator = ": "

    def __init__(self, scores, curve=0):
        self.scores = dict(scores)
        self.curve = curve

    def average(self):
        if not self.scores:
            return 0.0
        return round(sum(self.scores.values()) / len(self.scores), self.precision)

    def passed(self):
        return sorted(name for name, score in self.scores.items()
                      if score + self.curve >= PASS_MARK)

    def ranking(self):
        """Names by descending score, ties alphabetically."""
        return sorted(self.scores, key=lambda name: (-self.scores[name], name))

    def lines(self, limit=None):
        def line(name):
            score = self.scores[name]
            return f"{name}{self.separator}{score} ({letter_grade(score, self.curve)})"

        names = self.ranking()
        if limit is not None:
            names = names[:limit]
        return [line(name) for name in names]

    def histogram(self):
        counts = {}
        for score in self.scores.values():
            letter = letter_grade(score, curve=self.curve)
            counts[letter] = counts.get(letter, 0) + 1
        return dict(sorted(counts.items(), key=lambda item: item[0]))


class CurvedReport(Report):
    precision = 2
    separator = " -> "


top_student = lambda report: report.ranking()[0] if report.scores else None
