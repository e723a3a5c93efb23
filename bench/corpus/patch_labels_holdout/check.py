#!/usr/bin/python3
"""Self-check of the HELD-OUT labelled plausible-patch set
(bench/corpus/patch_labels_holdout), adapted from the development set's
bench/corpus/patch_labels/check.py.

Plain Python and pytest only (no litmus). Run with Debian's Python, which has
pytest 7.2:

    /usr/bin/python3 bench/corpus/patch_labels_holdout/check.py [-j N] [-v] [program ...]

For every program of manifest.json it checks that

  * labels.json and candidates/<program>/ name the same run ids, and every
    label is well formed (an overfitting one has a witness, or a witness
    builder below for the node-object programs);
  * the suite FAILS on the buggy file and PASSES on the reference fix;
  * every candidate, put in place of <program>.py in a temp copy of the
    program's folder, PASSES the suite (the set holds plausible patches only);
  * every overfitting candidate differs from the reference on its witness:
    both are called in their own interpreter, with a timeout; the reference
    must return normally there, and the witness must satisfy the program's
    contract as written in its docstring (a predicate per program below);
  * every correct candidate agrees with the reference on a few hundred random
    inputs that respect the contract (a generator per program below), and a
    candidate with an `outside_input` differs from the reference there and
    that input really is outside the contract (class 4). Every random input
    is checked against the contract predicate too.

Outcomes are compared as (return value, arguments after the call): type and
repr of the value, a generator consumed into a list, a dict as its sorted
items (insertion order is not part of any contract here), a linked list of
Node cells as the values along its successor chain (with the position where
a cycle closes, if any), an exception by its type, "timeout" for a call that
does not finish. Comparing the arguments
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

def _chain(values):
    from node import Node
    head = None
    for value in reversed(values):
        head = Node(value, head)
    return head


def gen_reverse_list(rng, small):
    size = rng.randint(0, 8) if rng.random() < 0.85 else rng.randint(9, 40 if small else 300)
    pool = rng.choice([[0, 1, 2], list(range(20)), [None, "a", 0, (1, 2), 2.5]])
    return [_chain([rng.choice(pool) for _ in range(size)])]


NAMES = "abcdefghij"


def gen_shortest_paths(rng, small):
    nodes = list(NAMES[:rng.randint(1, 5 if small else 8)])
    rng.shuffle(nodes)
    p = rng.choice([0.2, 0.35, 0.6])
    weights = rng.choice([range(0, 3), range(0, 10), range(1, 100)])
    graph = {}
    for node in nodes:
        graph[node] = {other: rng.choice(weights) for other in nodes if rng.random() < p}
    return [graph, rng.choice(nodes)]


def gen_to_base(rng, small):
    kind = rng.randrange(5)
    if kind == 0:
        num = rng.randint(0, 40)
    elif kind == 1:
        num = rng.randint(0, 10 ** 6)
    elif kind == 2:
        b0 = rng.randint(2, 36)
        num = b0 ** rng.randint(0, 12) + rng.choice([-1, 0, 0, 1])
    elif kind == 3:
        num = rng.randint(0, 10 ** 30)
    else:
        num = rng.randint(2 ** 53 - 1000, 2 ** 64)
    return [max(num, 0), rng.randint(2, 36)]


def _balanced_string(rng, pairs):
    if pairs == 0:
        return ""
    inner = rng.randint(0, pairs - 1)
    return "(" + _balanced_string(rng, inner) + ")" + _balanced_string(rng, pairs - 1 - inner)


def gen_balanced(rng, small):
    kind = rng.randrange(3)
    if kind == 0:
        return ["".join(rng.choice("()") for _ in range(rng.randint(0, 12)))]
    text = _balanced_string(rng, rng.randint(0, 8 if rng.random() < 0.8 else 60))
    if kind == 2 and text:
        i = rng.randrange(len(text))   # one change: usually unbalanced, sometimes not
        text = text[:i] + rng.choice(["", "(", ")", ")("]) + text[i + 1:]
    return [text]


NUMBERS = [0, 1, 2, 3, 5, 7, 9, -1, -4, 12, 0.5, 2.25, -1.5, 1e-3, 100, -0.0]


def _rpn_tree(rng, depth):
    """(tokens, value) of a random expression; value computed as Python does."""
    if depth == 0 or rng.random() < 0.3:
        x = rng.choice(NUMBERS)
        return [x], x
    op = rng.choice("+-*/")
    left, lv = _rpn_tree(rng, depth - 1)
    right, rv = _rpn_tree(rng, depth - 1)
    if op == "/" and rv == 0:
        op = "+"
    value = {"+": lambda a, b: a + b, "-": lambda a, b: a - b,
             "*": lambda a, b: a * b, "/": lambda a, b: a / b}[op](lv, rv)
    return left + right + [op], value


def gen_rpn_eval(rng, small):
    tokens, _ = _rpn_tree(rng, rng.randint(0, 5))
    return [tokens]


def gen_pascal(rng, small):
    return [rng.randint(0, 12) if small or rng.random() < 0.6 else rng.randint(13, 70)]


PRIMES = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 97, 101, 1009, 7919, 104729]


def gen_prime_factors(rng, small):
    kind = rng.randrange(3)
    if kind == 0:
        return [rng.randint(1, 3000)]
    if kind == 1:
        n = 1
        for _ in range(rng.randint(0, 6)):
            n *= rng.choice(PRIMES[:10] if small else PRIMES)
        return [n]
    return [rng.randint(1, 10 ** 5 if small else 10 ** 10)]


def gen_count_change(rng, small):
    coins = rng.sample(range(1, 13), rng.randint(0, 4))
    if rng.random() < 0.2:
        coins.append(rng.randint(13, 60))
    rng.shuffle(coins)
    return [rng.randint(0, 22 if small else 60), coins]


def gen_counting_sort(rng, small):
    k = rng.randint(1, 12)
    size = rng.randint(0, 10) if rng.random() < 0.9 else rng.randint(11, 80 if small else 400)
    return [[rng.randrange(k) for _ in range(size)], k]


# Correct candidates that are slow by design get the small inputs.
SLOW = {("reverse_list", "p9"), ("shortest_paths", "p7"), ("prime_factors", "p3"),
        ("count_change", "p5"), ("counting_sort", "p5")}


# ------------------------------------------------------------- contracts
# contract_<program>(args) -> True when the positional arguments satisfy the
# contract that the program's docstring states (the witnesses must, the
# outside_inputs must not, and so must every random input).

def _is_int(x):
    return isinstance(x, int) and not isinstance(x, bool)


def contract_reverse_list(args):
    from node import Node
    head, = args
    seen = set()
    while head is not None:
        if not isinstance(head, Node) or id(head) in seen:
            return False
        seen.add(id(head))
        head = head.successor
    return True


def contract_shortest_paths(args):
    graph, source = args
    if not isinstance(graph, dict) or source not in graph:
        return False
    for node, edges in graph.items():
        if not isinstance(node, str) or not isinstance(edges, dict):
            return False
        for succ, weight in edges.items():
            if succ not in graph or not _is_int(weight) or weight < 0:
                return False
    return True


def contract_to_base(args):
    num, b = args
    return _is_int(num) and num >= 0 and _is_int(b) and 2 <= b <= 36


def contract_balanced(args):
    text, = args
    return isinstance(text, str) and set(text) <= set("()")


def contract_rpn_eval(args):
    import math
    tokens, = args
    if not isinstance(tokens, list):
        return False
    stack = []
    for token in tokens:
        if isinstance(token, str):
            if token not in ("+", "-", "*", "/") or len(stack) < 2:
                return False
            right, left = stack.pop(), stack.pop()
            if token == "/" and right == 0:
                return False
            stack.append({"+": left + right, "-": left - right, "*": left * right}[token]
                         if token != "/" else left / right)
        elif (_is_int(token) or isinstance(token, float)) and math.isfinite(token):
            stack.append(token)
        else:
            return False
    return len(stack) == 1


def contract_pascal(args):
    n, = args
    return _is_int(n) and n >= 0


def contract_prime_factors(args):
    n, = args
    return _is_int(n) and n >= 1


def contract_count_change(args):
    total, coins = args
    return (_is_int(total) and total >= 0 and isinstance(coins, list)
            and all(_is_int(c) and c > 0 for c in coins) and len(set(coins)) == len(coins))


def contract_counting_sort(args):
    arr, k = args
    return (_is_int(k) and k >= 1 and isinstance(arr, list)
            and all(_is_int(x) and 0 <= x < k for x in arr))


# ------------------------------------------------- witnesses on node objects
# (program, run_id) -> builder returning the positional arguments; labels.json
# describes each in "witness_note".

def w_reverse_list_p4():
    return [_chain([1, 2])]


def w_reverse_list_p6():
    return [_chain([1, 2])]


def w_reverse_list_p8():
    return [_chain([1, 2, 1])]


BUILDERS = {
    ("reverse_list", "p4"): w_reverse_list_p4,
    ("reverse_list", "p6"): w_reverse_list_p6,
    ("reverse_list", "p8"): w_reverse_list_p8,
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
    if isinstance(value, dict):
        items = [[_norm(k, depth + 1), _norm(v, depth + 1)] for k, v in value.items()]
        return ["dict", sorted(items, key=repr)]
    if hasattr(value, "successor"):
        # A linked list: the values along the chain, and where a cycle closes.
        values, index, node = [], {}, value
        while node is not None and id(node) not in index and len(values) < 100000:
            index[id(node)] = len(values)
            values.append(_norm(node.value, depth + 1))
            node = node.successor
        return ["chain", values, index.get(id(node)) if node is not None else None]
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
    in_contract = bool(globals()["contract_" + program](args))
    out = _outcome(fn, args, CALL_TIMEOUT)
    sys.stdout.write("\n" + MARK + json.dumps({"outcome": out, "in_contract": in_contract}) + "\n")


def _copy(args):
    """A deep copy; deepcopy recurses along a linked list, so the limit is
    raised while it runs (and only then: the candidates keep the default)."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(20000)
    try:
        return copy.deepcopy(args)
    finally:
        sys.setrecursionlimit(limit)


