#!/usr/bin/env python3
"""The calls between litmus's layers, read from the built objects (nm).

    scripts/layers.py BUILD_DIR [--all]

The layers, lowest first: the libraries below the engine (common, sandbox,
harness, operators, runners), engine/core and engine/similarity, the
report writers, the jobs (score, patches, dataset, cluster: siblings),
the command line.  A call is a leak when it reaches a higher layer or a
sibling job.  Prints one line per leak, "caller.c -> callee.c: symbol",
and exits 1 when there is one.  --all prints every call between two
different layers too (the graph, for docs/design.md).
"""
import collections
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from buildobjs import current_objects  # noqa: E402

BASE = ("lt_common", "lt_sandbox", "lt_harness", "lt_operators", "lt_runners")


def layer_of(obj):
    """(rank, name) of an object file of the build, or None (tests, tools)."""
    parts = obj.split(os.sep)
    target = next((p[:-4] for p in parts if p.endswith(".dir")), None)
    if target is None:
        return None
    rest = parts[parts.index(target + ".dir") + 1:]
    if target in BASE:
        return (0, target[3:])
    if target in ("lt_core", "lt_similarity"):
        return (1, target[3:])
    if target == "lt_engine" and rest and rest[0] == "core":
        return (1, "core")  # builds from before core was a library
    if target == "lt_engine" and rest and rest[0] == "report":
        return (2, "report")
    if target == "lt_engine" and len(rest) > 1 and rest[0] == "jobs":
        return (3, "jobs/" + rest[1])
    if target == "litmus":
        return (4, "cli")
    return None


def symbols(obj, defined):
    args = ["nm", "--defined-only" if defined else "--undefined-only", obj]
    out = subprocess.run(args, capture_output=True, text=True, check=True)
    for line in out.stdout.splitlines():
        f = line.split()
        if defined and len(f) == 3 and f[1] in "TDBR":
            yield f[2]
        elif not defined and len(f) == 2 and f[0] == "U":
            yield f[1]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__.strip())
    build, show_all = sys.argv[1], "--all" in sys.argv[2:]
    # Only what the build compiles now: an incremental build may keep the
    # objects of sources that moved.
    objs = [o for o in sorted(current_objects(os.path.abspath(build)))
            if layer_of(o) and os.path.exists(o)]
    if not any(layer_of(o)[1] == "core" for o in objs):
        sys.exit(f"{build}: no engine/core objects: build litmus first")
    owner = {}
    for o in objs:
        for s in symbols(o, True):
            owner[s] = o
    leaks, edges = [], collections.Counter()
    for o in sorted(objs):
        lo = layer_of(o)
        for s in sorted(set(symbols(o, False))):
            d = owner.get(s)
            if d is None:
                continue
            ld = layer_of(d)
            if ld[1] == lo[1]:
                continue
            edges[(lo[1], ld[1])] += 1
            if ld[0] > lo[0] or (ld[0] == lo[0] == 3):
                name = lambda p: os.path.basename(p)[:-2]
                leaks.append(f"{name(o)} -> {name(d)}: {s}")
    for line in leaks:
        print(line)
    if show_all:
        for (a, b), n in sorted(edges.items()):
            print(f"{a} -> {b}: {n} symbols")
    print(f"leaks: {len(leaks)}", file=sys.stderr)
    return 1 if leaks else 0


if __name__ == "__main__":
    sys.exit(main())
