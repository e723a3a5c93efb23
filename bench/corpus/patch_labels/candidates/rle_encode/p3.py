def rle_encode(text):
    """Run-length encoding of text: every maximal run of k copies of one
    character c becomes str(k) + c, and the pieces are joined in order,
    so "aaab" gives "3a1b".

    text: a string of any characters (newlines and digits included),
    possibly empty; the encoding of "" is "".
    """
    result = ""
    prev, count = "", 0
    for ch in text:
        if ch == prev:
            count += 1
        else:
            if count:
                result += str(count) + prev
            prev, count = ch, 1
    result += str(count) + prev
    return result
