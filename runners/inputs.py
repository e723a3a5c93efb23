# Differential inputs of `litmus patches`: what the tests' inputs show
# (their shapes and the contract they respect), inputs derived from them
# one change at a time, other combinations of the objects they built, and
# hypothesis strategies of the same shapes.  Imported by litmus_calls in
# the zygote, before any candidate runs; pure functions of the inputs, no
# I/O.  SPDX-License-Identifier: MIT
import collections
import copy
import functools
import inspect
import itertools
import math
import os
import re
import types

MAX_OBJECTS = 64        # objects of one input's graph that are recombined
MAX_PAIRS = 400         # object combinations tried per input
MAX_LIST_GEN = 12       # longest generated container
MAX_CONSTANTS = 12      # program and test constants tried per integer
MAX_RANGE_ITEMS = 10000  # a longer range is not made a list
MAX_FIELDS = 8          # a tuple this long or shorter may be a record
# Large magnitudes where fixed-size arithmetic and floats go wrong: the
# largest 32-bit int, beyond a double's exact integers, a huge square - 1.
LARGE = [2 ** 31 - 1, 2 ** 53 + 1, 10 ** 18 - 1]
_BUILTIN_MODULES = ("builtins", "collections", "datetime", "decimal",
                    "fractions", "enum")


def _user_object(v):
    """An instance of a class of the program or its tests (a graph node, a
    linked-list cell): compared and recombined by its attributes."""
    t = type(v)
    return hasattr(v, "__dict__") and not isinstance(v, type) and \
        not callable(v) and t.__module__ not in _BUILTIN_MODULES


# --- shapes --------------------------------------------------------------

class Shape:
    """What the values seen at one place (an argument, the elements of a
    list argument, ...) have in common, by type."""

    def __init__(self):
        self.kinds = {}     # kind -> details
        self.count = 0

    def add(self, v, depth=0):
        self.count += 1
        t = type(v)
        if v is None:
            self.kinds.setdefault("none", {})
        elif t is bool:
            self.kinds.setdefault("bool", {})
        elif t in (int, float):
            d = self.kinds.setdefault(t.__name__, {"values": set(),
                                                   "min": v, "max": v})
            if len(d["values"]) < 64:
                d["values"].add(v)
            if v == v:
                d["min"], d["max"] = min(d["min"], v), max(d["max"], v)
        elif t is str:
            d = self.kinds.setdefault("str", {"alphabet": set(), "maxlen": 0,
                                              "minlen": len(v), "chars": 0,
                                              "words": set(), "n": 0})
            d["alphabet"].update(v[:200])
            d["chars"] += len(v)
            d["n"] += 1
            if len(d["words"]) <= 16:
                d["words"].add(v[:40])
            d["maxlen"] = max(d["maxlen"], len(v))
            d["minlen"] = min(d["minlen"], len(v))
        elif t in (list, tuple, set, frozenset) and depth < 6:
            d = self.kinds.setdefault(t.__name__, {
                "elem": Shape(), "minlen": len(v), "maxlen": 0,
                "distinct": True, "sorted": True, "pairs": 0, "long": 0})
            d["minlen"] = min(d["minlen"], len(v))
            d["maxlen"] = max(d["maxlen"], len(v))
            items = list(v)
            for x in items[:200]:
                d["elem"].add(x, depth + 1)
            if t is tuple:
                # A record ((weight, value)): every tuple of one length,
                # each position a shape of its own.
                if "fields" not in d:
                    d["fields"] = [Shape() for _ in items] \
                        if 2 <= len(items) <= MAX_FIELDS else None
                f = d["fields"]
                if f is not None and len(f) != len(items):
                    d["fields"] = None
                elif f is not None:
                    for sub, x in zip(f, items):
                        sub.add(x, depth + 1)
            if t in (list, tuple) and len(items) >= 2:
                d["pairs"] += len(items) * (len(items) - 1) // 2
                d["long"] += len(items) >= 3
                try:
                    if len(set(items)) != len(items):
                        d["distinct"] = False
                except TypeError:
                    d["distinct"] = False
                try:
                    if any(b < a for a, b in zip(items, items[1:])):
                        d["sorted"] = False
                except TypeError:
                    d["sorted"] = False
        elif t is dict and depth < 6:
            d = self.kinds.setdefault("dict", {"key": Shape(), "val": Shape(),
                                               "minlen": len(v), "maxlen": 0})
            d["minlen"] = min(d["minlen"], len(v))
            d["maxlen"] = max(d["maxlen"], len(v))
            for k, x in list(v.items())[:200]:
                d["key"].add(k, depth + 1)
                d["val"].add(x, depth + 1)
        elif _user_object(v):
            self.kinds.setdefault("object", {"classes": set()})[
                "classes"].add(t)
        else:
            self.kinds.setdefault("opaque", {})


def _int_like(shape):
    return set(shape.kinds) <= {"int", "float"} and shape.kinds


# --- the contract --------------------------------------------------------

