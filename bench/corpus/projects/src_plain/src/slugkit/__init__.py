"""URL slugs from titles: ASCII folding, separators, length limits and
de-duplication against slugs already taken."""
import unicodedata

_SEPARATORS = set(" _-.,;:/\\|")


def fold(text):
    """Drops accents and every character that has no ASCII form."""
    decomposed = unicodedata.normalize("NFKD", text)
    return decomposed.encode("ascii", "ignore").decode("ascii")


def slugify(title, max_length=40, sep="-"):
    """A lower-case slug of title: runs of separators become one sep,
    other punctuation disappears, and the slug is cut at a word boundary
    so that it is at most max_length long."""
    if max_length < 1:
        raise ValueError("max_length must be at least 1")
    words, current = [], []
    for ch in fold(title).lower():
        if ch.isalnum():
            current.append(ch)
        elif ch in _SEPARATORS and current:
            words.append("".join(current))
            current = []
    if current:
        words.append("".join(current))
    slug = ""
    for word in words:
        candidate = word if not slug else slug + sep + word
        if len(candidate) > max_length:
            break
        slug = candidate
    if not slug and words:
        slug = words[0][:max_length]
    return slug


def unique_slug(title, taken, max_length=40):
    """slugify(title), with -2, -3, ... appended until it is not taken."""
    base = slugify(title, max_length)
    if base not in taken:
        return base
    n = 2
    while True:
        suffix = "-%d" % n
        candidate = base[:max_length - len(suffix)] + suffix
        if candidate not in taken:
            return candidate
        n += 1
