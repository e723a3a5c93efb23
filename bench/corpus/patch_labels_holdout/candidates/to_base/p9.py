import string

DIGITS = string.digits + string.ascii_uppercase


def to_base(num, b):
    """
    Integer Base Conversion

    Input:
        num: an int >= 0 (of any size)
        b: an int with 2 <= b <= 36

    Output:
        A string: num written in base b, most significant digit first, with
        the digits 0-9 and then the upper-case letters A-Z (A is ten, Z is
        thirty-five), without leading zeros. to_base(0, b) == "0".

    Example:
        >>> to_base(31, 16)
        '1F'
    """
    if b == 16:
        return format(num, "X")
    if b == 8:
        return format(num, "o")
    if b == 2:
        return format(num, "b")
    out = []
    while True:
        num, digit = divmod(num, b)
        out.append(DIGITS[digit])
        if num == 0:
            break
    return "".join(out[::-1])
