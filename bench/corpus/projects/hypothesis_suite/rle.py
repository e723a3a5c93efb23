"""Run-length encoding of strings and a compact text form of it
("3a2b1c"), with a decoder that validates its input."""


def encode(text):
    """[(char, count), ...] with no two neighbours sharing a char."""
    runs = []
    for ch in text:
        if runs and runs[-1][0] == ch:
            runs[-1] = (ch, runs[-1][1] + 1)
        else:
            runs.append((ch, 1))
    return runs


def decode(runs):
    return "".join(ch * count for ch, count in runs)


def dumps(text):
    """The compact form: count then char for every run."""
    return "".join("%d%s" % (count, ch) for ch, count in encode(text))


def loads(data):
    """Inverse of dumps; chars may be anything but a decimal digit."""
    runs, digits = [], ""
    for ch in data:
        if ch in "0123456789":
            digits += ch
            continue
        if not digits or int(digits) == 0:
            raise ValueError("a run needs a positive count before %r" % ch)
        runs.append((ch, int(digits)))
        digits = ""
    if digits:
        raise ValueError("trailing count %r" % digits)
    return decode(runs)


def longest_run(text):
    """(char, length) of the first longest run, or None for ''."""
    best = None
    for ch, count in encode(text):
        if best is None or count > best[1]:
            best = (ch, count)
    return best