class Contract:
    """Preconditions that every test input of a function satisfies, kept
    for every derived input: the sign of numbers, distinct or sorted
    elements, non-empty containers, the symbols of a string, graphs
    without cycles.  Each is inferred only when the tests give enough
    instances of it that it is unlikely to be chance.  A user's
    precondition (a function) replaces the inferred rules."""

    def __init__(self, shapes, samples, user=None, doc="", params=()):
        self.rules = []     # (description, predicate on the args tuple)
        self.user = user
        documented = self.documented = _documented_bounds(doc, params)
        raw_doc = doc
        # What the function's name and docstring say: test lists are often
        # distinct or sorted by chance ([1, 2, 3]), so those two rules also
        # need the documentation to speak of them.
        doc = doc.lower()
        self.says_distinct = any(w in doc for w in (
            "unique", "distinct", "permutation", "duplicate"))
        self.says_sorted = any(w in doc for w in (
            "sorted", "ascending", "increasing order", "nondecreasing",
            "non-decreasing"))
        self.says_nonempty = any(w in doc for w in (
            "non-empty", "nonempty", "not empty", "at least one"))
        # A sign the documentation gives holds for the numbers inside
        # containers too (weights, coins, counts), where the tests agree.
        self.says_positive = "positive" in doc
        self.says_sign = self.says_positive or any(w in doc for w in (
            "non-negative", "nonnegative", "not negative", "natural number",
            ">= 0")) or re.search(r"\b0\s*(<=|<)\s*[a-z_]\w*", doc) is not None
        if user is not None:
            self.rules.append(("the user's litmus_precondition", None))
            return
        for text, pred in _documented_preconditions(raw_doc, params):
            if all(pred(a) for a in samples):
                self.rules.append(("documented precondition: " + text, pred))
        for i, sh in enumerate(shapes):
            self._place("argument %d" % (i + 1), sh, lambda a, i=i: a[i], 0)
        for i, op, bound in documented:
            pred = (lambda a, i=i, op=op, bound=bound: len(a) <= i or
                    not _is_num(a[i]) or _OPS[op](a[i], bound))
            # A bound the tests themselves break is not the contract.
            if all(pred(a) for a in samples):
                self.rules.append(("argument %d %s %d (documented)"
                                   % (i + 1, op, bound), pred))
        self._acyclic(shapes, samples)

    def _place(self, name, sh, get, depth):
        if sh.count < 2 or depth > 3:
            return
        kinds = sh.kinds
        # The sign of a number argument (a count, an index, a size); the
        # elements of a list of small positive test numbers are mostly so
        # by chance, and a negative or zero element is a case the program
        # must handle.
        if _int_like(sh) and (depth == 0 or self.says_sign) and \
                sh.count >= 3:
            lo = min(d["min"] for d in kinds.values())
            if lo > 0 and self.says_positive:
                self._add("%s > 0" % name, get,
                          lambda v: not _is_num(v) or v > 0)
            elif lo >= 0:
                self._add("%s >= 0" % name, get,
                          lambda v: not _is_num(v) or v >= 0)
        d = kinds.get("str")
        if d and depth <= 1 and len(d["words"]) <= 6 and \
                d["n"] >= 3 * len(d["words"]):
            # A few strings, each used again and again (operators, modes,
            # commands): an enumeration, the other strings are no input.
            words = frozenset(d["words"])
            self._add("the strings of %s are one of %s" % (
                name, ", ".join(repr(w) for w in sorted(words))), get,
                lambda v: not isinstance(v, str) or v in words)
        elif d and len(kinds) == 1 and depth == 0 and d["chars"] >= 8 and \
                1 <= len(d["alphabet"]) <= 4:
            # A string over a few symbols ("()", "01"): the symbols are
            # the language, a space or a letter is not an input.
            alphabet = frozenset(d["alphabet"])
            self._add("%s uses only the characters %s" % (
                name, "".join(sorted(alphabet))), get,
                lambda v: not isinstance(v, str) or set(v) <= alphabet)
        for k in ("list", "tuple"):
            d = kinds.get(k)
            if not d or len(kinds) > 1:
                continue
            if d["distinct"] and d["long"] >= 2 and (
                    (d["pairs"] >= 10 and self.says_distinct) or
                    d["pairs"] >= 45):
                self._add("%s has distinct elements" % name, get,
                          _distinct_ok)
            if d["sorted"] and d["long"] >= 2 and self.says_sorted:
                self._add("%s is sorted" % name, get, _sorted_ok)
            if d["minlen"] >= 1 and sh.count >= 3 and self.says_nonempty:
                self._add("%s is not empty" % name, get,
                          lambda v: not isinstance(v, (list, tuple)) or
                          len(v) > 0)
            if d.get("fields"):
                # A record, position by position: the weights of (weight,
                # value) pairs keep their sign when the values do not.
                for f, fsh in enumerate(d["fields"]):
                    self._place("field %d of %s" % (f + 1, name), fsh,
                                _field(get, f), depth + 1)
            else:
                self._place("the elements of " + name, d["elem"],
                            _each(get), depth + 1)
        d = kinds.get("dict")
        if d and len(kinds) == 1:
            if d["minlen"] >= 1 and sh.count >= 3 and self.says_nonempty:
                self._add("%s is not empty" % name, get,
                          lambda v: not isinstance(v, dict) or len(v) > 0)
            self._place("the values of " + name, d["val"],
                        _each(get, values=True), depth + 1)

    def _add(self, text, get, ok):
        def pred(args):
            try:
                vs = get(args)
            except Exception:
                return True
            if isinstance(vs, _Each):
                return all(ok(v) for v in vs.items)
            return ok(vs)
        self.rules.append((text, pred))

    def _acyclic(self, shapes, samples):
        if not any("object" in sh.kinds or _holds_objects(sh)
                   for sh in shapes):
            return
        if samples and all(not _has_cycle(s) for s in samples):
            self.rules.append(("the objects form no cycle",
                               lambda a: not _has_cycle(a)))

    def ok(self, args, kwargs=None):
        if self.user is not None:
            try:
                return bool(self.user(*args, **(kwargs or {})))
            except Exception:
                return False
        for _, pred in self.rules:
            try:
                if not pred(args):
                    return False
            except Exception:
                return False
        return True

    def describe(self):
        return [text for text, _ in self.rules]


_OPS = {"<=": lambda a, b: a <= b, "<": lambda a, b: a < b,
        ">=": lambda a, b: a >= b, ">": lambda a, b: a > b}
_FLIP = {"<=": ">=", "<": ">", ">=": "<=", ">": "<"}


def _documented_bounds(doc, params):
    """Bounds of number parameters that the docstring writes out:
    "0 <= n <= 90", "k >= 1", "n: an int >= 1", "n is at least 2".
    [(index, op, bound)]."""
    text = doc.replace("\u2264", "<=").replace("\u2265", ">=")
    out = []
    for i, name in enumerate(params):
        n = re.escape(name)
        for m in re.finditer(r"(-?\d+)\s*(<=|<)\s*%s\s*(<=|<)\s*(-?\d+)"
                             % n, text):
            out.append((i, _FLIP[m.group(2)], int(m.group(1))))
            out.append((i, m.group(3), int(m.group(4))))
        # The name, then a few words of the same clause, then the bound.
        for m in re.finditer(r"(?<![\w.])(?<!\w[(\[])%s\b(?![(\[.])"
                             r"[^.;\n()=<>]{0,25}?(<=|>=|<|>)\s*(-?\d+)"
                             r"(?!\w)(?!\.\d)" % n, text):
            out.append((i, m.group(1), int(m.group(2))))
        for m in re.finditer(r"(?<![\w.])(?<!\w[(\[])%s\b[^.;\n()]{0,25}?\bat "
                             r"(least|most) (-?\d+)(?!\w)(?!\.\d)" % n, text):
            out.append((i, ">=" if m.group(1) == "least" else "<=",
                        int(m.group(2))))
    return list(dict.fromkeys(out))


_SAFE_BUILTINS = {k: __builtins__[k] if isinstance(__builtins__, dict)
                  else getattr(__builtins__, k) for k in (
                      "abs", "all", "any", "bool", "dict", "enumerate",
                      "float", "frozenset", "int", "isinstance", "len",
                      "list", "max", "min", "range", "set", "sorted", "str",
                      "sum", "tuple", "zip")}


def _documented_preconditions(doc, params):
    """The docstring's "Precondition: <Python expression>" lines (as
    QuixBugs-style programs write them: all(x > 0 for x in coins)), each
    as a predicate on the arguments; prose that is no expression is
    passed over.  [(text, predicate)]."""
    out = []
    for m in re.finditer(r"(?im)^\s*pre-?conditions?\s*:\s*(.+)$", doc):
        text = m.group(1).strip().rstrip(".")
        if not text or len(text) > 300:
            continue
        try:
            code = compile(text, "<precondition>", "eval",
                           dont_inherit=True)
        except (SyntaxError, ValueError):
            continue
        names = set(code.co_names)
        if not names & set(params):
            continue    # an expression of none of the arguments

        def pred(args, code=code):
            env = dict(zip(params, args))
            try:
                return bool(eval(code, {"__builtins__": _SAFE_BUILTINS},
                                 env))
            except Exception:
                return False
        out.append((text, pred))
    return out


class _Each:
    def __init__(self, items):
        self.items = items


def _each(get, values=False):
    def g(args):
        v = get(args)
        if isinstance(v, _Each):
            out = []
            for x in v.items:
                out.extend(_items(x, values))
            return _Each(out)
        return _Each(_items(v, values))
    return g


