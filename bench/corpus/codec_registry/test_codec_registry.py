import pytest

from codec_registry import Caesar, Codec, Reverse, Rot13, decode, encode, get_codec


def test_registry_names():
    assert sorted(Codec.registry) == ["caesar", "reverse", "rot13"]
    assert Codec.registry["rot13"] is Rot13
    assert Codec.registry["caesar"] is Caesar
    assert Codec.registry["reverse"] is Reverse


def test_codec_name_attribute():
    assert [Rot13.codec_name, Caesar.codec_name, Reverse.codec_name] == [
        "rot13", "caesar", "reverse"]


def test_lookup_is_case_insensitive():
    assert isinstance(get_codec("ROT13"), Rot13)
    assert isinstance(get_codec("Caesar"), Caesar)


def test_unknown_codec():
    with pytest.raises(LookupError, match="unknown codec: shiftcodec"):
        get_codec("shiftcodec")


@pytest.mark.parametrize("names, plain, coded", [
    (("rot13",), "Hello, World!", "Uryyb, Jbeyq!"),
    (("caesar",), "xyz ABC", "abc DEF"),
    (("reverse",), "abc", "cba"),
    (("caesar", "reverse"), "abc", "fed"),
])
def test_encode_decode(names, plain, coded):
    assert encode(plain, *names) == coded
    assert decode(coded, *names) == plain


def test_duplicate_name_rejected():
    with pytest.raises(ValueError, match="duplicate codec 'rot13'"):
        class Again(Codec, name="ROT13"):
            pass
    assert Codec.registry["rot13"] is Rot13


def test_base_methods_are_abstract():
    with pytest.raises(NotImplementedError):
        Codec().encode("x")
    with pytest.raises(NotImplementedError):
        Codec().decode("x")
