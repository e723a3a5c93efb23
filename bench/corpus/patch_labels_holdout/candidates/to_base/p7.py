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
    if num == 0:
        return "0"
    out = []
    while num > 0:
        out.append(DIGITS[num % b])
        num = int(num / b)
    return "".join(reversed(out))
