#!/usr/bin/python3
"""Self-check of the labelled plausible-patch set (bench/corpus/patch_labels).

Plain Python and pytest only (no litmus). Run with Debian's Python, which has
pytest 7.2:

    /usr/bin/python3 bench/corpus/patch_labels/check.py [-j N] [program ...]

For every program of manifest.json it checks that

  * labels.json and candidates/<program>/ name the same run ids, and every
    label is well formed (an overfitting one has a witness, or a witness
    builder below for the node-object programs);
  * the suite FAILS on the buggy file and PASSES on the reference fix;
  * every candidate, put in place of <program>.py in a temp copy of the
    program's folder, PASSES the suite (the set holds plausible patches only);
  * every overfitting candidate differs from the reference on its witness:
    both are called in their own interpreter, with a timeout; the reference
    must return normally there (a witness respects the contract);
  * every correct candidate agrees with the reference on a few hundred random
    inputs that respect the contract (a generator per program below), and a
    candidate with an `outside_input` differs from the reference there (the
    inputs outside the contract that class 4 is about).

Outcomes are compared as (return value, arguments after the call): type and
repr of the value, a generator consumed into a list, an exception by its
type, "timeout" for a call that does not finish. Comparing the arguments
after the call catches patches that mutate their argument.

Prints one line per program and then `N passed, N failed`; exit status 1 if
anything failed.
"""
import argparse
import copy
import itertools
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import types
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
PYTEST_TIMEOUT = 60.0
CALL_TIMEOUT = 5.0        # one call, inside the child
CHILD_TIMEOUT = 40.0      # a whole witness or agreement child
RANDOM_INPUTS = 300
MARK = "@@RESULT@@"


# ---------------------------------------------------------------- generators
# gen_<program>(rng, small) -> list of positional arguments that respect the
# program's documented contract. `small` keeps inputs small enough for the
# candidates that are correct but slow (SLOW below).

def gen_reachable(rng, small):
    from node import Node
    nodes = [Node(rng.randint(0, 3)) for _ in range(rng.randint(1, 7))]
    p = rng.choice([0.15, 0.3, 0.5])
    for node in nodes:
        node.successors = [other for other in nodes if rng.random() < p]
    start = rng.choice(nodes)
    goal = rng.choice(nodes) if rng.random() < 0.9 else Node(rng.randint(0, 3))
    return [start, goal]


def gen_detect_cycle(rng, small):
    from node import Node
    size = rng.randint(0, 10) if rng.random() < 0.8 else rng.randint(11, 60)
    nodes = [Node(rng.randint(0, 2)) for _ in range(size)]
    for a, b in zip(nodes, nodes[1:]):
        a.successor = b
    if nodes and rng.random() < 0.5:
        nodes[-1].successor = rng.choice(nodes)
    return [nodes[0] if nodes else None]


LEAVES = [0, 1, -2, 7, 7, None, "", "ab", "c", 2.5, True, False, (1, 2)]


def _nested(rng, depth):
    items = []
    for _ in range(rng.randint(0, 4)):
        if depth < 4 and rng.random() < 0.35:
            items.append(_nested(rng, depth + 1))
        else:
            items.append(rng.choice(LEAVES))
    return items


def gen_flatten(rng, small):
    return [_nested(rng, 0)]


def gen_next_permutation(rng, small):
    return [rng.sample(range(-3, 9), rng.randint(0, 6))]


def gen_merge_sort(rng, small):
    size = rng.randint(0, 6 if small else 9)
    values = [rng.randint(-10, 10) for _ in range(size)]
    if values and not small and rng.random() < 0.2:
        values[rng.randrange(size)] = rng.choice([10 ** 6, 10 ** 12, -10 ** 12, 2 ** 70])
    return [values]


def gen_rotate_left(rng, small):
    arr = [rng.randint(-5, 9) for _ in range(rng.randint(0, 8))]
    if small or rng.random() < 0.8:
        k = rng.randint(0, 25)
    else:
        k = rng.choice([10 ** 9 + 7, 2 ** 64, 3 ** 50])
    return [arr, k]


def gen_lcs_length(rng, small):
    def word():
        return "".join(rng.choice("abcaB") for _ in range(rng.randint(0, 7)))
    return [word(), word()]


def gen_isqrt(rng, small):
    kind = rng.randrange(4)
    if kind == 0:
        n = rng.randint(0, 300)
    elif kind == 1:
        r = rng.randint(0, 10 ** 4 if small else 10 ** 20)
        n = max(0, r * r + rng.choice([-1, 0, 1]))
    elif kind == 2:
        n = rng.randint(0, 10 ** 6)
    else:
        n = rng.randint(0, 10 ** 8 if small else 10 ** 40)
    return [n]


