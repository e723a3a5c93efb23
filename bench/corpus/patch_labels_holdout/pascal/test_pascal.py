from pascal import pascal


def test_one_row():
    assert pascal(1) == [[1]]


def test_two_rows():
    assert pascal(2) == [[1], [1, 1]]


def test_three_rows():
    assert pascal(3) == [[1], [1, 1], [1, 2, 1]]


def test_five_rows():
    assert pascal(5) == [[1], [1, 1], [1, 2, 1], [1, 3, 3, 1], [1, 4, 6, 4, 1]]
