import pytest
from hypothesis import given, strategies as st

from rle import decode, dumps, encode, loads, longest_run

no_digits = st.text(alphabet=st.characters(blacklist_categories=("Nd",),
                                           max_codepoint=0x2FF))


@given(st.text())
def test_decode_inverts_encode(text):
    assert decode(encode(text)) == text


@given(st.text())
def test_runs_are_maximal(text):
    runs = encode(text)
    assert all(count > 0 for _, count in runs)
    assert all(a[0] != b[0] for a, b in zip(runs, runs[1:]))


@given(no_digits)
def test_loads_inverts_dumps(text):
    assert loads(dumps(text)) == text


@given(st.text(min_size=1))
def test_longest_run_is_longest(text):
    ch, n = longest_run(text)
    assert ch * n in text
    assert ch * (n + 1) not in text
    assert all(count <= n for _, count in encode(text))


def test_examples():
    assert dumps("aaabccdddd") == "3a1b2c4d"
    assert loads("12x1y") == "x" * 12 + "y"
    assert longest_run("") is None
    assert longest_run("abbcc") == ("b", 2)


@pytest.mark.parametrize("bad", ["3", "a", "0a", "2a3"])
def test_loads_rejects(bad):
    with pytest.raises(ValueError):
        loads(bad)
