#!/usr/bin/env python3
"""The calls between litmus's layers, read from the built objects (nm).

    scripts/layers.py BUILD_DIR [--all]

The layers, lowest first: the libraries below the engine (common, sandbox,
harness, operators, runners), engine/core and engine/similarity, the
report writers, the jobs (score, patches, dataset, cluster: siblings),
the command line.  A call is a leak when it reaches a higher layer or a
sibling job.  Prints one line per leak, "caller.c -> callee.c: symbol".
The files of one folder must depend one way too: a cycle of calls between
them (a.c calls b.c, which calls a.c, directly or through others) prints
"cycle: a.c -> b.c -> a.c" with a symbol of each call.  Exits 1 when
there is a leak or a cycle.  --all prints every call between two
different layers too (the graph, for docs/design.md).

Core's private structs stay in core: a file of the jobs, the reports or
the command line that includes engine/core/pool.h or internal.h, or names
struct job, struct pool or struct zygote (even in a declaration, which
the compile guard of pool.h does not see), prints "private: file:line:
what" and fails the check too.  The jobs read a run through
engine/core/run.h and a lane through engine/core/exec.h.
"""
import collections
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from buildobjs import current_objects, object_sources  # noqa: E402

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

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


_SYMBOLS = {}


def _nm(objs, defined):
    """Reads the symbols of many objects with one nm (one process per
    object cost most of the check's time): fills _SYMBOLS[(obj, defined)]
    with each object's lines, in nm's order."""
    unread = [o for o in dict.fromkeys(objs)
              if (o, defined) not in _SYMBOLS]
    for i in range(0, len(unread), 256):
        batch = unread[i:i + 256]
        args = ["nm", "--defined-only" if defined else "--undefined-only"]
        out = subprocess.run(args + batch, capture_output=True, text=True,
                             check=True)
        # With two files or more, nm heads each one's lines "\nFILE:".
        heads = {o + ":": o for o in batch}
        current = batch[0]
        for o in batch:
            _SYMBOLS[(o, defined)] = []
        for line in out.stdout.splitlines():
            if len(batch) > 1 and line in heads:
                current = heads[line]
            elif line:
                _SYMBOLS[(current, defined)].append(line)


def symbols(obj, defined):
    if (obj, defined) not in _SYMBOLS:
        _nm([obj], defined)
    for line in _SYMBOLS[(obj, defined)]:
        f = line.split()
        if defined and len(f) == 3 and f[1] in "TDBR":
            yield f[2]
        elif not defined and len(f) == 2 and f[0] == "U":
            yield f[1]


# Above core: what may not reach core's private structs and headers.
ABOVE_CORE = ("engine/jobs", "engine/report", "engine/cli")
PRIVATE = re.compile(r'\bstruct\s+(job|pool|zygote)\b|'
                     r'#\s*include\s*"engine/core/(pool|internal)\.h"')
COMMENT = re.compile(r'/\*.*?\*/|//[^\n]*', re.S)


def private_uses():
    """(file, line, text) of each reach above core into core's private
    structs or headers; comments do not count."""
    found = []
    for top in ABOVE_CORE:
        for root, _, files in os.walk(os.path.join(TOP, top)):
            for f in sorted(files):
                if not f.endswith((".c", ".h")):
                    continue
                path = os.path.join(root, f)
                with open(path, encoding="utf-8") as fh:
                    text = fh.read()
                # Blank the comments but keep their newlines: lines count.
                code = COMMENT.sub(lambda m: re.sub(r'[^\n]', ' ',
                                                    m.group()), text)
                for m in PRIVATE.finditer(code):
                    line = code.count("\n", 0, m.start()) + 1
                    found.append((os.path.relpath(path, TOP), line,
                                  m.group().strip()))
    return sorted(found)


def file_cycles(objs, owner, sources):
    """The cycles of calls between files of one folder: each a list of
    (file, symbol it calls in the next file), in call order."""
    graph = collections.defaultdict(dict)
    folder = lambda o: os.path.dirname(sources[o])
    for o in objs:
        for s in sorted(set(symbols(o, False))):
            d = owner.get(s)
            if d and d != o and folder(d) == folder(o):
                graph[o].setdefault(d, s)
    # Tarjan's strongly connected components, without recursion.
    index, low, on, stack, comps = {}, {}, set(), [], []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    comps.append(set(comp))
    # One cycle through each component, to name it: a walk from its first
    # file that stays inside, until it meets a file it has seen.
    cycles = []
    for comp in comps:
        path, seen, v = [], {}, min(comp)
        while v not in seen:
            seen[v] = len(path)
            w = min(x for x in graph[v] if x in comp)
            path.append((v, graph[v][w]))
            v = w
        cycles.append((path[seen[v]:], v))
    return cycles


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
    # The project's own files (not the tests', fuzzers' or third
    # parties').
    sources = object_sources(os.path.abspath(build))
    objs_all = [o for o in sorted(sources) if os.path.exists(o) and
                not os.path.relpath(sources[o], TOP).startswith(
                    ("tests/", "third_party/", "..")) and
                ".dir" in o]
    # Every object's symbols, read once by one nm per kind.
    _nm(objs + objs_all, True)
    _nm(objs + objs_all, False)
    owner = {}
    for o in objs:
        for s in symbols(o, True):
            owner[s] = o
    owner_all = {}
    for o in objs_all:
        for s in symbols(o, True):
            owner_all[s] = o
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
    cycles = file_cycles(objs_all, owner_all, sources)
    for path, back in cycles:
        name = lambda o: os.path.relpath(sources[o], TOP)
        print("cycle: " + " -> ".join(f"{name(f)} ({s})" for f, s in path) +
              f" -> {name(back)}")
    private = private_uses()
    for path, line, what in private:
        print(f"private: {path}:{line}: {what}")
    if show_all:
        for (a, b), n in sorted(edges.items()):
            print(f"{a} -> {b}: {n} symbols")
    print(f"leaks: {len(leaks)}, file cycles: {len(cycles)}, "
          f"private: {len(private)}", file=sys.stderr)
    return 1 if leaks or cycles or private else 0


if __name__ == "__main__":
    sys.exit(main())
