def rle_encode(text):
    """Run-length encoding of text: every maximal run of k copies of one
    character c becomes str(k) + c, and the pieces are joined in order,
    so "aaab" gives "3a1b".

    text: a string of any characters (newlines and digits included),
    possibly empty; the encoding of "" is "".
    """
    encoded = []
    current = text[0]
    count = 1
    for ch in text[1:]:
        if ch == current:
            count += 1
        else:
            encoded.append(f"{count}{current}")
            current, count = ch, 1
    encoded.append(f"{count}{current}")
    return "".join(encoded)
