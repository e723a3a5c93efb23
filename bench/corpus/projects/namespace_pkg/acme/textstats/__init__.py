"""Word statistics; a regular package inside the namespace package."""
from collections import Counter


def words(text):
    out, cur = [], []
    for ch in text.lower():
        if ch.isalpha() or (ch == "'" and cur):
            cur.append(ch)
        elif cur:
            out.append("".join(cur).strip("'"))
            cur = []
    if cur:
        out.append("".join(cur).strip("'"))
    return [w for w in out if w]


def top_words(text, n=3, min_length=1):
    """The n most frequent words of at least min_length letters, ties in
    alphabetical order."""
    counts = Counter(w for w in words(text) if len(w) >= min_length)
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    return ranked[:n]