def child_agree(folder, ref_path, cand_path, function, program, seed, count, small):
    sys.path.insert(0, folder)
    ref = getattr(_load(ref_path, "_reference"), function)
    cand = getattr(_load(cand_path, "_candidate"), function)
    gen = globals()["gen_" + program]
    rng = random.Random(seed)
    compared = skipped = 0
    mismatch = None
    contract = globals()["contract_" + program]
    for _ in range(count):
        args = gen(rng, small)
        shown = repr(args)[:200]
        if not contract(args):
            mismatch = {"input": shown, "problem": "the generator made an input outside the contract"}
            break
        a = _outcome(ref, _copy(args), CALL_TIMEOUT)
        if a[0][0] != "value":
            skipped += 1
            continue
        b = _outcome(cand, _copy(args), CALL_TIMEOUT)
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


def _clip(outcome, limit=300):
    text = json.dumps(outcome)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def call_both(prog, folder, cand_path, args=None, builder=None):
    ref_path = os.path.join(HERE, prog.entry["reference"])
    fn = prog.entry["function"]
    extra = ["--builder", builder] if builder else ["--args", json.dumps(args)]
    outs = []
    for path in (ref_path, cand_path):
        out, err = run_child(["--call", folder, path, fn, prog.name] + extra)
        if err:
            return None, None, None, err
        outs.append(out)
    return outs[0]["outcome"], outs[1]["outcome"], outs[0]["in_contract"], None


