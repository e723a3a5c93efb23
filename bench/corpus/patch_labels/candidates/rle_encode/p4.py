def rle_encode(text):
    """Run-length encoding of text: every maximal run of k copies of one
    character c becomes str(k) + c, and the pieces are joined in order,
    so "aaab" gives "3a1b".

    text: a string of any characters (newlines and digits included),
    possibly empty; the encoding of "" is "".
    """
    out = []
    i = 0
    while i < len(text):
        j = i
        while j < len(text) and text[j] == text[i]:
            j += 1
        out.append(chr(ord("0") + (j - i)) + text[i])
        i = j
    return "".join(out)
