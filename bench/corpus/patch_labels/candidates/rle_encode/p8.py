def rle_encode(text):
    """Run-length encoding of text: every maximal run of k copies of one
    character c becomes str(k) + c, and the pieces are joined in order,
    so "aaab" gives "3a1b".

    text: a string of any characters (newlines and digits included),
    possibly empty; the encoding of "" is "".
    """
    if not text:
        return ""
    out = []
    count = 1
    for i in range(1, len(text)):
        if text[i] == text[i - 1]:
            count += 1
        else:
            out.append(f"{count}{text[i - 1]}")
            count = 1
    out.append(f"{count}{text[-1]}")
    return "".join(out)