def task_candidate(prog, run_id):
    lab = prog.labels[run_id]
    cand_path = os.path.join(HERE, "candidates", prog.name, run_id + ".py")
    tmp, folder = make_copy(prog.name, open(cand_path).read())
    try:
        rc, tail = run_suite(folder, prog.entry["tests"])
        prog.add(rc == 0, "%s passes the suite (%s)" % (run_id, tail))
        if lab["label"] == "overfitting":
            builder = run_id if (prog.name, run_id) in BUILDERS else None
            ref, cand, inside, err = call_both(prog, folder, cand_path,
                                               lab.get("witness"), builder)
            if err:
                prog.add(False, "%s witness: %s" % (run_id, err))
            else:
                shown = lab.get("witness_note") or json.dumps(lab.get("witness"))
                prog.add(inside, "%s witness %s respects the contract" % (run_id, shown[:80]))
                ok = ref[0][0] == "value" and ref != cand
                prog.add(ok, "%s differs on its witness %s: reference %s, candidate %s"
                         % (run_id, shown[:80], _clip(ref), _clip(cand)))
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
                ref, cand, inside, err = call_both(prog, folder, cand_path, lab["outside_input"])
                if err:
                    prog.add(False, "%s outside input: %s" % (run_id, err))
                else:
                    prog.add(not inside, "%s outside input %s is outside the contract"
                             % (run_id, json.dumps(lab["outside_input"])))
                    prog.add(ref != cand, "%s differs outside the contract on %s: "
                             "reference %s, candidate %s"
                             % (run_id, json.dumps(lab["outside_input"]), _clip(ref), _clip(cand)))
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
    # The long ones first (the exponential program and the slow candidates).
    tasks.sort(key=lambda t: not (t[1].name == "count_change" or (t[1].name, t[2]) in SLOW))

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
        print("%-15s %2d candidates (%d overfitting): %3d checks passed, %d failed"
              % (prog.name, len(prog.labels), n_over, good, len(bad)))
        for what in (sorted(what for ok, what in prog.results) if opts.verbose else bad):
            print("    %s%s" % ("" if what not in bad else "FAIL ", what))
    print("%d passed, %d failed (%.1f s)" % (passed, failed, time.time() - started))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
