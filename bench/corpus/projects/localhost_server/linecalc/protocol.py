def answer(line):
    """The reply to one request line, without its newline."""
    parts = line.split()
    if not parts:
        return "ERR empty"
    op, args = parts[0].upper(), parts[1:]
    try:
        nums = [int(a) for a in args]
    except ValueError:
        return "ERR not a number"
    if op == "ADD":
        return str(sum(nums))
    if op == "MUL":
        product = 1
        for n in nums:
            product *= n
        return str(product)
    if op == "MAX":
        if not nums:
            return "ERR no numbers"
        return str(max(nums))
    return "ERR unknown " + op


def square(n):
    return n * n