def gen_fibonacci(rng, small):
    return [rng.randint(0, 20 if small else 90)]


def gen_find_in_sorted(rng, small):
    arr = sorted(rng.sample(range(-15, 15), rng.randint(0, 8)))
    x = rng.choice(arr) if arr and rng.random() < 0.5 else rng.randint(-17, 17)
    return [arr, x]


def gen_rle_encode(rng, small):
    text = "".join(rng.choice("aab\n1 Z") for _ in range(rng.randint(0, 14)))
    if rng.random() < 0.2:
        cut = rng.randint(0, len(text))
        text = text[:cut] + "q" * rng.randint(8, 14) + text[cut:]
    return [text]


def gen_is_subsequence(rng, small):
    def word(limit):
        return "".join(rng.choice("abc") for _ in range(rng.randint(0, limit)))
    return [word(4), word(8)]


# Correct candidates that are slow by design get the small inputs.
SLOW = {("fibonacci", "p1"), ("merge_sort", "p5"), ("isqrt", "p5"),
        ("rotate_left", "p5")}


# ------------------------------------------------- witnesses on node objects
# (program, run_id) -> builder returning the positional arguments; labels.json
# describes each in "witness_note".

def _chain(values):
    from node import Node
    nodes = [Node(v) for v in values]
    for a, b in zip(nodes, nodes[1:]):
        a.successor = b
    return nodes


def w_reachable_p3():
    from node import Node
    s, t, g = Node("s"), Node("t"), Node("g")
    s.successors = [t]
    return [s, g]


def w_reachable_p4():
    from node import Node
    s, t, u, v = Node("s"), Node("t"), Node("u"), Node("v")
    s.successors, t.successors, u.successors = [t], [u], [v]
    return [s, v]


def w_reachable_p6():
    from node import Node
    s, t, g = Node("s"), Node("t"), Node("g")
    s.successors, t.successors = [t], [s]
    return [s, g]


def w_reachable_p8():
    from node import Node
    s, t, g = Node(1), Node(2), Node(2)
    s.successors = [t]
    return [s, g]


def w_detect_cycle_p2():
    a, b, c = _chain("abc")
    c.successor = b
    return [a]


def w_detect_cycle_p4():
    return [_chain(range(60))[0]]


def w_detect_cycle_p6():
    return [_chain([1, 1, 1, 1])[0]]


BUILDERS = {
    ("reachable", "p3"): w_reachable_p3,
    ("reachable", "p4"): w_reachable_p4,
    ("reachable", "p6"): w_reachable_p6,
    ("reachable", "p8"): w_reachable_p8,
    ("detect_cycle", "p2"): w_detect_cycle_p2,
    ("detect_cycle", "p4"): w_detect_cycle_p4,
    ("detect_cycle", "p6"): w_detect_cycle_p6,
}


# ------------------------------------------------------------ child process

class CallTimeout(BaseException):
    """Raised by the interval timer; BaseException so that `except Exception`
    in a candidate does not swallow it."""


def _on_alarm(signum, frame):
    raise CallTimeout()


def _norm(value, depth=0):
    if depth > 50:
        return ["deep"]
    if isinstance(value, (types.GeneratorType, map, filter, zip)) or (
            hasattr(value, "__next__") and hasattr(value, "__iter__")):
        items = list(itertools.islice(value, 100001))
        return ["iter", [_norm(x, depth + 1) for x in items]]
    if isinstance(value, (list, tuple)):
        return [type(value).__name__, [_norm(x, depth + 1) for x in value]]
    if hasattr(value, "successors") or hasattr(value, "successor"):
        return ["node"]
    return [type(value).__name__, repr(value)]


def _outcome(fn, args, timeout):
    """(normalised result, normalised arguments after the call)."""
    signal.signal(signal.SIGALRM, _on_alarm)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        try:
            result = ["value", _norm(fn(*args))]
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
    except CallTimeout:
        result = ["timeout"]
    except RecursionError:
        result = ["raise", "RecursionError"]
    except Exception as exc:
        result = ["raise", type(exc).__name__]
    try:
        after = [_norm(a) for a in args]
    except Exception:   # an argument left in a state that cannot be walked
        after = ["unwalkable"]
    return [result, after]


def _load(path, name):
    import importlib.util
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def child_call(folder, path, function, program, args_json, builder):
    sys.path.insert(0, folder)
    fn = getattr(_load(path, "_subject"), function)
    if builder:
        args = BUILDERS[(program, builder)]()
    else:
        args = json.loads(args_json)
    out = _outcome(fn, args, CALL_TIMEOUT)
    sys.stdout.write("\n" + MARK + json.dumps(out) + "\n")