def _field(get, f):
    """The f-th field of the tuples get finds (one, or each of many)."""
    def g(args):
        v = get(args)
        vs = v.items if isinstance(v, _Each) else [v]
        return _Each([x[f] for x in vs
                      if type(x) is tuple and len(x) > f])
    return g


def _items(v, values):
    if values and isinstance(v, dict):
        return list(v.values())
    if isinstance(v, (list, tuple)):
        return list(v)
    return []


def _is_num(v):
    return type(v) in (int, float)


def _distinct_ok(v):
    if not isinstance(v, (list, tuple)):
        return True
    try:
        return len(set(v)) == len(v)
    except TypeError:
        return True


def _sorted_ok(v):
    if not isinstance(v, (list, tuple)):
        return True
    try:
        return all(a <= b for a, b in zip(v, v[1:]))
    except TypeError:
        return True


def _holds_objects(sh, depth=0):
    if depth > 4:
        return False
    for k, d in sh.kinds.items():
        if k == "object":
            return True
        for sub in ("elem", "key", "val"):
            if sub in d and _holds_objects(d[sub], depth + 1):
                return True
    return False


# --- object graphs -------------------------------------------------------

def _children(v):
    """The values one step inside v: a container's items, an object's
    attributes.  A subclass's items through the built-in type's own
    methods: its overrides (a multi-dict's keys()) may need state a
    half-built object lacks, and are the program's code, not a walk."""
    try:
        if isinstance(v, dict):
            return list(dict.keys(v)) + list(dict.values(v))
        for base in (list, tuple, set, frozenset):
            if isinstance(v, base):
                return list(base.__iter__(v))
    except Exception:
        return []
    if _user_object(v):
        try:
            return list(vars(v).values())
        except TypeError:
            return []
    return []


def reachable_objects(root, limit=MAX_OBJECTS):
    """The user objects reachable from root, in breadth-first order."""
    seen, out, queue = set(), [], [root]
    steps = 0
    while queue and len(out) < limit and steps < 20000:
        steps += 1
        v = queue.pop(0)
        if id(v) in seen:
            continue
        seen.add(id(v))
        if _user_object(v):
            out.append(v)
        queue.extend(_children(v))
    return out


def _has_cycle(root):
    """Whether a path of object references leads from an object back to
    itself (containers in between count as part of the path)."""
    state = {}
    stack = [(root, iter(_children(root)))]
    state[id(root)] = 1
    steps = 0
    while stack and steps < 50000:
        steps += 1
        v, it = stack[-1]
        nxt = next(it, _END)
        if nxt is _END:
            state[id(v)] = 2
            stack.pop()
            continue
        if not (_user_object(nxt) or isinstance(
                nxt, (list, tuple, dict, set, frozenset))):
            continue
        s = state.get(id(nxt))
        if s == 1 and _user_object(nxt):
            return True
        if s is None:
            state[id(nxt)] = 1
            stack.append((nxt, iter(_children(nxt))))
    return False


_END = object()


def object_inputs(args, contract):
    """Other inputs over the objects a test built: every combination of
    the objects of the same classes reachable from the arguments in the
    argument places that hold objects (every start/goal pair of a test's
    graph, a sub-list of a linked list), new objects built through the
    class's constructor from recombined attribute values, and, where the
    contract allows cycles, an object reference turned back into a
    cycle.  Each input is a fresh deep copy: the test's graph is never
    changed."""
    places = [i for i, a in enumerate(args) if _user_object(a)]
    if not places:
        return
    nodes = reachable_objects(args)
    by_class = {}
    for n in nodes:
        by_class.setdefault(type(n), []).append(n)
    choices = [by_class.get(type(args[i]), [args[i]]) for i in places]
    cycles = "the objects form no cycle" not in contract.describe()
    count = 0
    for combo in _product(choices):
        if count >= MAX_PAIRS:
            break
        if all(c is args[i] for c, i in zip(combo, places)):
            continue
        memo = {}
        try:
            new = copy.deepcopy(args, memo)
        except Exception:
            return  # objects that cannot be copied (a lock): no others
        new = list(new)
        for c, i in zip(combo, places):
            new[i] = memo.get(id(c), c)
        count += 1
        yield tuple(new)
    # Recombined objects: a copy of an object whose object-valued
    # attribute points to another object of the graph (a new head for a
    # list, a new edge); a cycle where the contract allows one.
    for i in places:
        group = by_class.get(type(args[i]), [])[:12]
        for a in group:
            for field, val in _object_fields(a, group):
                for b in group:
                    if count >= 2 * MAX_PAIRS:
                        return
                    memo = {}
                    new = list(copy.deepcopy(args, memo))
                    ca, cb = memo.get(id(a), a), memo.get(id(b), b)
                    made = _rebuilt(ca, field, cb, val)
                    if made is None:
                        continue
                    new[i] = made
                    count += 1
                    yield tuple(new)
                    if a is not b and cycles:
                        memo = {}
                        new = list(copy.deepcopy(args, memo))
                        ca, cb = memo.get(id(a), a), memo.get(id(b), b)
                        if _link(ca, field, cb):
                            count += 1
                            yield tuple(new)
    # None where an object goes, when the class ends its links with None
    # (the empty linked list).
    for i in places:
        if any(how == "one" and getattr(n, f, 0) is None
               for n in by_class.get(type(args[i]), [])
               for f, how in _object_fields(n, by_class.get(type(n), []))):
            new = list(args)
            new[i] = None
            yield tuple(new)
    # Chains built from scratch: longer than the tests', values repeated.
    for i in places:
        for field, how in _object_fields(
                args[i], by_class.get(type(args[i]), [])):
            if how != "one":
                continue
            for head in _chains(args[i], field, nodes, cycles):
                new = list(args)
                new[i] = head
                yield tuple(new)


def _product(choices):
    if not choices:
        yield ()
        return
    for head in choices[0]:
        for rest in _product(choices[1:]):
            yield (head,) + rest


def _object_fields(obj, group=()):
    """Attributes of obj that link to objects of its class: one object or
    None (successor, next), or a list of them (children).  An attribute
    that is None or an empty list here is a link only where some object of
    the group holds an object of the class in it (a value of None is no
    link)."""
    try:
        items = list(vars(obj).items())
    except TypeError:
        return []
    cls = type(obj)

    def linked(k, many):
        for n in list(group) + [obj]:
            v = getattr(n, k, None)
            if many and isinstance(v, list) and any(type(x) is cls
                                                    for x in v):
                return True
            if not many and type(v) is cls:
                return True
        return False
    out = []
    for k, v in items:
        if type(v) is cls or (v is None and linked(k, False)):
            out.append((k, "one"))
        elif isinstance(v, list) and all(type(x) is cls for x in v) and \
                (v or linked(k, True)):
            out.append((k, "many"))
    return out


def _rebuilt(obj, field, target, how):
    """A new object of obj's class, built through its constructor when its
    parameters are attribute names, with field pointing at target."""
    attrs = dict(vars(obj))
    attrs[field] = target if how == "one" else [target]
    return _construct(obj, attrs, field)


