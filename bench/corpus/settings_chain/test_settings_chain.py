import pytest

from settings_chain import Settings, from_lines


@pytest.fixture
def layered():
    base = Settings({"colour": "blue", "size": 3})
    return base.child(size=5)


def test_get_own_and_inherited(layered):
    assert layered.get("size") == 5
    assert layered.get("colour") == "blue"
    assert layered.parent.get("size") == 3


def test_get_missing_raises(layered):
    with pytest.raises(KeyError):
        layered.get("shape")


def test_get_default(layered):
    assert layered.get("shape", "round") == "round"
    assert layered.get("shape", None) is None
    assert layered.get("size", 0) == 5


def test_set_shadows_parent(layered):
    layered.set("colour", "red")
    assert layered.get("colour") == "red"
    assert layered.parent.get("colour") == "blue"


def test_pop(layered):
    assert layered.pop("size") == 5
    assert layered.get("size") == 3
    assert layered.pop("size", "gone") == "gone"
    with pytest.raises(KeyError):
        layered.pop("colour")


def test_flatten(layered):
    assert layered.flatten() == {"colour": "blue", "size": 5}
    assert layered.child(colour="green").flatten() == {"colour": "green", "size": 5}


def test_from_lines():
    s = from_lines(["# comment", "", " name = demo ", "level=2"], parent=Settings({"x": 1}))
    assert s.flatten() == {"x": 1, "name": "demo", "level": "2"}


@pytest.mark.parametrize("line", ["novalue", "=3"])
def test_from_lines_errors(line):
    with pytest.raises(ValueError, match="line 2: expected KEY=VALUE"):
        from_lines(["a=1", line])
