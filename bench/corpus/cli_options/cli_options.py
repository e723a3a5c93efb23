"""Command-line options of a small report tool, parsed with getopt: the
long options and the defaults are multi-line literals."""
import getopt

DEFAULTS = {
    "verbose": 0,
    "output": "-",
    "count": 10,
    "format": "text",
    "dry_run": False,
}

FORMATS = (
    "text",
    "json",
    "csv",
)


class UsageError(Exception):
    pass


def parse_args(argv):
    """Returns (options dict, positional arguments)."""
    try:
        opts, rest = getopt.gnu_getopt(argv, "hvo:n:f:", [
            "help",
            "verbose",
            "output=",
            "count=",
            "format=",
            "dry-run",
        ])
    except getopt.GetoptError as e:
        raise UsageError(str(e)) from None
    options = dict(DEFAULTS)
    for opt, val in opts:
        if opt in ("-h", "--help"):
            options["help"] = True
        elif opt in ("-v", "--verbose"):
            options["verbose"] += 1
        elif opt in ("-o", "--output"):
            options["output"] = val
        elif opt in ("-n", "--count"):
            if not val.isdigit():
                raise UsageError("--count needs a number, not %r" % val)
            options["count"] = int(val)
        elif opt in ("-f", "--format"):
            if val not in FORMATS:
                raise UsageError("unknown format %r (choose from %s)"
                                 % (val, ", ".join(FORMATS)))
            options["format"] = val
        elif opt == "--dry-run":
            options["dry_run"] = True
    return options, rest