def _construct(obj, attrs, field):
    """An object of obj's class with the attributes attrs: through the
    class's constructor when its parameters are attribute names, else a
    copy of obj with field set."""
    cls = type(obj)
    try:
        params = [p for p in inspect.signature(cls).parameters.values()
                  if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
        if params and all(p.name in attrs or p.default is not p.empty
                          for p in params):
            new = cls(**{p.name: attrs[p.name] for p in params
                         if p.name in attrs})
            for k, v in attrs.items():
                if getattr(new, k, _END) is not v:
                    setattr(new, k, v)
            return new
    except Exception:
        pass
    try:
        new = copy.copy(obj)
        for k, v in attrs.items():
            setattr(new, k, v)
        return new
    except Exception:
        return None


CHAIN_LENGTHS = (4, 60)


def _chains(obj, field, nodes, cycles):
    """Linked chains of obj's class through field, as long as no test's
    (past a step limit) and with the node values of the tests repeated
    (a value seen twice is not a cycle), ending in None or, where cycles
    are allowed, turned back to the first or the middle node."""
    plain = [k for k, v in vars(obj).items()
             if k != field and not _user_object(v) and
             not isinstance(v, (list, dict, set, tuple))]
    values = {k: [] for k in plain}
    for n in nodes:
        if type(n) is type(obj):
            for k in plain:
                v = getattr(n, k, None)
                if v not in values[k]:
                    values[k].append(v)
    for length in CHAIN_LENGTHS:
        for back in ((None, 0, length // 2) if cycles else (None,)):
            chain, nxt = [], None
            for i in reversed(range(length)):
                attrs = dict(vars(obj))
                attrs[field] = nxt
                for k in plain:
                    if values[k]:
                        attrs[k] = values[k][i % max(1, min(len(values[k]),
                                                           3))]
                node = _construct(obj, attrs, field)
                if node is None:
                    return
                chain.append(node)
                nxt = node
            chain.reverse()
            if back is not None:
                setattr(chain[-1], field, chain[back])
            yield chain[0]


def _link(obj, field, target):
    """Points obj's field at target (a back edge: a cycle when target
    reaches obj)."""
    try:
        cur = getattr(obj, field)
        if isinstance(cur, list):
            cur.append(target)
        else:
            setattr(obj, field, target)
        return True
    except Exception:
        return False


# --- values one change away ----------------------------------------------

def constants_of(code, out=None, depth=0):
    """The int constants of a code object and the code nested in it."""
    out = set() if out is None else out
    if depth > 20:
        return out
    for c in code.co_consts:
        if type(c) is int and abs(c) < 10 ** 9:
            out.add(c)
        elif hasattr(c, "co_consts"):
            constants_of(c, out, depth + 1)
    return out


def _repeats_an_iterator(items):
    """Whether one iterator that is its own iterator (read once) appears
    twice among items."""
    seen = set()
    for x in items:
        try:
            once = iter(x) is x
        except Exception:
            continue
        if once:
            if id(x) in seen:
                return True
            seen.add(id(x))
    return False


def _numeric_text_variants(v):
    """The other sign of a text that reads as a number ("-1e10000" for
    "1e10000", "3" for "-3"), or nothing."""
    text = v.strip()
    if not text or len(text) > 40:
        return []
    try:
        float(text)
    except ValueError:
        return []
    if text[0] in "+-":
        return [text[1:]] if text[1:] else []
    return ["-" + text]


def variants(v, shape, consts, depth=0):
    """Values of v's type one change away from v: numbers at boundaries
    and the constants the code and tests compare against, containers
    emptied, shortened, extended, reordered, with repeated elements, with
    zero or None as an element, the same one level down."""
    t = type(v)
    out = []
    vary = getattr(t, "litmus_variants", None)
    if vary is not None:
        # An object that knows its own neighbours (a receiver described by
        # the calls that made it): each of them one change away.
        return vary(v, lambda x: variants(x, None, consts, depth + 1))
    if t is bool:
        out = [not v]
    elif t is int:
        if depth == 0:
            out = [v + 1, v - 1, 0, 1, -1, -v, 2 * v, v // 2, 10 * v] + \
                _next_powers(v)
            # A count or a size the program loops or allocates over gets
            # no huge value (it would only time out, in C code the timer
            # cannot stop); a number the tests already make large does.
            d = shape.kinds.get("int") if shape else None
            if d and max(abs(d["min"]), abs(d["max"])) >= 1000:
                out += LARGE
        else:
            # An element: the first few count most (each element gets a
            # handful), so zero, the neighbours and a large value first.
            out = [0, v + 1, v - 1, -v, v + 10 ** 6, LARGE[0], -1, 2 * v]
        near = sorted(consts, key=lambda c: (abs(c - v), c))[:MAX_CONSTANTS]
        out += near + [c + 1 for c in near[:4]] + [c - 1 for c in near[:4]]
    elif t is float:
        # A small step either side too: a test that sits on a boundary
        # (factor=1.0) says nothing of the values just past it, where a
        # fix that moved the boundary (a factor below 1.01) differs.
        step = 0.001 * max(1.0, abs(v))
        out = [v + 1.0, v - 1.0, 0.0, -v, v / 2, v * 2, 1.0,
               v + step, v - step]
    elif t is str:
        alphabet = sorted(shape.kinds.get("str", {}).get("alphabet", ())
                          if shape else ()) or ["a"]
        # What changes the content first (empty, the other case, the
        # mirror, blanks), then the length.
        out = ["", v.upper(), v.lower(), v[::-1], " " + v, v[:-1], v[1:],
               v + v[-1:], " ", v * 2, v + " ", alphabet[0],
               v + "\n", "\n" + v, v[:1] + "\n" + v[1:], "\t" + v,
               v + v[-1:] * 11, v[:1] * 12 + v[1:]]
        if PACKAGE[0]:
            out[12:12] = _blank_variants(v)
        if PACKAGE[0] and v:
            # The text twice as a list of such texts, joined by the path
            # separator and by a comma (a setting that holds several
            # paths or names, split before use).
            out[9:9] = [v + os.pathsep + v, v + "," + v]
            # A word of a package's text inside punctuation (a handle in
            # parentheses, an address in angle brackets): where a parser
            # strips it before deciding.
            out[12:12] = [re.sub(r"\S+", r"(\g<0>)", v),
                          re.sub(r"\S+", r"<\g<0>>", v)]
            # Two of its words joined (their white space left out): one
            # word that holds what each held apart (two "@" in an
            # address), which a parser's rule for one word may refuse.
            joined = re.sub(r"(?<=\S)\s+(?=\S)", "", v, count=1)
            if joined != v:
                out.insert(12, joined)
        for i in range(min(len(v), 4)):
            for ch in alphabet[:3]:
                if ch != v[i]:
                    out.append(v[:i] + ch + v[i + 1:])
        # A text that reads as a number (a form's field, "1e10000"): the
        # number of the other sign, as text, first.
        out[1:1] = _numeric_text_variants(v)
        if PACKAGE[0] and depth == 0 and v:
            # A library's function of any iterable, given a text: its
            # characters without end (read lazily, as a list's items).
            out.append(Endless(v))
    elif t in (list, tuple):
        items = list(v)
        cand = [[]]
        if items:
            cand += [items[:-1], items[1:], items + items[-1:],
                     items[:1] + items, items[::-1], items[1:] + items[:1]]
            try:
                cand += [sorted(items), sorted(items, reverse=True)]
            except TypeError:
                pass
            for i in range(min(len(items) - 1, 6)):
                sw = list(items)
                sw[i], sw[i + 1] = sw[i + 1], sw[i]
                cand.append(sw)
            for i in range(min(len(items), 6)):
                cand.append(items[:i] + items[i + 1:])
            for i in range(min(len(items), 3)):
                cand.append(items[:i + 1] + items[i:])
            ints = [x for x in items if type(x) is int]
            if ints and len(ints) == len(items):
                cand += [items + [max(ints) + 1], [min(ints) - 1] + items,
                         items + [0], [0] + items]
            elem = shape.kinds.get(t.__name__, {}).get("elem") \
                if shape else None
            if elem is not None and (len(elem.kinds) > 1 or
                                     "none" in elem.kinds or
                                     "list" in elem.kinds):
                # Heterogeneous or nested: None, and the other iterables
                # (a string, a tuple) as elements.
                cand += [items + [None], [None] + items,
                         items[:1] + [None] + items[1:],
                         items + ["ab"], items + [tuple(items[:2])]]
            if elem is not None and "list" in elem.kinds:
                # One level deeper.
                cand += [[items], items[:1] + [items[1:]],
                         [[x] for x in items]]
            if depth < 2:
                for i, x in enumerate(items[:8]):
                    for nx in variants(x, elem, consts, depth + 1)[:8]:
                        cand.append(items[:i] + [nx] + items[i + 1:])
        else:
            elem = shape.kinds.get(t.__name__, {}).get("elem") \
                if shape else None
            cand += [[x] for x in _seeds(elem)]
        # An item repeated is a value repeated: a one-shot iterator put
        # twice is one stream read through two names, which no caller
        # means by two equal arguments.
        out = [t(c) for c in cand if not _repeats_an_iterator(c)]
        if PACKAGE[0] and depth == 0:
            # A library's functions take any iterable, and None is a value
            # like another: the same items as an iterator (read once), and
            # None at either end.
            out += [iter(items), iter([]), t(items[:1] + [None] + items[1:]),
                    t([None] + items)]
            # The same items as the other sequence type, and nothing as
            # other empty sequences: a function that takes any iterable
            # and tests a list's type where it means "empty".
            out.append(tuple(items) if t is list else list(items))
            if t is list:
                # A mutable sequence of another class (a program that
                # tests type(v) is list where it means any list).
                out.append(collections.UserList(items))
            if not items:
                out += [range(0), ""]
            if items:
                # The same items without end: a function that returns an
                # iterator is expected to read its input lazily.
                out.append(Endless(items))
    elif t is dict:
        keys = list(v)
        out = [{}]
        if PACKAGE[0] and depth <= 1:
            # A library's callers pass mappings of their own (alone or in
            # a tuple: a view's body and status): the same items in a
            # subclass (a program that tests type(v) is dict where it
            # means any mapping).
            out.append(collections.OrderedDict(v))
        if keys:
            out.append({k: v[k] for k in reversed(keys)})
            for k in keys[:8]:
                out.append({x: v[x] for x in keys if x != k})
            if PACKAGE[0]:
                # A text key renamed (its blanks another kind of white
                # space, the other case): a mapping of attributes or
                # options whose keys a program validates.
                for k in [k for k in keys if type(k) is str][:3]:
                    for nk in _key_variants(k):
                        if nk not in v:
                            out.append({(nk if x == k else x): v[x]
                                        for x in keys})
            if depth < 2:
                vshape = shape.kinds.get("dict", {}).get("val") \
                    if shape else None
                for k in keys[:12]:
                    for nx in variants(v[k], vshape, consts, depth + 1)[:6]:
                        d = dict(v)
                        d[k] = nx
                        out.append(d)
        if depth == 0:
            # The same pairs as an iterable, which dict() and update()
            # take too: a program with a branch per form.
            out += [list(v.items()), []]
    elif t in (set, frozenset):
        out = [t()] + [t(x for x in v if x != y) for y in list(v)[:6]]
        if PACKAGE[0] and depth == 0 and v:
            # A library's set operations take other iterables too: the
            # same items as a list and a tuple (sorted, when they sort).
            items = _sorted_or_same(list(v))
            out += [items, tuple(items)]
    elif t is range and PACKAGE[0]:
        # A range the tests pass: its ends one step either way, emptied,
        # reversed, and negative numbers reached.
        a, b, step = v.start, v.stop, v.step
        out = [range(a - 1, b, step), range(a + 1, b, step),
               range(a, b - 1, step), range(a, b + 1, step), range(0),
               range(-b, b, step), range(b - 1, a - 1, -step)]
        if depth == 0 and len(v) <= MAX_RANGE_ITEMS:
            out += [list(v), iter(v)]
    elif PACKAGE[0] and depth == 0 and callable(v) and \
            isinstance(v, _FUNCTIONS):
        # A callback: one that fails at its first call, at its second,
        # a little later.  A library lets a callback's error through.
        out = [Raising(v, 0)]
        if isinstance(v, types.FunctionType):
            # The same callback in other forms, which a library that
            # inspects what it is given must take as well: functions of
            # other signatures that pass their arguments on (a factory of
            # `**options`, where the tests' takes `**kwargs`), a partial.
            out += [_passing_on(v, "keywords"), _passing_on(v, "positional"),
                    functools.partial(v), _passing_on(v, "any")]
        out += [Raising(v, 1), Raising(v, 3),
                Raising(v, 0, CallbackValueError)]
    elif PACKAGE[0] and depth == 0 and _state_container(v):
        out = _container_subclass_variants(v)
    elif t in _TIMES:
        out = _time_variants(v)
    elif t in _ITERATORS:
        # An iterator the tests built (iter(range(16))): its items, read
        # from a copy, varied as a list and handed over as an iterator.
        items = _iterator_items(v)
        if items is not None:
            out = [iter(x) for x in variants(items, None, consts, depth)]
    return [x for x in out if not _same_value(x, v)]


def _state_container(v):
    """A dict or list of a program's own subclass that also keeps state
    of its own (a session: its items, and whether it was read or
    changed)."""
    t = type(v)
    base = dict if isinstance(v, dict) else list if isinstance(v, list) \
        else None
    if base is None or t.__module__ in _BUILTIN_MODULES:
        return False
    # Only a direct line to the builtin: an OrderedDict or defaultdict
    # keeps C state that a bare __new__ would not set up.
    if any(c.__module__ in _BUILTIN_MODULES and c not in (base, object)
           for c in t.__mro__):
        return False
    try:
        return isinstance(object.__getattribute__(v, "__dict__"), dict)
    except AttributeError:
        return False


def _container_subclass_variants(v):
    """The container's items changed and its own state kept as it was:
    emptied, and one item fewer.  The copies are built through the
    builtin's methods, never the subclass's, whose hooks would change
    that state (a session that marks itself modified on each write): an
    empty session that was only read, as a new visitor's."""
    t = type(v)
    base = dict if isinstance(v, dict) else list
    items = list(base.items(v)) if base is dict else list(base.__iter__(v))
    fewer = [items[:-1]] if items else []
    if base is dict:
        fewer += [[kv for kv in items if kv[0] != k]
                  for k, _ in items[:-1][:4]]
    out = []
    for kept in [[]] + fewer:
        try:
            y = t.__new__(t)
            object.__getattribute__(y, "__dict__").update(
                copy.copy(object.__getattribute__(v, "__dict__")))
            if base is dict:
                dict.update(y, kept)
            else:
                list.extend(y, kept)
        except Exception:
            continue
        out.append(y)
    return out


def _time_variants(v):
    """Dates and times one step away: a day, a month and a year either
    side (ends of months, leap days), other times on the same day, the
    start of the day; durations negated, halved, zero."""
    import datetime as dt
    out = []
    if isinstance(v, dt.timedelta):
        return [-v, v / 2, 2 * v, dt.timedelta(0), v + dt.timedelta(days=1),
                v - dt.timedelta(days=1)]
    if isinstance(v, dt.date):
        for days in (1, -1, 31, -31, 365, -365, 28, 29):
            try:
                out.append(v + dt.timedelta(days=days))
            except OverflowError:
                pass
        for month, day in ((1, 1), (12, 31), (2, 28), (v.month, 1)):
            try:
                out.append(v.replace(month=month, day=day))
            except ValueError:
                pass
        try:
            out.append(v.replace(year=2020, month=2, day=29))
        except ValueError:
            pass
    if isinstance(v, dt.datetime):
        out += [v.replace(hour=0, minute=0, second=0, microsecond=0),
                v.replace(hour=23, minute=59), v + dt.timedelta(hours=1),
                v - dt.timedelta(hours=1), v + dt.timedelta(hours=12)]
    elif isinstance(v, dt.time):
        out = [dt.time(0, 0), dt.time(23, 59, 59), v.replace(second=0)]
    return out


def _times():
    import datetime as dt
    return (dt.date, dt.datetime, dt.time, dt.timedelta)


_TIMES = _times()

# Set for a repository candidate's file (calls.py, diff_main): wider
# variants, which a library's functions are expected to take.
PACKAGE = [False]

class Endless:
    """An iterator that repeats items without end (itertools.cycle, but
    one that litmus can copy to each side and compare regardless of how
    far each side read it)."""
    __slots__ = ("items", "pos")

    def __init__(self, items):
        self.items = list(items)
        self.pos = 0

    def __iter__(self):
        return self

    def __next__(self):
        v = self.items[self.pos % len(self.items)]
        self.pos += 1
        return v

    def __repr__(self):
        return "itertools.cycle(%r)" % (self.items,)

    # Each side reads its own copy: equal when their items are (a copy
    # kept as a key or a value is the same input on both sides).
    def __eq__(self, other):
        return type(other) is Endless and other.items == self.items

    def __hash__(self):
        try:
            return hash(tuple(self.items))
        except TypeError:
            return hash(len(self.items))


def _passing_on(fn, kind):
    """A function that calls fn with its own arguments: of any arguments,
    of keywords only (`**options`) or positional ones only (`*values`)."""
    if kind == "any":
        def passing(*values, **options):
            return fn(*values, **options)
    elif kind == "keywords":
        def passing(**options):
            return fn(**options)
    else:
        def passing(*values):
            return fn(*values)
    passing.__name__ = passing.__qualname__ = "%s_%s" % (
        getattr(fn, "__name__", "callback"), kind)
    return passing


class CallbackError(Exception):
    """What a callback litmus passed raises (Raising)."""


class CallbackValueError(CallbackError, ValueError):
    """A callback's ValueError (Raising): a handler of ValueError that the
    reference keeps to its own call catches it where one around more code
    does."""


class Raising:
    """A callback that calls the tests' own for its first `after` calls
    and then raises error (CallbackError, or CallbackValueError): the
    program's handling of a callback's error, and when it calls it, are
    compared."""
    __slots__ = ("fn", "after", "calls", "error")

    def __init__(self, fn, after, error=CallbackError):
        self.fn, self.after, self.calls, self.error = fn, after, 0, error

    def __call__(self, *args, **kwargs):
        self.calls += 1
        if self.calls > self.after:
            raise self.error("the callback failed at its call %d"
                             % self.calls)
        return self.fn(*args, **kwargs)

    def __repr__(self):
        return "<%s failing%s from its call %d>" % (
            getattr(self.fn, "__name__", "callback"),
            " with ValueError" if self.error is CallbackValueError else "",
            self.after + 1)


class Poisoned:
    """A value every use of which (conversion, arithmetic, comparison,
    iteration, attributes) raises CallbackError: how a program lets an
    error of its input through."""
    __slots__ = ()

    def _fail(self, *args, **kwargs):
        raise CallbackError("the value failed when it was used")

    __int__ = __float__ = __index__ = __str__ = __bytes__ = _fail
    __len__ = __iter__ = __contains__ = __getitem__ = __bool__ = _fail
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _fail
    __truediv__ = __floordiv__ = __mod__ = __neg__ = __abs__ = _fail
    __lt__ = __le__ = __gt__ = __ge__ = __eq__ = __ne__ = _fail
    __call__ = __format__ = __round__ = _fail
    __hash__ = None

    def __getattr__(self, name):
        raise CallbackError("the value failed when %s was read" % name)

    def __repr__(self):
        return "<a value that fails when used>"


def _target(v):
    return object.__getattribute__(v, "_litmus_target") \
        if type(v) is Forwarding else v


class Forwarding:
    """An object of a class of its own that forwards its attributes, calls
    and operators to another object (the tests' own): a program that
    duck-types takes it as that object, one that tests the object's class
    (isinstance, type()) does not.  A fix that special-cases the tested
    class where the reference reads what the object offers differs."""
    __slots__ = ("_litmus_target",)

    def __init__(self, target):
        object.__setattr__(self, "_litmus_target", target)

    def __getattr__(self, name):
        return getattr(_target(self), name)

    def __setattr__(self, name, value):
        setattr(_target(self), name, value)

    def __delattr__(self, name):
        delattr(_target(self), name)

    def __repr__(self):
        return repr(_target(self))

    def __str__(self):
        return str(_target(self))

    def __format__(self, spec):
        return format(_target(self), spec)

    def __eq__(self, other):
        return _target(self) == _target(other)

    def __ne__(self, other):
        return _target(self) != _target(other)

    def __hash__(self):
        return hash(_target(self))

    def __bool__(self):
        return bool(_target(self))

    def __len__(self):
        return len(_target(self))

    def __iter__(self):
        return iter(_target(self))

    def __contains__(self, item):
        return item in _target(self)

    def __getitem__(self, key):
        return _target(self)[key]

    def __call__(self, *args, **kwargs):
        return _target(self)(*args, **kwargs)


def forwarding(v):
    """[a Forwarding stand-in for v] for an object of the program's own
    class (not a plain value, a class, a function or a module); else []."""
    if v is None or type(v).__module__ == "builtins" or \
            isinstance(v, (type, types.ModuleType, Forwarding) + _FUNCTIONS):
        return []
    return [Forwarding(v)]


_FUNCTIONS = (types.FunctionType, types.BuiltinFunctionType,
              types.MethodType, functools.partial)

_ITERATORS = (type(iter([])), type(iter(())), type(iter(range(0))),
              type(iter("")))


def _iterator_items(it, limit=10000):
    """The items an iterator would give, read from a pickled copy (the
    original is left as it is), or None when it cannot be copied or is
    longer than limit."""
    import pickle
    try:
        copy_ = pickle.loads(pickle.dumps(it, protocol=4))
        items = list(itertools.islice(copy_, limit + 1))
    except Exception:
        return None
    return items if len(items) <= limit else None


def _seeds(shape):
    """A few small values of a shape: what goes in an empty container."""
    if shape is None:
        return [0]
    out = []
    for k, d in shape.kinds.items():
        if k in ("int", "float"):
            out += sorted(d["values"], key=abs)[:2] + [0]
        elif k == "str":
            out += sorted(d["alphabet"])[:2]
        elif k == "none":
            out.append(None)
        elif k == "bool":
            out += [True, False]
    return out[:4]


def _same_value(a, b):
    """Whether variant a is value b again: the same type, equal, and the
    same repr (a tuple holding an OrderedDict, or 1.0 where b has 1, is
    equal but not the same input)."""
    try:
        return type(a) is type(b) and a == b and \
            (type(a) is not dict or list(a) == list(b)) and \
            (type(a) not in (list, tuple, dict) or repr(a) == repr(b))
    except Exception:
        return False


def derive(args, shapes, consts):
    """Argument tuples that relate two arguments (swapped, equal, one the
    other reversed: edit_distance(s, s), a string and its mirror; two
    numbers one apart; a text exactly as long as a width, an index at a
    length and one off it) and those that differ from args in one place,
    taken in turn: a budget cut short still sees both kinds.  Second,
    every argument at once at its type's empty value (zip(0, 0),
    f("", [])): a program that tests the values' truth where it means
    their presence differs there, and one change at a time never reaches
    it."""
    stream = alternate(_related(args), _one_change(args, shapes, consts))
    yield from itertools.islice(stream, 1)
    empty = _all_empty(args)
    if empty is not None:
        yield empty
    yield from stream


_EMPTY = {int: 0, float: 0.0, str: "", bytes: b"", list: [], tuple: (),
          dict: {}}


def _all_empty(args):
    """args with every int, float, string and plain container replaced by
    its type's empty value, or None when that changes fewer than two
    arguments (one change at a time covers those) or leaves another."""
    out, changed = [], 0
    for a in args:
        t = type(a)
        if t not in _EMPTY:
            return None
        e = _EMPTY[t]
        out.append(type(e)(e) if t in (list, dict) else e)
        changed += not _same_value(a, e)
    return tuple(out) if changed >= 2 else None


def _one_change(args, shapes, consts):
    for i, a in enumerate(args):
        sh = shapes[i] if i < len(shapes) else None
        for nv in variants(a, sh, consts):
            yield args[:i] + (nv,) + args[i + 1:]


def alternate(*streams):
    """The items of the streams, one of each in turn."""
    live = list(streams)
    while live:
        for s in list(live):
            item = next(s, _END)
            if item is _END:
                live.remove(s)
            else:
                yield item


def _related(args):
    for i, a in enumerate(args):
        for j in range(i + 1, len(args)):
            b = args[j]
            for x, y in _pair_variants(a, b):
                new = list(args)
                new[i], new[j] = x, y
                if not _repeats_an_iterator(new):
                    yield tuple(new)


MAX_BOUNDARY_LEN = 64   # a sequence grown to an int argument at most


def _pair_variants(a, b):
    """Two arguments brought to a boundary between them: of one type,
    equal, swapped, mirrored, and (integers) one apart; a sequence and
    an integer, the integer at the sequence's length and one off it, and
    the sequence cut or grown to the integer (a text as long as its
    width)."""
    out = []
    if PACKAGE[0] and type(a) is _TIMES[0] and type(b) is _TIMES[0]:
        # Two days, given as moments of those days (a datetime is a
        # date): the same day then holds two moments in either order.
        out = _moments_of_days(a, b)
    if type(a) is type(b) and not _user_object(a):
        out += [(a, a)]
        if type(a) in (str, list, tuple):
            out.append((a, a[::-1]))
        out += [(b, a), (b, b)]
        if type(a) in (str, list, tuple):
            out.append((b[::-1], b))
        if type(a) is int:
            out += [(a, a + 1), (a, a - 1), (b + 1, b), (b - 1, b)]
            if PACKAGE[0]:
                out += _width_variants(a, b)
        return out
    if type(a) is int and type(b) in (str, list, tuple):
        return [(n, s) for s, n in _length_variants(b, a)]
    if type(b) is int and type(a) in (str, list, tuple):
        return _length_variants(a, b)
    return out


def _blank_variants(v):
    """A text's blanks as other white space (a tab, a newline): a check
    for " " where the program means any."""
    return [v.replace(" ", "\t"), v.replace(" ", "\n")] if " " in v else []


def _key_variants(k):
    """A text key's neighbours: its blanks as other white space, then
    the other case."""
    out = _blank_variants(k) + [k.upper() if k != k.upper() else k.lower()]
    return [x for x in out if x != k]


MAX_WIDTH = 64  # bits: a width brought to a value's binary length at most


POWER_BASES = (2, 10, 60, 1000, 1024)  # units' steps: bits, decimal
# digits, seconds and minutes, SI and binary multiples


def _next_powers(v):
    """For an integer that is a power of a unit's step (1024 ** 4), the
    next power and one below it (1024 ** 5 and 1024 ** 5 - 1): a fix
    made for the tested magnitudes alone (a table of the units the tests
    reach, a floating-point logarithm) leaves the next one as it was.
    Only for integers the tests already make large, or small next powers:
    a count the program loops over gets no huge value."""
    sign, a = (-1, -v) if v < 0 else (1, v)
    out = []
    for b in POWER_BASES:
        k, x = 0, a
        while x >= b and x % b == 0:
            x //= b
            k += 1
        if x != 1 or k < (1 if b >= 60 else 2):
            continue
        nxt = b ** (k + 1)
        if a >= 1000 or nxt <= 10 ** 4:
            out += [sign * nxt, sign * (nxt - 1)]
    return out


def _width_variants(a, b):
    """Two integers as a value and its width in bits (a bit field's
    value and length): the value at 2 ** width and one below it, for a
    width the tests gave and for one above theirs (a check made only for
    the tested widths)."""
    if a < 0 or not 0 < b <= MAX_WIDTH:
        return []
    out = []
    for w in (b, b + 3):
        out += [(2 ** w, w), (2 ** w - 1, w)]
    return [(x, y) for x, y in out if (x, y) != (a, b)]


def _moments_of_days(a, b):
    """Two dates as datetimes within their days, the first in the
    morning and the second in the evening, then the other way."""
    import datetime as dt
    morning, evening = dt.time(8), dt.time(20)
    return [(dt.datetime.combine(a, morning), dt.datetime.combine(b, evening)),
            (dt.datetime.combine(a, evening), dt.datetime.combine(b, morning))]


def _length_variants(s, n):
    """(sequence, int) pairs where the int meets the sequence's length:
    equal to it and one off, and the sequence cut or grown to the int."""
    out = [(s, len(s)), (s, len(s) - 1), (s, len(s) + 1)]
    if 0 <= n < len(s):
        out.append((s[:n], n))
    elif len(s) < n <= len(s) + MAX_BOUNDARY_LEN and len(s) > 0:
        grown = (s * (n // len(s) + 1))[:n]
        out.append((grown, n))
    return [(x, y) for x, y in out if (x, y) != (s, n)]


def size_of(v, depth=0):
    """How large an input is: the lengths of its strings and containers,
    the magnitudes of its integers, added up."""
    if depth > 8:
        return 0
    t = type(v)
    if t is int:
        return abs(v)
    if t in (str, bytes):
        return len(v)
    if t in (list, tuple, set, frozenset):
        return len(v) + sum(size_of(x, depth + 1) for x in list(v)[:1000])
    if t is dict:
        return len(v) + sum(size_of(x, depth + 1)
                            for x in list(v.values())[:1000])
    return 0


# --- shrinking -----------------------------------------------------------

def smaller(args, shapes=()):
    """Argument tuples one step simpler than args: an element or a
    character removed, a number moved towards zero, a container emptied.
    A number argument never goes below the smallest value the tests gave
    it (pegs 1 to 3 stay pegs: a witness a reader accepts)."""
    for i, a in enumerate(args):
        floor = None
        if i < len(shapes) and type(a) is int:
            d = shapes[i].kinds.get("int")
            if d and d["min"] > 0:
                floor = d["min"]
        for s in _smaller_value(a):
            if floor is None or s >= floor or s >= a:
                yield args[:i] + (s,) + args[i + 1:]
        if floor is not None and a > floor:
            yield args[:i] + (floor,) + args[i + 1:]


def _smaller_value(v, depth=0):
    t = type(v)
    if t is bool:
        return [False] if v else []
    if t is int:
        if v == 0:
            return []
        out = [0, v // 2 if v > 0 else -((-v) // 2), v - 1 if v > 0 else v + 1]
        return [x for x in dict.fromkeys(out) if abs(x) < abs(v)]
    if t is float:
        return [x for x in (0.0, float(int(v))) if abs(x) < abs(v)]
    if t is str:
        out = [""] if v else []
        out += [v[:i] + v[i + 1:] for i in range(min(len(v), 24))]
        return out
    if t in (list, tuple):
        items = list(v)
        out = [[]] if items else []
        if len(items) > 2:
            out += [items[:len(items) // 2], items[len(items) // 2:]]
        out += [items[:i] + items[i + 1:] for i in range(min(len(items), 24))]
        if depth < 2:
            for i, x in enumerate(items[:12]):
                for s in _smaller_value(x, depth + 1)[:3]:
                    out.append(items[:i] + [s] + items[i + 1:])
        return [t(x) for x in out]
    if t is dict:
        return [{k: x for k, x in v.items() if k != drop}
                for drop in list(v)[:24]]
    return []


# --- hypothesis strategies -----------------------------------------------

def strategy(st, shape, consts, depth=0, rules=(), name="", floor=None):
    """A hypothesis strategy for values of a shape, or None when the shape
    holds objects or values litmus cannot build.  rules are the contract's
    rules (their texts) and name the place's name in them ("argument 2",
    "field 1 of the elements of argument 2"): numbers keep the sign a rule
    gives their place, containers the order, distinctness and size.
    Integers start at floor when given (the smallest positive value the
    tests gave a number argument: hypothesis then shrinks towards it, not
    past it)."""
    if shape is None or not shape.kinds:
        return None
    parts = []
    kinds = shape.kinds
    has = set(rules)
    positive = name + " > 0" in has
    nonneg = positive or name + " >= 0" in has
    for k, d in kinds.items():
        if k == "int":
            m = max(10, 2 * max(abs(d["min"]), abs(d["max"])))
            m = min(m, 10 ** 6)
            lo = floor if floor is not None else 1 if positive else \
                0 if nonneg else -m
            ints = st.integers(lo, max(m, lo))
            near = sorted(c for c in consts | d["values"] | {0, 1, -1}
                          if c >= lo and abs(c) <= 10 ** 9)
            parts.append(st.one_of(st.sampled_from(near), ints)
                         if near else ints)
        elif k == "float":
            m = max(10.0, 2 * max(abs(d["min"]), abs(d["max"])))
            # No negative zero: tests almost never pass one, and two
            # right programs often print or compare it differently.
            parts.append(st.floats(0.0 if nonneg else -m, m,
                                   exclude_min=positive, allow_nan=False,
                                   allow_infinity=False).map(
                                       lambda x: x + 0.0))
        elif k == "bool":
            parts.append(st.booleans())
        elif k == "none":
            parts.append(st.none())
        elif k == "str":
            # Text (more than a few symbols): a space and the other case
            # of a few letters too.
            extra = set()
            if len(d["alphabet"]) > 4:
                extra = {" "} | {c.swapcase() for c in
                                 sorted(d["alphabet"])[:3] if c.isalpha()}
            alphabet = sorted(d["alphabet"] | extra) \
                if d["alphabet"] else ["a", "b", " "]
            parts.append(st.text(alphabet=st.sampled_from(alphabet),
                                 max_size=max(3, d["maxlen"])))
        elif k == "tuple" and d.get("fields") and depth < 4:
            # A record: each field from its own shape and rules.
            fields = [strategy(st, f, consts, depth + 1, rules,
                               "field %d of %s" % (i + 1, name))
                      for i, f in enumerate(d["fields"])]
            if any(f is None for f in fields):
                return None
            parts.append(st.tuples(*fields))
        elif k in ("list", "tuple", "set", "frozenset") and depth < 4:
            elem = strategy(st, d["elem"], consts, depth + 1, rules,
                            "the elements of " + name)
            if elem is None:
                if d["maxlen"] == 0:
                    elem = st.integers(-3, 3)
                else:
                    return None
            if len(d["elem"].kinds) > 1 and "none" not in d["elem"].kinds:
                elem = st.one_of(elem, st.none())
            size = min(MAX_LIST_GEN, max(d["maxlen"] + 2, 4))
            lo = 1 if name + " is not empty" in has else 0
            if k in ("set", "frozenset"):
                s = st.sets(elem, min_size=lo, max_size=size)
                parts.append(s if k == "set" else s.map(frozenset))
                continue
            s = st.lists(elem, min_size=lo, max_size=size,
                         unique=name + " has distinct elements" in has)
            if name + " is sorted" in has:
                s = s.map(_sorted_or_same)
            parts.append(s if k == "list" else s.map(tuple))
        elif k == "dict" and depth < 4:
            key = strategy(st, d["key"], consts, depth + 1)
            val = strategy(st, d["val"], consts, depth + 1, rules,
                           "the values of " + name)
            if key is None or val is None:
                return None
            parts.append(st.dictionaries(key, val, max_size=min(
                MAX_LIST_GEN, max(d["maxlen"] + 2, 4))))
        else:
            return None
    if not parts:
        return None
    return parts[0] if len(parts) == 1 else st.one_of(*parts)


def _sorted_or_same(xs):
    try:
        return sorted(xs)
    except TypeError:
        return xs


def floor_of(shape):
    """The smallest value the tests gave a number argument, when it is
    positive; else None."""
    d = shape.kinds.get("int") if shape is not None else None
    if d and set(shape.kinds) == {"int"} and d["min"] > 0:
        return d["min"]
    return None
