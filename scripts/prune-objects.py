#!/usr/bin/env python3
"""Removes the object files (and their gcov notes and counts) of a build
directory that no current compile command produces.

    scripts/prune-objects.py BUILD_DIR

A source file that moved or left the build keeps its old object in an
incremental build: coverage reports would count the file twice (or a file
that is gone), and scripts/layers.py would read calls no binary makes.
The current objects are the outputs of compile_commands.json
(scripts/buildobjs.py).  Prints how many files it removed.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from buildobjs import current_objects  # noqa: E402


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip())
    build = os.path.abspath(sys.argv[1])
    keep = current_objects(build)
    removed = 0
    for root, _, files in os.walk(build):
        if "CMakeFiles" not in root.split(os.sep):
            continue
        for name in files:
            path = os.path.join(root, name)
            if name.endswith(".o"):
                obj = path
            elif name.endswith(".o.d"):
                obj = path[:-2]
            elif name.endswith((".gcno", ".gcda")):  # x.c.gcno: of x.c.o
                obj = path.rsplit(".", 1)[0] + ".o"
            else:
                continue
            if obj not in keep:
                os.remove(path)
                removed += 1
    if removed:
        print(f"{build}: {removed} files of objects no longer built removed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