def child_agree(folder, ref_path, cand_path, function, program, seed, count, small):
    sys.path.insert(0, folder)
    ref = getattr(_load(ref_path, "_reference"), function)
    cand = getattr(_load(cand_path, "_candidate"), function)
    gen = globals()["gen_" + program]
    rng = random.Random(seed)
    compared = skipped = 0
    mismatch = None
    for _ in range(count):
        args = gen(rng, small)
        shown = repr(args)[:200]
        a = _outcome(ref, copy.deepcopy(args), CALL_TIMEOUT)
        if a[0][0] != "value":
            skipped += 1
            continue
        b = _outcome(cand, copy.deepcopy(args), CALL_TIMEOUT)
        compared += 1
        if a != b:
            mismatch = {"input": shown, "reference": a, "candidate": b}
            break
    out = {"compared": compared, "skipped": skipped, "mismatch": mismatch}
    sys.stdout.write("\n" + MARK + json.dumps(out) + "\n")


# ---------------------------------------------------------------- the checks

def run_child(argv):
    try:
        proc = subprocess.run([PYTHON, os.path.abspath(__file__)] + argv,
                              capture_output=True, text=True,
                              timeout=CHILD_TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, "child timed out after %.0f s" % CHILD_TIMEOUT
    if MARK not in proc.stdout:
        return None, "child failed: " + (proc.stderr.strip().splitlines() or ["?"])[-1]
    return json.loads(proc.stdout.rsplit(MARK, 1)[1]), None


def make_copy(program, text=None):
    """A temp copy of the program's folder without reference/, with `text`
    (if given) in place of <program>.py."""
    tmp = tempfile.mkdtemp(prefix="plcheck-%s-" % program)
    dst = os.path.join(tmp, program)
    shutil.copytree(os.path.join(HERE, program), dst,
                    ignore=shutil.ignore_patterns("reference", "__pycache__",
                                                  ".pytest_cache"))
    if text is not None:
        with open(os.path.join(dst, program + ".py"), "w") as f:
            f.write(text)
    return tmp, dst


def run_suite(folder, tests):
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    try:
        proc = subprocess.run([PYTHON, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                               os.path.basename(tests)], cwd=folder, env=env,
                              capture_output=True, text=True, timeout=PYTEST_TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, "timeout"
    tail = (proc.stdout.strip().splitlines() or [""])[-1]
    return proc.returncode, tail


class Program:
    def __init__(self, name, entry, labels):
        self.name, self.entry, self.labels = name, entry, labels
        self.results = []       # (ok, what)

    def add(self, ok, what):
        self.results.append((ok, what))


def check_structure(prog):
    cand_dir = os.path.join(HERE, "candidates", prog.name)
    files = sorted(f[:-3] for f in os.listdir(cand_dir) if f.endswith(".py")) \
        if os.path.isdir(cand_dir) else []
    ok = set(files) == set(prog.labels)
    prog.add(ok, "labels and candidate files agree" if ok else
             "labels %s vs files %s" % (sorted(prog.labels), files))
    for run_id, lab in sorted(prog.labels.items()):
        problems = []
        if lab.get("label") not in ("correct", "overfitting"):
            problems.append("label %r" % lab.get("label"))
        if not lab.get("kind") or not lab.get("why"):
            problems.append("kind/why missing")
        if lab.get("label") == "overfitting":
            builder = (prog.name, run_id) in BUILDERS
            if lab.get("witness") is None and not (builder and lab.get("witness_note")):
                problems.append("no witness (nor builder + witness_note)")
        elif lab.get("witness") is not None:
            problems.append("a correct candidate with a witness")
        if problems:
            prog.add(False, "%s: %s" % (run_id, "; ".join(problems)))
    for key in ("buggy", "reference", "tests"):
        if not os.path.exists(os.path.join(HERE, prog.entry[key])):
            prog.add(False, "missing %s" % prog.entry[key])


def task_baseline(prog, which):
    path = os.path.join(HERE, prog.entry[which])
    tmp, folder = make_copy(prog.name, open(path).read())
    try:
        rc, tail = run_suite(folder, prog.entry["tests"])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if which == "buggy":
        prog.add(rc != 0, "buggy fails the suite (%s)" % tail)
    else:
        prog.add(rc == 0, "reference passes the suite (%s)" % tail)


def call_both(prog, folder, cand_path, args=None, builder=None):
    ref_path = os.path.join(HERE, prog.entry["reference"])
    fn = prog.entry["function"]
    extra = ["--builder", builder] if builder else ["--args", json.dumps(args)]
    outs = []
    for path in (ref_path, cand_path):
        out, err = run_child(["--call", folder, path, fn, prog.name] + extra)
        if err:
            return None, None, err
        outs.append(out)
    return outs[0], outs[1], None


def task_candidate(prog, run_id):
    lab = prog.labels[run_id]
    cand_path = os.path.join(HERE, "candidates", prog.name, run_id + ".py")
    tmp, folder = make_copy(prog.name, open(cand_path).read())
    try:
        rc, tail = run_suite(folder, prog.entry["tests"])
        prog.add(rc == 0, "%s passes the suite (%s)" % (run_id, tail))
        if lab["label"] == "overfitting":
            builder = run_id if (prog.name, run_id) in BUILDERS else None
            ref, cand, err = call_both(prog, folder, cand_path,
                                       lab.get("witness"), builder)
            if err:
                prog.add(False, "%s witness: %s" % (run_id, err))
            else:
                shown = lab.get("witness_note") or json.dumps(lab.get("witness"))
                ok = ref[0][0] == "value" and ref != cand
                prog.add(ok, "%s differs on its witness %s: reference %s, candidate %s"
                         % (run_id, shown[:80], ref, cand))
        else:
            seed = "%s/%s" % (prog.name, run_id)
            small = "1" if (prog.name, run_id) in SLOW else "0"
            out, err = run_child(["--agree", folder,
                                  os.path.join(HERE, prog.entry["reference"]),
                                  cand_path, prog.entry["function"], prog.name,
                                  seed, str(RANDOM_INPUTS), small])
            if err:
                prog.add(False, "%s random agreement: %s" % (run_id, err))
            else:
                ok = out["mismatch"] is None and out["compared"] >= RANDOM_INPUTS // 2
                prog.add(ok, "%s agrees on %d random inputs%s" % (
                    run_id, out["compared"],
                    "" if out["mismatch"] is None else ": " + json.dumps(out["mismatch"])))
            if "outside_input" in lab:
                ref, cand, err = call_both(prog, folder, cand_path, lab["outside_input"])
                if err:
                    prog.add(False, "%s outside input: %s" % (run_id, err))
                else:
                    prog.add(ref != cand, "%s differs outside the contract on %s: "
                             "reference %s, candidate %s"
                             % (run_id, json.dumps(lab["outside_input"]), ref, cand))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--call":
        folder, path, fn, program, flag, value = sys.argv[2:8]
        child_call(folder, path, fn, program,
                   value if flag == "--args" else None,
                   value if flag == "--builder" else None)
        return 0
    if len(sys.argv) > 1 and sys.argv[1] == "--agree":
        folder, ref, cand, fn, program, seed, count, small = sys.argv[2:10]
        child_agree(folder, ref, cand, fn, program, seed, int(count), small == "1")
        return 0

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-j", "--jobs", type=int, default=max(2, 2 * (os.cpu_count() or 1)))
    ap.add_argument("-v", "--verbose", action="store_true", help="list every check")
    ap.add_argument("programs", nargs="*")
    opts = ap.parse_args()
    manifest = json.load(open(os.path.join(HERE, "manifest.json")))
    labels = json.load(open(os.path.join(HERE, "labels.json")))
    names = opts.programs or list(manifest)
    unknown = [n for n in names if n not in manifest]
    if unknown:
        print("unknown program(s): %s" % ", ".join(unknown))
        return 2
    progs = []
    for name in names:
        prog = Program(name, manifest[name], labels.get(name, {}))
        if name not in labels:
            prog.add(False, "no labels")
        check_structure(prog)
        progs.append(prog)
    started = time.time()
    tasks = []
    for prog in progs:
        tasks.append((task_baseline, prog, "buggy"))
        tasks.append((task_baseline, prog, "reference"))
        for run_id in prog.labels:
            if os.path.exists(os.path.join(HERE, "candidates", prog.name, run_id + ".py")):
                tasks.append((task_candidate, prog, run_id))
    # The long ones first (the exponential program's suite takes ~1 s a run).
    tasks.sort(key=lambda t: t[1].name != "lcs_length")

    def run(task):
        fn, prog, arg = task
        try:
            fn(prog, arg)
        except Exception as exc:   # a bug of this script: report, do not hide
            prog.add(False, "%s %s: check raised %r" % (fn.__name__, arg, exc))

    with ThreadPoolExecutor(max_workers=opts.jobs) as pool:
        list(pool.map(run, tasks))
    passed = failed = 0
    for prog in progs:
        bad = [what for ok, what in prog.results if not ok]
        good = len(prog.results) - len(bad)
        passed += good
        failed += len(bad)
        n_over = sum(1 for l in prog.labels.values() if l.get("label") == "overfitting")
        print("%-17s %2d candidates (%d overfitting): %3d checks passed, %d failed"
              % (prog.name, len(prog.labels), n_over, good, len(bad)))
        for what in (sorted(what for ok, what in prog.results) if opts.verbose else bad):
            print("    %s%s" % ("" if what not in bad else "FAIL ", what))
    print("%d passed, %d failed (%.1f s)" % (passed, failed, time.time() - started))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
