"""Run-length encoding: runs, a compact text form ("3a2b"), and file helpers."""


def encode(text):
    """List of (character, count) runs of text."""
    if not text:
        return []
    runs = []
    current, count = text[0], 1
    for ch in text[1:]:
        if ch == current:
            count += 1
        else:
            runs.append((current, count))
            current, count = ch, 1
    runs.append((current, count))
    return runs


def decode(runs):
    """Inverse of encode()."""
    return "".join(ch * count for ch, count in runs)


def to_string(runs):
    """Compact form: count before character, count omitted when it is 1."""
    return "".join(ch if count == 1 else f"{count}{ch}" for ch, count in runs)


def from_string(encoded):
    """Parse the compact form back into runs. Digits cannot be encoded."""
    runs = []
    digits = ""
    for ch in encoded:
        if ch.isdigit():
            digits += ch
        else:
            runs.append((ch, int(digits) if digits else 1))
            digits = ""
    if digits:
        raise ValueError("encoded text ends with a count")
    return runs


def compress_file(source, target):
    """Write the compact encoding of source's text into target; return the ratio."""
    text = source.read_text(encoding="utf-8")
    packed = to_string(encode(text))
    target.write_text(packed, encoding="utf-8")
    return len(packed) / len(text) if text else 1.0


def decompress_file(source, target):
    target.write_text(decode(from_string(source.read_text(encoding="utf-8"))),
                      encoding="utf-8")
