#!/usr/bin/env python3
"""The longest C functions and files of litmus, for reviews of layout.

    scripts/function-sizes.py [ROOT] [N]

Lists the N (default 10) longest functions (lines from the line that
names them to their closing brace at column 0) of the C sources under
engine/, runners/, common/, sandbox/, harness/ and operators/ of ROOT
(default: this checkout), then the N longest .c files of engine/ and
runners/.
"""
import os
import re
import sys

DIRS = ("engine", "runners", "common", "sandbox", "harness", "operators")
DEF = re.compile(r"^(?:static\s+)?[A-Za-z_][\w\s\*]*?\b([A-Za-z_]\w*)\(")


def c_files(root, dirs):
    for d in dirs:
        for dp, _, fs in os.walk(os.path.join(root, d)):
            for f in sorted(fs):
                if f.endswith(".c"):
                    yield os.path.join(dp, f)


def functions(path):
    start = name = None
    with open(path, errors="replace") as f:
        for i, line in enumerate(f):
            m = DEF.match(line)
            if (start is None and m and not line.rstrip().endswith(";")
                    and not line.startswith(("typedef", "struct ", "enum "))):
                start, name = i, m.group(1)
            elif line.startswith("}") and start is not None:
                yield i - start + 1, name
                start = None


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..")
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    funcs = [(size, os.path.relpath(p, root), name)
             for p in c_files(root, DIRS) for size, name in functions(p)]
    print("longest functions:")
    for size, path, name in sorted(funcs, reverse=True)[:n]:
        print(f"{size:6d}  {path}  {name}")
    files = []
    for p in c_files(root, ("engine", "runners")):
        with open(p, errors="replace") as f:
            files.append((sum(1 for _ in f), os.path.relpath(p, root)))
    print("longest files:")
    for size, path in sorted(files, reverse=True)[:n]:
        print(f"{size:6d}  {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
