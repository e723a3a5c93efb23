#!/usr/bin/python3
"""Trivial compiler equivalence, the engine's compile of every mutant
(runners/codediff.py analyse), two ways side by side in one run: each
mutant compiled with its group of top-level statements alone (what the
engine does) and with the whole module (what it did before).  Prints
the time of each and their ratio, and the mutants whose results differ
(status, structural flag, message, swap payload's code objects,
duplicate classes): a difference is a fault of the grouping.  Standard
library only; run it with the interpreter whose compiler is in question.

    /usr/bin/python3 bench/compile_bench.py FILE.py [FILE.py ...]

Every operator's mutants of each file (operators/mutgen.py).  Exits 1
when a result differs.
"""

import marshal
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "runners"))
sys.path.insert(0, os.path.join(HERE, "..", "operators"))
import codediff  # noqa: E402
import mutgen  # noqa: E402


def classes(results):
    """Each OK mutant's first duplicate (by fingerprint), else None."""
    first = {}
    return [first.setdefault(fp, i) if status == codediff.OK else None
            for i, (status, _, fp, _, _) in enumerate(results)]


def payload(blob):
    return marshal.loads(blob) if blob else None


def timed_analyse(path, source, changes, whole):
    codediff._ORIGINALS.clear()
    t0 = time.process_time()
    out = codediff.analyse(path, source, changes, 1 << 40, whole=whole)
    return out, time.process_time() - t0


def main(files):
    if not files:
        sys.exit(__doc__)
    ops = ",".join(mutgen.operator_names())
    n = differ = 0
    t_whole = t_groups = 0.0
    for path in files:
        with open(path, "rb") as f:
            data = f.read()
        status, mutants = mutgen.generate(path, data, ops)
        if status != "ok":
            print("%s: no mutants (%s)" % (path, mutants))
            continue
        source = data.decode("utf-8", "surrogateescape")
        changes = [(m[5], m[6], m[10]) for m in mutants]
        whole, tw = timed_analyse(path, source, changes, True)
        groups, tg = timed_analyse(path, source, changes, False)
        t_whole += tw
        t_groups += tg
        n += len(changes)
        bad = [c for c, w, g in zip(changes, whole, groups)
               if (w[0], w[1], w[3]) != (g[0], g[1], g[3]) or
               payload(w[4]) != payload(g[4])]
        cw, cg = classes(whole), classes(groups)
        bad += [changes[i] for i, (a, b) in enumerate(zip(cw, cg))
                if a != b and changes[i] not in bad]
        differ += len(bad)
        for c in bad[:3]:
            print("%s: differs at bytes %d-%d -> %r" % (path, c[0], c[1],
                                                        c[2]))
    print("python %s: %d mutants of %d files; whole module %.1f s, by "
          "statement groups %.1f s, %.1fx; results differing: %d"
          % (sys.version.split()[0], n, len(files), t_whole, t_groups,
             t_whole / t_groups if t_groups else 0.0, differ))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
