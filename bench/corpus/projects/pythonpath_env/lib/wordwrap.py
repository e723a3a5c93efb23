"""Greedy word wrapping with hanging indents and hard breaks of words
longer than the width."""


def wrap(text, width, indent=""):
    """Lines of at most width characters; every line after the first
    starts with indent."""
    if width <= len(indent):
        raise ValueError("width must exceed the indent")
    lines, line = [], ""
    for word in text.split():
        prefix = indent if lines else ""
        room = width - len(prefix)
        while len(word) > room and not line:
            lines.append(prefix + word[:room])
            word = word[room:]
            prefix = indent
            room = width - len(prefix)
        if not line:
            line = word
        elif len(line) + 1 + len(word) <= room:
            line += " " + word
        else:
            lines.append(prefix + line)
            prefix, room = indent, width - len(indent)
            line = word
            while len(line) > room:
                lines.append(prefix + line[:room])
                line = line[room:]
    if line:
        lines.append((indent if lines else "") + line)
    return lines


def fill(text, width, indent=""):
    return "\n".join(wrap(text, width, indent))
