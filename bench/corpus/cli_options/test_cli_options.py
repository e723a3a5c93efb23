import pytest

from cli_options import DEFAULTS, FORMATS, UsageError, parse_args


def test_defaults():
    opts, rest = parse_args([])
    assert opts == {"verbose": 0, "output": "-", "count": 10,
                    "format": "text", "dry_run": False}
    assert rest == []
    assert DEFAULTS["count"] == 10


def test_defaults_are_not_shared():
    opts, _ = parse_args(["-v"])
    assert opts["verbose"] == 1
    assert DEFAULTS["verbose"] == 0


@pytest.mark.parametrize("argv, key, value", [
    (["--help"], "help", True),
    (["-h"], "help", True),
    (["--verbose", "--verbose"], "verbose", 2),
    (["-vv"], "verbose", 2),
    (["--output", "out.txt"], "output", "out.txt"),
    (["--output=o.txt"], "output", "o.txt"),
    (["-o", "x"], "output", "x"),
    (["--count=3"], "count", 3),
    (["-n", "7"], "count", 7),
    (["--format", "json"], "format", "json"),
    (["-f", "csv"], "format", "csv"),
    (["--format=text"], "format", "text"),
    (["--dry-run"], "dry_run", True),
])
def test_each_option(argv, key, value):
    opts, rest = parse_args(argv + ["input.txt"])
    assert opts[key] == value
    assert rest == ["input.txt"]


def test_positionals_mixed_with_options():
    opts, rest = parse_args(["a", "--count", "2", "b", "--dry-run"])
    assert rest == ["a", "b"]
    assert (opts["count"], opts["dry_run"]) == (2, True)


def test_formats():
    assert FORMATS == ("text", "json", "csv")


@pytest.mark.parametrize("argv, message", [
    (["--bogus"], "option --bogus not recognized"),
    (["--count"], "option --count requires argument"),
    (["--count=x"], "--count needs a number, not 'x'"),
    (["--format", "xml"], "unknown format 'xml' (choose from text, json, csv)"),
    (["--dry-run=yes"], "option --dry-run must not have an argument"),
    (["--help=1"], "option --help must not have an argument"),
    (["--verbose=1"], "option --verbose must not have an argument"),
])
def test_usage_errors(argv, message):
    with pytest.raises(UsageError) as err:
        parse_args(argv)
    assert str(err.value) == message
