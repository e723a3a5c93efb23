"""The tool is only tested through its command line, as a user runs it."""
import subprocess
import sys


def run(*args, stdin=""):
    done = subprocess.run([sys.executable, "-m", "wordtool", *args],
                          input=stdin, capture_output=True, text=True,
                          timeout=60)
    return done.returncode, done.stdout.strip()


def test_words_from_stdin():
    assert run("words", stdin="a bb  ccc\nd\n") == (0, "4")


def test_lines_from_stdin():
    assert run("lines", stdin="one\ntwo\nthree") == (0, "3")


def test_no_lines():
    assert run("lines", stdin="") == (0, "0")


def test_longest_from_file(tmp_path):
    f = tmp_path / "text.txt"
    f.write_text("tiny enormous big enormouS\n", encoding="utf-8")
    assert run("longest", str(f)) == (0, "enormous")


def test_bad_command():
    code, _ = run("letters", stdin="x")
    assert code == 2


def test_through_a_shell():
    done = subprocess.run("printf 'x y z' | %s -m wordtool words"
                          % sys.executable, shell=True, capture_output=True,
                          text=True, timeout=60)
    assert done.stdout.strip() == "3"
