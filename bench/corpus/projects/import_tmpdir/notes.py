"""A directory of notes: one file per note, named after its title."""
import os


def save(folder, title, text):
    """Writes the note and returns its file name."""
    name = title.strip().lower().replace(" ", "-") + ".txt"
    with open(os.path.join(folder, name), "w") as f:
        f.write(text)
    return name


def load(folder, title):
    name = title.strip().lower().replace(" ", "-") + ".txt"
    with open(os.path.join(folder, name)) as f:
        return f.read()


def count(folder):
    return len([n for n in os.listdir(folder) if n.endswith(".txt")])
