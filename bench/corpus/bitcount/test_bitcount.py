import pytest

from bitcount import bit_length, bitcount, is_power_of_two, parity, reverse_bits


@pytest.mark.parametrize("n, ones", [
    (0, 0), (1, 1), (2, 1), (3, 2), (5, 2), (7, 3), (127, 7), (128, 1), (255, 8),
    (1023, 10), (2 ** 40 + 1, 2), (0b1010101010101, 7),
])
def test_bitcount(n, ones):
    assert bitcount(n) == ones


def test_bitcount_negative():
    with pytest.raises(ValueError):
        bitcount(-3)


@pytest.mark.parametrize("n", [0, 1, 2, 3, 7, 8, 255, 256, 12345, 2 ** 70])
def test_bit_length(n):
    assert bit_length(n) == n.bit_length()


@pytest.mark.parametrize("n, expected", [(0, 0), (1, 1), (3, 0), (7, 1), (0b1011, 1)])
def test_parity(n, expected):
    assert parity(n) == expected


def test_reverse_bits():
    assert reverse_bits(0b00000001) == 0b10000000
    assert reverse_bits(0b10110000) == 0b00001101
    assert reverse_bits(0b110, width=3) == 0b011
    assert reverse_bits(0b1, width=4) == 0b1000


@pytest.mark.parametrize("n, expected", [(0, False), (1, True), (2, True), (6, False),
                                         (64, True), (-4, False)])
def test_is_power_of_two(n, expected):
    assert is_power_of_two(n) is expected
