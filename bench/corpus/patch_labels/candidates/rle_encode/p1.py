from itertools import groupby


def rle_encode(text):
    """Run-length encoding of text: every maximal run of k copies of one
    character c becomes str(k) + c, and the pieces are joined in order,
    so "aaab" gives "3a1b".

    text: a string of any characters (newlines and digits included),
    possibly empty; the encoding of "" is "".
    """
    return "".join(str(len(list(run))) + char for char, run in groupby(text))
