import os
import tempfile

from notes import count, load, save

STORE = tempfile.mkdtemp()


def test_save_and_load():
    assert save(STORE, " Shopping List ", "milk") == "shopping-list.txt"
    assert load(STORE, "shopping list") == "milk"


def test_fresh_store_then_one_note():
    # Runs before any other test that writes: the store is as import
    # left it.
    before = count(STORE)
    save(STORE, "a" * 3, "x")
    assert count(STORE) == before + 1


def test_nothing_but_notes_counted():
    with open(os.path.join(STORE, "readme.md"), "w") as f:
        f.write("not a note")
    assert count(STORE) >= 0
