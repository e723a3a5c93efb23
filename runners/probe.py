# Probes: a repository candidate's changed functions observed where the
# tests themselves call them.  Replaying a call away from its test cannot
# rebuild what the call lives in (a web framework's application and
# request, a configured registry); a probe needs none of it.  The same
# tests run once on the reference's files and once on the candidate's,
# forked from the same zygote; at each of the first calls of a function
# either patch changes, the probe records what the call returns and what
# it leaves in its arguments, and calls the function again on inputs one
# change away from the test's, each in a forked child of the test's own
# process (the test goes on untouched).  The engine compares the two
# runs' records key by key (engine/jobs/patches/repo_probe.c).  Compiled
# into the litmus binary.  SPDX-License-Identifier: MIT
import dis
import functools
import inspect
import itertools
import json
import os
import select
import signal
import sys
import time
import types
import weakref

import _litmus
import litmus_calls
from litmus_calls_values import wrapper_like
import litmus_inputs
from litmus_codediff import _frame_equal, _free_const_key, _instructions
from litmus_codediff import is_function_code, qualname

KINDS_PER_TEST = 16     # calls of one function observed in one test: the
                        # first of each kind of arguments
VARIANTS_PER_ARG = 10   # inputs one change away, per argument: at most
SAME_SHAPE = 6          # this many of the argument's type and size
VARIANTS_PER_CALL = 24  # ... and per call
AFTER_CALL = 4          # of those, made again after the test's own call
                        # on the same receiver (a result kept from it)
STAND_INS_PER_CALL = 3  # objects replaced by a stand-in of another class,
                        # per call, beyond those
SIBLINGS_MAX = 2        # objects of sibling classes tried per attribute
                        # (and as many made of classes no test made)
BUILDABLE_SCAN_MAX = 200  # subclasses looked at for those
REBUILT_VALUES = 4      # values tried per plain constructor argument of
                        # a receiver built again (_rebuilt_calls)
MESSAGE_MAX = 200       # characters of an exception's message kept
UNSET_TEXT = "x"        # the value a setting left None is given
ATTR_VALUES = 2         # values tried per public attribute of an object
CONSTANTS_PER_VALUE = 3  # the function's constants tried per value
CONSTANT_TEXT_MAX = 40  # a longer string constant is a message, not a key
RECORDS_MAX = 2000      # records sent by one run
SPENT_MAX = 10.0        # s of CPU time a run spends in probes (its
                        # children's included: a loaded machine's runs
                        # record the same calls) ...
SPENT_WALL_MAX = 60.0   # ... and of wall time, at most
CHILD_CPU = 1.5         # s of CPU time a variant's call may take ...
CHILD_WALL = 6.0        # ... and s of wall time its child, at most
SUMMARY_DEPTH = 6       # levels of a value summarised, at most ...
SUMMARY_NODES = 3000    # ... and containers and objects in all
ITEMS_MAX = 20          # elements of a container summarised
ATTRS_MAX = 40          # attributes of an object summarised
REGISTERED_MAX = 8      # (object, options) pairs of a registry varied
TEXT_MAX = 300          # characters of a string kept
WATCHED_SHARE = 0.25    # of the CPU time and the records, at most, for the
                        # watched methods' calls: the tests' own calls of
                        # the changed functions keep the rest

_test = [None]          # the index of the running test, None between tests
_inside = [0]           # > 0 inside a probe's own work (its variants)
_own = [0]              # > 0 inside the test's own call of a changed
                        # function: a public changed function it calls
                        # is observed there too
_kinds = {}             # (test, function) -> the kinds of arguments seen
_sent = [0]
_spent = [0.0]          # CPU s spent in probes
_watched = [0.0, 0]     # CPU s spent and records sent by watched methods
_wall0 = [None]         # when the run's first probe began


# --- which functions ------------------------------------------------------

def _outermost(q):
    """A nested function is observed through the one that defines it."""
    return q.split(".<locals>.", 1)[0]


def _function_codes(code, out):
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            if is_function_code(c):
                out.setdefault(qualname(c), []).append(c)
            _function_codes(c, out)
    return out


def _same_code(a, b):
    """The same code, nested functions named alone (a function moved down
    the file is no change)."""
    return _frame_equal(a, b) and _instructions(a, _free_const_key) == \
        _instructions(b, _free_const_key)


def changed_functions(path, reference, candidate):
    """The functions and methods (by qualified name) whose code differs
    between the two texts of a file, or that one of them lacks."""
    try:
        ra = _function_codes(compile(reference, path, "exec"), {})
        ca = _function_codes(compile(candidate, path, "exec"), {})
    except (SyntaxError, ValueError):
        return set()
    out = set()
    for q in set(ra) | set(ca):
        a, b = ra.get(q, ()), ca.get(q, ())
        if len(a) != len(b) or not all(_same_code(x, y)
                                       for x, y in zip(a, b)):
            out.add(_outermost(q))
    return {q for q in out if "<" not in q}


def _code_constants(code, out):
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            _code_constants(c, out)
        elif isinstance(c, (tuple, frozenset)):
            for x in c:
                if not isinstance(x, (tuple, frozenset, types.CodeType)):
                    _add_constant(x, out)
        else:
            _add_constant(c, out)


def _add_constant(c, out):
    t = type(c)
    if t is str and 0 < len(c) <= CONSTANT_TEXT_MAX and "\n" not in c or \
            t is int and abs(c) < 10 ** 6 or t is float and c == c:
        out.add(c)


class Hints:
    """What a changed function's code shows of its inputs, from both
    texts, so that both runs try the same values: the constants it
    compares against (method names, status codes, limits: a value set to
    one of them takes the other branch) and the names it reads (the
    attributes of its receiver and arguments that matter), and the
    parameter names one text's signature takes by keyword and the
    other's does not (keywords: a parameter renamed, or made
    positional-only)."""
    __slots__ = ("constants", "names", "catches", "keywords")

    def __init__(self, constants=(), names=(), catches=False,
                 keywords=()):
        self.constants, self.names = list(constants), frozenset(names)
        self.catches = catches  # either text's code handles exceptions
        self.keywords = frozenset(keywords)


NO_HINTS = Hints()


def _code_names(code, out):
    out.update(code.co_names)
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            _code_names(c, out)


def _keyword_parameters(code):
    """The names a function's code takes by keyword."""
    return set(code.co_varnames[code.co_posonlyargcount:
                                code.co_argcount + code.co_kwonlyargcount])


def function_hints(path, reference, candidate):
    """{qualified name: Hints} of every function of the two texts."""
    consts, names, catches = {}, {}, set()
    keywords = ({}, {})     # each text's {function: its keyword names}
    for side, text in enumerate((reference, candidate)):
        try:
            codes = _function_codes(compile(text, path, "exec"), {})
        except (SyntaxError, ValueError):
            continue
        for q, cs in codes.items():
            if q == _outermost(q) and len(cs) == 1:
                keywords[side][q] = _keyword_parameters(cs[0])
            for c in cs:
                _code_constants(c, consts.setdefault(_outermost(q), set()))
                _code_names(c, names.setdefault(_outermost(q), set()))
                if _handles(c):
                    catches.add(_outermost(q))
    return {q: Hints(sorted(cs, key=lambda c: (type(c).__name__, repr(c))),
                     names.get(q, ()), q in catches,
                     keywords[0].get(q, set()) ^ keywords[1].get(q, set())
                     if q in keywords[0] and q in keywords[1] else ())
            for q, cs in consts.items()}


def _handles(code):
    """Whether a function's code (or code nested in it) has an exception
    handler (a try statement; a with statement's too)."""
    try:
        if any(i.opname in ("PUSH_EXC_INFO", "SETUP_FINALLY")
               for i in dis.get_instructions(code)):
            return True
    except Exception:
        return False
    return any(_handles(c) for c in code.co_consts
               if isinstance(c, types.CodeType))


# --- summaries ------------------------------------------------------------
#
# What a value is, as JSON the engine compares across the two runs:
# scalars as themselves, containers and objects as tagged nodes.  Never a
# repr (an address in it differs from run to run) and never a property
# (its code runs): an object is its class's name and its attributes.

def _name(t):
    return "%s.%s" % (getattr(t, "__module__", "?"),
                      getattr(t, "__qualname__", t.__name__))


def summary(v, depth=0, seen=None, left=None):
    """v as JSON data; seen: the containers and objects above v; left:
    how many more of them the whole summary may hold.  Beyond the depth
    or the count, a node is {"deep": its type}, which the engine compares
    equal to anything (one side's extra attribute shifts where the count
    runs out)."""
    if seen is None:
        seen = set()
    if left is None:
        left = [SUMMARY_NODES]
    t = type(v)
    if v is None or t is bool or t is str and len(v) <= TEXT_MAX:
        return v
    if t is str:
        return {"text": v[:TEXT_MAX], "len": len(v)}
    if t is int:
        return v if abs(v) < 2 ** 53 else {"int": str(v)[:TEXT_MAX]}
    if t is float:
        if v != v or v in (float("inf"), float("-inf")):
            return {"float": repr(v)}
        return v
    if t in (bytes, bytearray):
        return {"bytes": v[:TEXT_MAX].decode("latin-1"), "len": len(v)}
    if isinstance(v, BaseException):
        return {"exception": _name(t)}
    if isinstance(v, (types.FunctionType, types.BuiltinFunctionType,
                      types.MethodType, type, types.ModuleType)):
        return {"ref": getattr(v, "__qualname__",
                               getattr(v, "__name__", _name(t)))}
    if litmus_calls.builtin_iterator(v):
        # Reading it would take the test's items: an iterator is an
        # iterator (a variant's, in a child, is read: _Iterated).
        return {"iterator": "?"}
    if id(v) in seen:
        return {"cycle": _name(t)}
    if depth >= SUMMARY_DEPTH or left[0] <= 0:
        return {"deep": _name(t)}
    left[0] -= 1
    seen = seen | {id(v)}
    d = depth + 1

    def sub(x):
        return summary(x, d, seen, left)
    # A subclass's items through the built-in type's own methods: its
    # overrides are the program's code.
    try:
        if isinstance(v, _Unordered):
            return {"set": "list", "len": len(v), "items": sorted(
                (sub(x) for x in v[:ITEMS_MAX * 2]),
                key=lambda x: json.dumps(x, sort_keys=True))[:ITEMS_MAX]}
        if isinstance(v, _Iterated):
            return {"seq": "iterator", "len": len(v),
                    "items": [sub(x) for x in v[:ITEMS_MAX]]}
        for base, tag in ((list, "seq"), (tuple, "seq"), (dict, "map"),
                          (set, "set"), (frozenset, "set")):
            if not isinstance(v, base):
                continue
            n = base.__len__(v)
            if base is dict:
                items = [[_address_key(k, x) or sub(k), sub(x)] for k, x in
                         itertools.islice(dict.items(v), ITEMS_MAX * 2)]
                items.sort(key=lambda kv: json.dumps(kv[0], sort_keys=True))
            elif tag == "set":
                items = sorted((sub(x) for x in base.__iter__(v)),
                               key=lambda x: json.dumps(x, sort_keys=True))
            else:
                items = [sub(x) for x in
                         itertools.islice(base.__iter__(v), ITEMS_MAX)]
            return {tag: _name(t), "len": n, "items": items[:ITEMS_MAX]}
    except Exception:
        return {"other": _name(t)}
    attrs = _attributes(v)
    if attrs is None:
        return {"other": _name(t)}
    out = {}
    for k, x in attrs:
        if type(x) is list and len(x) > 1 and _order_free(v, k):
            # Its class's own == ignores this list's order (a headers
            # object's list of fields): so do the tests that compare it.
            x = _Unordered(x)
        out[k] = sub(x)
    return {"obj": _name(t), "attrs": out}


def _address_key(key, value):
    """A dict key that is the address of its value, or of what its weak
    reference holds (a matplotlib transform's parents, {id(obj):
    weakref(obj)}), as the class it points at: the number differs from
    run to run."""
    if type(key) is not int:
        return None
    if isinstance(value, weakref.ref):
        value = value()
    if value is None or id(value) != key:
        return None
    return {"address": _name(type(value))}


class _Unordered(list):
    """A list whose order its owner's equality ignores."""


_ORDER_FREE = {}    # (class, attribute): whether its == ignores the order


def _order_free(obj, name):
    """Whether obj's class's own __eq__ finds obj equal to a copy of it
    whose list attribute name is reversed (asked once per class and
    attribute, on the first object with two unequal items there)."""
    t = type(obj)
    if t.__eq__ is object.__eq__:
        return False
    key = (t, name)
    if key in _ORDER_FREE:
        return _ORDER_FREE[key]
    d = _own_dict(obj)
    items = d.get(name) if d is not None else None
    if type(items) is not list or items[0] == items[-1]:
        return False
    try:
        twin = object.__new__(t)
        object.__getattribute__(twin, "__dict__").update(d)
        object.__getattribute__(twin, "__dict__")[name] = items[::-1]
        free = bool(obj == twin) and bool(twin == obj)
    except Exception:
        free = False
    _ORDER_FREE[key] = free
    return free


ITEMS_READ = 1000  # items of a variant's iterator read


class _Iterated(list):
    """The items a variant's call returned as an iterator."""


def _read(v):
    """A returned iterator's items, read (inside a variant's child, under
    its timer: an error raised while reading is the call's)."""
    if litmus_calls.builtin_iterator(v):
        return _Iterated(itertools.islice(v, ITEMS_READ))
    return v


def _own_dict(obj):
    """An object's instance dictionary, read without running its code;
    None when it has none."""
    try:
        d = object.__getattribute__(obj, "__dict__")
    except Exception:
        return None
    return d if isinstance(d, dict) else None


def _attributes(v):
    """(name, value) of an object's own data, without running its code."""
    out = []
    d = _own_dict(v)
    if d is not None:
        out = [(k, x) for k, x in d.items() if type(k) is str]
    declared = False    # a class of its own says where its data is
    for cls in type(v).__mro__:
        slots = cls.__dict__.get("__slots__", ())
        declared = declared or "__slots__" in cls.__dict__
        for name in (slots,) if isinstance(slots, str) else slots:
            try:
                out.append((name, object.__getattribute__(v, name)))
            except Exception:
                pass
    if not out and d is None and not declared:
        return None     # an object of C's: its data is not readable
    out = [(k, x) for k, x in out
           if not k.startswith("__") and not callable(x)]
    out.sort(key=lambda kv: kv[0])
    return out[:ATTRS_MAX]


def _result(status, value, args, kwargs):
    if status == "timeout":
        out = {"timeout": True}
    elif status == "raise":
        out = {"raise": _name(type(value))}
        if _raised_by_program(value):
            out["raised_here"] = True
        try:
            # Compared only where the test's own call pins it (the engine's
            # message_differs).
            out["message"] = litmus_calls.without_addresses(
                str(value))[:MESSAGE_MAX]
            out["message_key"] = _message_key(out["message"])
        except Exception:
            pass
    else:
        out = {"value": summary(value)}
    out["args"] = summary(list(args))
    if kwargs:
        out["kwargs"] = summary(dict(kwargs))
    return out


def _message_key(text):
    """A message as the engine compares it: escapes read, quotes and
    white space left out (a key shown with !r or without quotes is the
    same message)."""
    try:
        text = text.encode("latin-1", "backslashreplace").decode(
            "unicode_escape")
    except (UnicodeError, ValueError):
        pass
    return "".join(ch for ch in text if not ch.isspace() and
                   ch not in "'\"`")


_CHANGED_PATHS = set()  # the files either patch changes (install)


def _raised_by_program(exc):
    """Whether a `raise` statement of a changed file raised exc itself
    (raise TypeError("an instance, not a class")): the program's decision,
    even for a built-in type, not a refusal that Python's own operations
    made (an issubclass() of an instance, a missing key).  An assert is
    neither: it states what the function takes, and a variant that fails
    one is outside that."""
    frame = litmus_calls.raise_statement_frame(exc)
    return frame is not None and frame.f_code.co_filename in _CHANGED_PATHS


# --- the calls ------------------------------------------------------------

def _told(v):
    """A value as a variant's description says it, without addresses: the
    reference's run and the candidate's describe one variant alike (a
    function made for the variant may sit elsewhere in each)."""
    return litmus_calls.without_addresses(litmus_calls._short_repr(v))


def _stand_in_told(v):
    """_told, saying so of a Forwarding stand-in (whose repr is its
    target's)."""
    if type(v) is litmus_inputs.Forwarding:
        return "a stand-in of another class for " + _told(v)
    return _told(v)


# A value of another type per plain type, for code that checks its
# input's type: a fix that handles only the tested type (a default that
# is a str) leaves the other type's path as it was.
_OTHER_TYPE = {str: 0, int: "0", float: "0.5", bytes: "x"}


def _other_type(v, hints):
    """[a value of another type than v] when the changed function's code
    checks types (isinstance or type()) and names v's type; else []."""
    t = type(v)
    if t not in _OTHER_TYPE or t.__name__ not in hints.names or \
            not hints.names & {"isinstance", "type"}:
        return []
    return [_OTHER_TYPE[t]]


def _poisoned(v, hints):
    """[an object every use of which fails] in place of a value the
    changed code converts or reads inside a try statement: a handler that
    catches more than the reference's (every Exception) turns the failure
    into a result where the reference lets it through."""
    if not hints.catches or v is None or isinstance(v, (bool, type)) or \
            callable(v):
        return []
    return [litmus_inputs.Poisoned()]


def _near(v, consts=()):
    """v's variants, distinct: first the function's constants of v's type
    (a method name it compares against, a status code), then those of
    its own type and size (a change inside a value, a shorter list in a
    pair, stays within what the function accepts more often), then the
    others (a shorter or longer list, None)."""
    try:
        vs = litmus_inputs.variants(v, None, ())
    except Exception:
        return []
    # No one-shot or endless iterator in place of a value the test gave:
    # what a fix does with an iterator it cannot read twice (the
    # reference's own edge case, often) is not what the tests' calls
    # show; differential execution tries them where results decide.
    vs = [x for x in vs if not litmus_calls.builtin_iterator(x) and
          not isinstance(x, litmus_inputs.Endless)]
    known = [c for c in consts if type(c) is type(v) and c != v]
    if type(v) is int and not isinstance(v, bool):
        known.sort(key=lambda c: (abs(c - v), c))
    vs = known[:CONSTANTS_PER_VALUE] + vs
    seen, out = set(), []
    for x in vs:
        try:
            key = (type(x).__name__, litmus_calls._short_repr(x))
        except Exception:
            continue
        if key not in seen:
            seen.add(key)
            out.append(x)

    def shape(x):
        try:
            return (type(x), len(x))
        except TypeError:
            return (type(x), None)
    n = len(known[:CONSTANTS_PER_VALUE])
    same = [x for x in out[n:] if shape(x) == shape(v)][:SAME_SHAPE]
    other = [x for x in out[n:] if shape(x) != shape(v)]
    return (out[:n] + same + other)[:VARIANTS_PER_ARG]


def _classes_near(v):
    """A class argument's neighbours: the classes it derives from (an
    exception handler registered for a base), and for an exception
    class, an instance of it (a common misuse)."""
    out = [b for b in v.__mro__[1:] if b is not object][:4]
    if issubclass(v, BaseException):
        try:
            out.insert(0, v())
        except Exception:
            pass
    return out


def _unpassed(fn, args, kwargs):
    """Options the test left at their default, given: a flag the other
    way, None for another default (a sentinel's "not given")."""
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return []
    out = []
    for p in params[len(args):]:
        if p.kind not in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) or \
                p.name in kwargs or p.default is p.empty or p.default is None:
            continue
        v = not p.default if type(p.default) is bool else None
        out.append(("%s = %r" % (p.name, v), args,
                    dict(kwargs, **{p.name: v})))
    return out[:VARIANTS_PER_ARG]


def _by_name(fn, args, kwargs, first):
    """The call with its last positional argument (never the receiver)
    passed by its parameter's name, as other callers may write it
    (url_for(app, endpoint="index")): a fix that makes the parameter
    positional-only refuses them.  The name is this side's own, and a
    side whose parameter has another name describes another variant."""
    i = len(args) - 1
    if i < first:
        return []
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return []
    if i >= len(params):
        return []
    p = params[i]
    if p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) or \
            p.name in kwargs:
        return []
    return [("%s given by name" % p.name, None, args[:i],
             dict(kwargs, **{p.name: args[i]}), None)]


def _colliding_keywords(fn, args, kwargs, hints):
    """The call with one more keyword, where the function gathers
    keywords (**values) and the test gave it one: named as a parameter
    that one text takes by keyword and the other does not (hints.keywords),
    with the value of the test's gathered keyword.  A fix that renames a
    parameter (self to app, so that a URL variable named "self" works)
    moves the collision to its new name; the reference's positional-only
    parameter has none."""
    if not hints.keywords or not kwargs:
        return []
    code = getattr(fn, "__code__", None)
    if code is None or not code.co_flags & inspect.CO_VARKEYWORDS:
        return []
    own = _keyword_parameters(code)
    gathered = [k for k in sorted(kwargs) if k not in own]
    if not gathered:
        return []
    value = kwargs[gathered[0]]
    return [("%s = %s given too" % (name, _told(value)), None, args,
             dict(kwargs, **{name: value}), None)
            for name in sorted(hints.keywords) if name not in kwargs][:2]


_CODE = (types.FunctionType, types.MethodType, types.BuiltinFunctionType,
         type)


_DERIVED = {}   # class -> names of attributes its __init__ computes


def _derived_attributes(cls):
    """The attributes a class's __init__ (its own or an ancestor's)
    computes from its other parameters (self.is_bool_flag = is_flag and
    ...), not from a parameter of their own name (self.name = name, or a
    default for it) nor from constants alone (self.debug = False, which a
    user sets later): no caller can make one disagree with the rest of
    the object, so it is not varied alone."""
    if cls in _DERIVED:
        return _DERIVED[cls]
    import ast
    import textwrap
    direct, computed = set(), set()
    for klass in cls.__mro__:
        init = vars(klass).get("__init__")
        try:
            init = inspect.unwrap(init)  # the probes' own watcher on it
        except Exception:
            pass
        code = getattr(init, "__code__", None)
        if code is None:
            continue
        try:
            tree = ast.parse(textwrap.dedent(inspect.getsource(init)))
        except Exception:  # no source (a built class, a zipped module)
            continue
        params = set(code.co_varnames[1:code.co_argcount +
                                      code.co_kwonlyargcount])
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign):
                targets, value = node.targets, node.value
            elif isinstance(node, ast.AnnAssign) and node.value is not None:
                targets, value = [node.target], node.value
            else:
                continue
            used = {n.id for n in ast.walk(value) if isinstance(n, ast.Name)}
            for t in targets:
                if isinstance(t, ast.Attribute) and \
                        isinstance(t.value, ast.Name) and t.value.id == "self":
                    own = t.attr.lstrip("_")
                    if own in used and own in params:
                        direct.add(t.attr)  # from its own parameter
                    elif used & params:
                        computed.add(t.attr)
                    # (from constants alone: a default a user sets later)
    _DERIVED[cls] = frozenset(computed - direct)
    return _DERIVED[cls]


def _settable(obj, names=frozenset()):
    """(name, value) of an object's public data: its own attributes and
    its class's plain ones (an exception class's status code), which an
    attribute of the object may shadow, and the properties with a setter
    among names (the ones the changed function reads: an application's
    debug flag); no other property (its code would run), and no attribute
    its __init__ computes from others (_derived_attributes)."""
    d = _own_dict(obj)
    derived = _derived_attributes(type(obj)) if d else frozenset()
    own = {k: v for k, v in d.items() if type(k) is str and
           not isinstance(v, _CODE) and k not in derived} \
        if d is not None else {}
    for k, v in _attributes(obj) or ():
        if k not in derived:
            own.setdefault(k, v)    # __slots__
    for cls in reversed(type(obj).__mro__[:-1]):
        if cls.__module__ in ("builtins", "abc", "typing"):
            continue
        for name, v in vars(cls).items():
            if name not in own and name not in derived and \
                    type(v) in (bool, int, float, str):
                own[name] = v
            elif name in names and isinstance(v, property) and \
                    v.fset is not None:
                try:
                    value = v.fget(obj)
                except Exception:
                    continue
                if type(value) in (bool, int, float, str):
                    own[name] = value
    return sorted((k, v) for k, v in own.items()
                  if type(k) is str and not k.startswith("_"))


def _attribute_variants(obj, label, hints=NO_HINTS, depth=0):
    """_attribute_groups's variants, those the function reads first."""
    read, other = _attribute_groups(obj, label, hints, depth)
    return (read + other)[:VARIANTS_PER_ARG]


def _attribute_groups(obj, label, hints=NO_HINTS, depth=0):
    """(what, (holder, key, value, how)): one public attribute of an
    object the call was given (the receiver, an object argument, an
    object they hold), or one entry of a dict it holds (a configuration),
    set to a value one change away, as the program's users may set it
    (an exception's code, a flag, a name).  The attributes the changed
    function reads come first, and only their values start with its
    constants.  Private attributes hold the object's invariants and are
    left alone.  Two lists: those of attributes the function reads, and
    the others, led by the read settings left None (their type a guess)."""
    if _plain_value(obj) or isinstance(obj, type):
        return [], []
    read, other, unset = [], [], []
    for name, v in _settable(obj, hints.names):
        where = "%s.%s" % (label, name)
        per = read if name in hints.names else other
        consts = hints.constants if per is read else ()
        if type(v) in (bool, int, float, str):
            per.append([("%s = %s" % (where, _told(x)),
                         (obj, name, x, "attr"))
                        for x in _attribute_values(v, consts) +
                        (_other_type(v, hints) if per is read else [])])
        elif type(v) in (list, tuple):
            # The same items as the other sequence type, as a user who
            # sets the attribute, or a method that rebuilds it, may leave
            # it (a URL's path parts after normalising).
            swapped = tuple(v) if type(v) is list else list(v)
            row = [("%s = %s" % (where, _told(swapped)),
                    (obj, name, swapped, "attr"))]
            if per is read:
                # A list of names the function reads with its first or
                # last item one change away (help names without
                # "--help": a fix that prefers the tested name).
                for i in sorted({0, len(v) - 1}) if v else ():
                    if type(v[i]) not in (int, str):
                        continue
                    for x in _near(v[i])[:1]:
                        changed = type(v)(list(v[:i]) + [x] +
                                          list(v[i + 1:]))
                        row.append(("%s = %s" % (where, _told(changed)),
                                    (obj, name, changed, "attr")))
            per.append(row)
        elif v is None and per is read and not name.startswith("_"):
            # A setting the function reads left unset (a prefix, a name):
            # set to a text, as a user sets it.  A fix that reads it where
            # the reference does not (a name made from it) differs there.
            # A guess at its type: one row, after the attributes whose
            # values the test shows.
            unset.append(("%s = %s" % (where, _told(UNSET_TEXT)),
                          (obj, name, UNSET_TEXT, "attr")))
        elif type(v) is dict and depth == 0:
            per.append([("%s[%r] = %s" % (where, k, _told(
                x)), (v, k, x, "item"))
                for k in sorted(k for k in v if type(k) is str)[:ATTRS_MAX]
                if type(v[k]) in (bool, int, str)
                for x in _near(v[k], hints.constants if k in hints.names
                               else ())[:1]])
        elif depth == 0 and not _plain_value(v) and \
                not isinstance(v, _CODE) and hasattr(v, "__dict__") and \
                type(v).__module__ != "builtins":
            # An object it holds (a request's routing exception, which is
            # also callable: a response).
            per.append(_attribute_variants(v, where, hints, depth + 1))
            if name in hints.names:
                per.append([("%s = %s" % (where, _told(x)),
                             (obj, name, x, "attr")) for x in _siblings(v)] +
                           [("%s = %s()" % (where, c.__name__),
                             (obj, name, c, "build"))
                            for c in _buildable_siblings(v)])
    if depth == 0:
        read.append(_raising_attributes(obj, label, hints))
    if unset:
        other.insert(0, unset)
    return tuple([x for row in itertools.zip_longest(*group)
                  for x in row if x is not None][:VARIANTS_PER_ARG]
                 for group in (read, other))


def _stand_ins(obj, label, hints):
    """(what, setting): an object of the program's own classes that obj
    holds replaced by a stand-in of another class that forwards to it
    (litmus_inputs.Forwarding): those the function reads first, then
    those a private attribute it reads holds (_held_stand_ins), then
    the others (a default it reads through a getter).  A fix that tests
    the object's class where the reference asks the object differs."""
    if _plain_value(obj) or isinstance(obj, type):
        return []
    read, other = [], []
    for name, v in _settable(obj, hints.names):
        if _plain_value(v) or isinstance(v, _CODE) or \
                not hasattr(v, "__dict__") or \
                type(v).__module__ == "builtins":
            continue
        (read if name in hints.names else other).extend(
            ("%s.%s = %s" % (label, name, _stand_in_told(x)),
             (obj, name, x, "attr")) for x in litmus_inputs.forwarding(v))
    return read + _held_stand_ins(obj, label, hints) + other


def _held_stand_ins(obj, label, hints):
    """(what, setting): an object that a private attribute the function
    reads holds, in an attribute it reads too (a block's context's
    environment), replaced by a stand-in of another class: a fix that
    tests that object's class where the reference asks the object
    (isinstance(env, NativeEnvironment) where it calls env.concat)
    differs.  The private object itself stays: only what it points to
    is wrapped, so its invariants hold."""
    out = []
    d = _own_dict(obj) or {}
    for name in sorted(k for k in d if type(k) is str):
        held = d[name]
        if not name.startswith("_") or name.startswith("__") or \
                name not in hints.names or not _program_object(held):
            continue
        for sub, v in sorted((_own_dict(held) or {}).items()):
            if type(sub) is str and not sub.startswith("_") and \
                    sub in hints.names and _program_object(v):
                out += [("%s.%s.%s = %s" % (label, name, sub,
                                            _stand_in_told(x)),
                         (held, sub, x, "attr"))
                        for x in litmus_inputs.forwarding(v)]
    return out[:SIBLINGS_MAX]


def _attribute_values(v, consts):
    """The values tried for a plain attribute: the function's constant
    nearest to it, then its own nearest neighbour, in turn (a status code
    the code compares against, and one it does not name: a fix that
    handles only the tested code differs on the other)."""
    known = [x for x in _near(v, consts) if x in consts]
    own = [x for x in _near(v) if x not in known]
    gap = object()
    mixed = [x for pair in itertools.zip_longest(known, own, fillvalue=gap)
             for x in pair if x is not gap]
    return mixed[:ATTR_VALUES]


def _raising_attributes(obj, label, hints):
    """(what, setting): a function the object holds as its own attribute
    (a parameter type's conversion function) and the changed function
    reads, failing at its first call: with an error of its own, and with a
    ValueError.  A handler that catches more than the reference's hides
    an error the reference lets through."""
    d = _own_dict(obj) or {}
    out = []
    for name in sorted(k for k in d if type(k) is str):
        v = d[name]
        if name.startswith("_") or name not in hints.names or \
                not isinstance(v, (types.FunctionType,
                                   types.BuiltinFunctionType,
                                   functools.partial)):
            continue
        for error in (litmus_inputs.CallbackError,
                      litmus_inputs.CallbackValueError):
            hook = litmus_inputs.Raising(v, 0, error)
            out.append(("%s.%s = %s" % (label, name, _told(hook)),
                        (obj, name, hook, "attr")))
    return out


def _variants(fn, args, kwargs, hints=NO_HINTS):
    """(what, function, args, kwargs, setting): the call with one argument
    one change away (the receiver, which the test made, is never
    replaced), a public attribute of the receiver or of an object
    argument changed (setting, made in the child before the call:
    _attribute_variants), an option the test left out given, or another
    changed method of the receiver's class that takes no argument called
    on it (function: that method; else None, fn itself); each kind in
    turn.  hints: what the function's code shows (Hints): its constants
    are tried first for an argument's value of their type."""
    per, later = [], []

    def attributes(obj, label):
        # The attributes the function does not read come after every
        # other kind of variant: an application's or a response's many
        # settings would crowd out the session's flag the code reads.
        read, other = _attribute_groups(obj, label, hints)
        later.append([(what, None, args, kwargs, setting)
                      for what, setting in other])
        return [(what, None, args, kwargs, setting)
                for what, setting in read]

    first = 1 if args and not _plain_value(args[0]) and \
        _is_receiver(fn, args[0]) else 0
    # Stand-ins of another class, after every other kind (and beyond
    # their cap, so that they take no other variant's place).
    stand = []
    if first:
        stand += [(what, None, args, kwargs, setting) for what, setting in
                  _stand_ins(args[0], "self", hints)]
        per.append(attributes(args[0], "self"))
        per.append(_sibling_calls(fn, args[0], (args, kwargs)))
        per.append(_rebuilt_receiver(fn, args, kwargs, hints))
    for i in range(first, len(args)):
        label = "argument %d" % (i + 1 - first)
        near = _classes_near(args[i]) if isinstance(args[i], type) \
            else _near(args[i], hints.constants) + \
            _other_type(args[i], hints) + _poisoned(args[i], hints)
        per.append([("%s = %s" % (label, _told(v)), None,
                     args[:i] + (v,) + args[i + 1:], kwargs, None)
                    for v in near])
        per.append(attributes(args[i], label))
        stand += [("%s = %s" % (label, _stand_in_told(v)), None,
                   args[:i] + (v,) + args[i + 1:], kwargs, None)
                  for v in litmus_inputs.forwarding(args[i])]
        stand += [(what, None, args, kwargs, setting) for what, setting in
                  _stand_ins(args[i], label, hints)]
    for k in sorted(kwargs):
        per.append([("%s = %s" % (k, _told(v)), None,
                     args, dict(kwargs, **{k: v}), None)
                    for v in _near(kwargs[k], hints.constants) +
                    _other_type(kwargs[k], hints) +
                    _poisoned(kwargs[k], hints)])
        per.append(attributes(kwargs[k], k))
    per.append([(what, None, a, k, None)
                for what, a, k in _unpassed(fn, args, kwargs)])
    per.append(_by_name(fn, args, kwargs, first))
    per.append(_colliding_keywords(fn, args, kwargs, hints))
    if first:
        per.append(_moved_settings(args, kwargs, hints))
        per.append(_registered_settings(args, kwargs, hints))
        per.append(_raising_hooks(fn, args, kwargs, hints))
    out = []
    for rows in (per, later):
        for row in itertools.zip_longest(*rows):
            out.extend(x for x in row if x is not None)
    out = out[:VARIANTS_PER_CALL]
    again = []
    if first:
        # The first few again, made after the test's own call on the same
        # receiver: a method that keeps its first result (a cache with no
        # key, a flag set once) answers the next caller with it.
        again = [("after the test's call, " + what, None, a, k,
                  (fn, (args, kwargs), setting, "after"))
                 for what, other, a, k, setting in out
                 if other is None][:AFTER_CALL]
    return out + again + stand[:STAND_INS_PER_CALL]


def _moved_settings(args, kwargs, hints):
    """A setting the call's options give, given by the receiver instead:
    the options' entry left out and the receiver's unset attribute of the
    same name (one the changed function reads) set to its value, the
    other way a program's users give it (a blueprint made with its
    subdomain, not registered with it).  Where one patch reads only the
    options and the other whichever is set, their results part.  And a
    plain setting of the receiver given by an object argument instead,
    where that object leaves its attribute of the same name unset."""
    receiver = args[0]
    own = _own_dict(receiver)
    if own is None:
        return []
    out = []
    places = [(i, v) for i, v in enumerate(args[1:], 1)] + \
        [(k, v) for k, v in sorted(kwargs.items())] + [(None, kwargs)]
    for where, d in places:
        if type(d) is not dict:
            continue
        for k in sorted(x for x in d if type(x) is str):
            if k.startswith("_") or k not in hints.names or \
                    k not in own or own[k] is not None or d[k] is None:
                continue
            rest = {x: y for x, y in d.items() if x != k}
            if where is None:   # a keyword argument of the call itself
                a, kw, label = args, rest, "the keywords"
            elif type(where) is int:
                a, kw = args[:where] + (rest,) + args[where + 1:], kwargs
                label = "argument %d" % where
            else:
                a, kw = args, dict(kwargs, **{where: rest})
                label = where
            out.append(("self.%s = %s, left out of %s" % (k, _told(d[k]),
                                                          label),
                        None, a, kw, (receiver, k, d[k], "attr")))
    # The other way round: a setting the receiver gives, given instead by
    # an object argument that leaves it unset (an option's show_default,
    # given by the context it is shown in).  Where one patch honours only
    # the receiver's and the other either, their results part.
    objects = [("argument %d" % i, v) for i, v in enumerate(args[1:], 1)] + \
        [(k, v) for k, v in sorted(kwargs.items())]
    for label, obj in objects:
        if _plain_value(obj) or isinstance(obj, type) or obj is receiver:
            continue
        theirs = _own_dict(obj)
        if theirs is None:
            continue
        for k in sorted(x for x in own if type(x) is str):
            v = own[k]
            if k.startswith("_") or k not in hints.names or \
                    type(v) not in (bool, int, str) or \
                    k not in theirs or theirs[k] is not None:
                continue
            out.append(("self.%s = None, %s.%s = %s" % (k, label, k,
                                                         _told(v)),
                        None, args, kwargs,
                        (None, None, [(receiver, k, None, "attr"),
                                      (obj, k, v, "attr")], "several")))
    return out[:VARIANTS_PER_ARG]


def _registered_settings(args, kwargs, hints):
    """A setting an object the receiver holds carries itself, given
    instead with the options it was registered with: in the receiver's
    lists of (object, options) pairs (a registry), the object's attribute
    (one the changed function reads) unset and the options' entry of that
    name set to its value, the other way a program's users give it (a
    blueprint registered with its subdomain, not made with it).  Where one
    patch reads only the object and the other the options first, their
    results part.  Second, a setting the call's own options give, which a
    registered object leaves unset, also given with that object's options,
    one change away (a child blueprint registered with a subdomain of its
    own, under a parent given another): a patch that puts the call's
    value over the registered one differs."""
    receiver = args[0]
    own = _own_dict(receiver)
    if own is None:
        return []
    given = {}
    for d in list(args[1:]) + list(kwargs.values()) + [kwargs]:
        if type(d) is dict:
            for k, v in d.items():
                if type(k) is str and type(v) in (int, str) and v:
                    given.setdefault(k, v)
    out = []
    for attr in sorted(k for k in own if type(k) is str):
        held = own[attr]
        if type(held) not in (list, tuple):
            continue
        for i, pair in enumerate(held[:REGISTERED_MAX]):
            if type(pair) not in (tuple, list) or len(pair) != 2 or \
                    type(pair[1]) is not dict or _plain_value(pair[0]):
                continue
            obj, options = pair
            state = _own_dict(obj)
            if state is None:
                continue
            for k in sorted(x for x in state if type(x) is str):
                v = state[k]
                if k.startswith("_") or k not in hints.names or \
                        k in options:
                    continue
                if type(v) in (bool, int, str):
                    out.append(("self.%s[%d]: %s = %s given with its "
                                "options, not set on it"
                                % (attr, i, k, _told(v)), None, args, kwargs,
                                (None, None, [(obj, k, None, "attr"),
                                              (options, k, v, "item")],
                                 "several")))
                elif v is None and k in given:
                    other = [x for x in _near(given[k])
                             if type(x) is type(given[k]) and x]
                    if other:
                        out.append(("self.%s[%d]: registered with %s = %s"
                                    % (attr, i, k, _told(other[0])), None,
                                    args, kwargs,
                                    (options, k, other[0], "item")))
    return out[:VARIANTS_PER_ARG]


def _raising_hooks(fn, args, kwargs, hints):
    """A hook the receiver's own class overrides (a user's subclass
    method the changed function calls: a sitemap's lastmod), failing at
    its first call and at its second.  A library lets a hook's error
    through; a patch that catches every exception hides it."""
    receiver = args[0]
    owner = _defining_class(fn, type(receiver))
    if owner is None:
        return []
    mro = type(receiver).__mro__
    out, done = [], set()
    for cls in mro[:mro.index(owner)]:
        for name, v in sorted(vars(cls).items()):
            if name.startswith("_") or name not in hints.names or \
                    not isinstance(v, types.FunctionType) or name in done:
                continue
            done.add(name)
            try:
                bound = getattr(receiver, name)
            except Exception:
                continue
            for after in (0, 1):
                hook = litmus_inputs.Raising(bound, after)
                out.append(("self.%s = %s" % (name, _told(hook)), None, args,
                            kwargs, (receiver, name, hook, "attr")))
    return out[:VARIANTS_PER_ARG]


def _defining_class(fn, cls):
    """The class of cls's MRO whose body defines fn (by its qualified
    name: the class holds the probe's wrapper), None when none does."""
    owner, _, name = getattr(fn, "__qualname__", "").rpartition(".")
    for c in cls.__mro__:
        if c.__qualname__ == owner and name in vars(c):
            return c
    return None


def _is_receiver(fn, first):
    """Whether a call's first argument is the receiver the test made (an
    object), not an argument to vary: a class is one only for a class
    method's cls; a static method's class argument (an exception class
    to register) gets its neighbours (_classes_near)."""
    if not isinstance(first, type):
        return True
    code = getattr(fn, "__code__", None)
    return code is None or not code.co_argcount or \
        code.co_varnames[0] in ("cls", "self", "mcs", "metacls", "klass")


def _plain_value(v):
    return v is None or type(v) in (bool, int, float, str, bytes, list,
                                    tuple, dict, set, frozenset)


_CHANGED_METHODS = {}   # class -> names of its methods either patch changes
_ARGS_SEEN = {}  # "Class.method" -> (args, kwargs) of the tests' first call
# of a changed method with plain arguments: replayed after its siblings


def _remember_arguments(name, args, kwargs):
    """Keeps the arguments of the tests' first call of a changed method
    (beyond its receiver) when they are plain values, for
    _sibling_calls."""
    if name in _ARGS_SEEN or not args or _plain_value(args[0]) or \
            isinstance(args[0], type):
        return  # no receiver: a static method's arguments
    rest = tuple(args[1:])
    if all(_replayable(v) for v in rest + tuple(kwargs.values())):
        _ARGS_SEEN[name] = (rest, dict(kwargs))


_OBJECTS_SEEN = {}  # class -> a weak reference to the first object of
# it a probed call held (kept alive, it could change what a later test
# finds in a weak cache)
OBJECTS_SEEN_MAX = 500


def _program_object(v):
    return not _plain_value(v) and not isinstance(v, _CODE) and \
        not isinstance(v, types.ModuleType) and \
        type(v).__module__ not in ("builtins", "abc", "typing", "enum") and \
        _own_dict(v) is not None


def _remember_objects(args, kwargs):
    """Keeps the first object of each class a probed call was given, or
    held in an argument's attributes (an option's parameter type), for
    _siblings."""
    for a in tuple(args) + tuple(kwargs.values()):
        if not _program_object(a):
            continue
        for x in [a] + list(_own_dict(a).values()):
            if len(_OBJECTS_SEEN) < OBJECTS_SEEN_MAX and \
                    type(x) not in _OBJECTS_SEEN and _program_object(x):
                try:
                    _OBJECTS_SEEN[type(x)] = weakref.ref(x)
                except TypeError:
                    pass    # no weak reference to it: not kept


def _siblings(v):
    """Objects the tests made of other subclasses of v's nearest base
    class of the program (an integer parameter type for a choice): a fix
    that handles only the tested class leaves the others' path as it
    was."""
    t = type(v)
    bases = _program_bases(t)
    if not bases:
        return []
    out = [r() for c, r in list(_OBJECTS_SEEN.items())
           if c is not t and issubclass(c, bases[0])]
    return [x for x in out if x is not None][:SIBLINGS_MAX]


def _program_bases(t):
    """t's base classes of the program, nearest first (not object's, the
    standard library's abstract bases, typing's or enum's)."""
    return [b for b in t.__mro__[1:-1]
            if b.__module__ not in ("builtins", "abc", "typing", "enum")]


def _buildable_siblings(v):
    """Other subclasses of the root of v's class hierarchy in the program
    that no test made and that take no argument (a path parameter type
    beside the tested integer type), those that set more of the root's
    plain class settings otherwise first (a list splitter of their own):
    the root's methods take another path for them.  Made in the child,
    never here (their construction is the program's code)."""
    t = type(v)
    ranked = _BUILDABLE.get(t)
    if ranked is None:
        ranked = _BUILDABLE[t] = _buildable_classes(t)
    seen = set(_OBJECTS_SEEN)
    return [c for c in ranked if c not in seen][:SIBLINGS_MAX]


_BUILDABLE = {}  # class -> _buildable_classes(class): one walk per class


def _buildable_classes(t):
    bases = _program_bases(t)
    if not bases:
        return []
    root, package = bases[-1], t.__module__.split(".")[0]
    settings = [k for k, x in vars(root).items() if not k.startswith("_")
                and (x is None or type(x) in (bool, int, float, str))]
    found, pending, visited = [], list(root.__subclasses__()), set()
    while pending and len(visited) < BUILDABLE_SCAN_MAX:
        c = pending.pop(0)
        if c in visited:
            continue
        visited.add(c)
        pending += c.__subclasses__()
        if c is t or c.__name__.startswith("_") or \
                c.__module__.split(".")[0] != package or \
                inspect.isabstract(c) or not _takes_no_argument(c):
            continue
        apart = sum(1 for k in settings
                    if getattr(c, k, None) != getattr(t, k, None))
        found.append((-apart, len(found), c))
    return [c for _, _, c in sorted(found)]


def _takes_no_argument(cls):
    try:
        params = inspect.signature(cls).parameters.values()
    except (TypeError, ValueError):
        return False
    return all(p.default is not p.empty or
               p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in params)


def _replayable(v):
    return v is None or type(v) in (bool, int, float, str) or \
        (type(v) is tuple and len(v) <= 4 and all(_replayable(x) for x in v))


def _same_parameters(a, b):
    """Whether functions a and b take the same parameters by name and
    kind (a comparison and its mirror: __le__ and __ge__)."""
    try:
        pa = inspect.signature(a).parameters.values()
        pb = inspect.signature(b).parameters.values()
    except (TypeError, ValueError):
        return False
    return [(p.name, p.kind) for p in pa] == [(p.name, p.kind) for p in pb]


# A class's binary operators: one the tests never call is called on a
# receiver they built with that receiver as its operand (x >= x reaches
# the branch of x's own form, which no test's pair may reach).
_BINARY_OPERATORS = frozenset(
    "__%s__" % n for n in ("eq ne lt le gt ge and or xor sub add mul "
                           "truediv floordiv mod matmul").split())


def _shown(args, kwargs, receiver=None):
    """A call's arguments as a variant's description says them (the
    receiver as "self")."""
    return ", ".join(["self" if receiver is not None and x is receiver
                      else _told(x) for x in args] +
                     ["%s=%s" % (k, _told(kwargs[k])) for k in sorted(kwargs)])


def _sibling_calls(fn, receiver, call=None):
    """The other changed public methods of the receiver's class that need
    no argument, called on the receiver the test made (with the options
    they leave at their default given too): a part of a fix that the
    tests never call is still compared on the objects they built.  One
    that needs arguments is called with those of the tests' first call
    of it (a seek relative to where a seek(0) left the stream), else,
    when it takes the same parameters as fn, with this call's (call:
    fn's (args, kwargs); a comparison fixed in both directions, whose
    tests compare one way), else, for a binary operator, with the
    receiver as its operand."""
    out = []
    cls = type(receiver)
    for owner in cls.__mro__:
        for name in _CHANGED_METHODS.get(owner, ()):
            if name == getattr(fn, "__name__", None) or _private(name):
                continue  # a private helper: its callers' contract
            method = getattr(cls, name, None)
            if not isinstance(method, types.FunctionType):
                continue
            try:
                if name in _BINARY_OPERATORS:
                    # Always with an operand, whatever its signature (one
                    # side's may take *args: an error-raising alias).
                    raise TypeError(name)
                inspect.signature(method).bind(receiver)
            except (TypeError, ValueError):
                seen = _ARGS_SEEN.get("%s.%s" % (owner.__qualname__, name))
                if seen is None and call is not None and \
                        _same_parameters(method, fn):
                    seen = (tuple(call[0][1:]), dict(call[1]))
                if seen is None and name in _BINARY_OPERATORS:
                    seen = ((receiver,), {})  # x >= x
                if seen is None:
                    continue  # it needs arguments the tests never gave
                a, k = seen
                try:
                    inspect.signature(method).bind(receiver, *a, **k)
                except (TypeError, ValueError):
                    continue
                out.append(("then self.%s(%s)" % (name,
                                                    _shown(a, k, receiver)),
                            method, (receiver,) + a, dict(k), None))
                continue
            out.append(("then self.%s()" % name, method, (receiver,), {},
                        None))
            out += [("then self.%s(%s)" % (name, what), method, a, k, None)
                    for what, a, k in _unpassed(method, (receiver,), {})]
    return out[:VARIANTS_PER_ARG]


def _rebuilt_calls(cls, init_args, kwargs, calls, hints=NO_HINTS):
    """The calls of calls (_sibling_calls on the receiver init_args[0]
    the test built with cls(*init_args[1:], **kwargs)) made on receivers
    built again with one plain constructor argument one change away (an
    empty range where the test built a longer one): the objects a test
    built are the ones it checked, and a fix for them alone leaves their
    neighbours as they were.  Private state cannot be varied alone; the
    constructor keeps it consistent.  hints: the called method's
    (Hints): where its code checks an argument's type, a value of
    another type is tried too (_other_type)."""
    receiver, args = init_args[0], init_args[1:]
    out = []
    given = [(i, v) for i, v in enumerate(args)] + sorted(kwargs.items())
    for where, v in given:
        if not _rebuildable(v):
            continue    # None has no neighbour; an object is not varied
        for x in _near(v)[:REBUILT_VALUES] + _other_type(v, hints):
            a, k = list(args), dict(kwargs)
            if type(where) is int:
                a[where] = x
            else:
                k[where] = x
            built = "self = %s(%s)" % (cls.__name__, _shown(a, k))
            for what, method, margs, mkw, _ in calls:
                out.append(("%s; %s" % (built, what),
                            _rebuilt(cls, tuple(a), k, method, receiver),
                            tuple(margs[1:]), dict(mkw), None))
    return out[:VARIANTS_PER_CALL]


def _rebuilt(cls, cargs, ckw, method, old):
    """method called on cls(*cargs, **ckw) with the arguments given, the
    new object in place of the receiver it replaces (old) among them."""
    def call(*args, **kwargs):
        new = cls(*cargs, **ckw)
        return method(new, *(new if a is old else a for a in args),
                      **kwargs)
    return call


def _apply_setting(setting):
    """(holder, key, value, how): an attribute set ("attr"), an entry
    ("item"), an attribute set to an object of the class value made
    without arguments ("build"), the settings the value lists
    ("several"), or the call holder(*key[0], **key[1]) made first,
    whatever it gives, then the setting value if any ("after")."""
    holder, key, value, how = setting
    if how == "after":
        status, _ = litmus_calls._timed(
            lambda: _read(holder(*key[0], **key[1])), CHILD_CPU)
        if status == "timeout":
            raise TimeoutError("the first call did not end")
        if value is not None:
            _apply_setting(value)
    elif how == "several":
        for one in value:
            _apply_setting(one)
    elif how == "item":
        holder[key] = value
    elif how == "build":
        setattr(holder, key, value())   # made here, in the child
    else:
        setattr(holder, key, value)


PRINTED_MAX = 400       # characters of a call's printed output kept


def _memory_of(stream):
    """The object that keeps what is written to a stream (its own
    getvalue, or its buffer's), None for a real file."""
    for s in (stream, getattr(stream, "buffer", None)):
        if callable(getattr(s, "getvalue", None)):
            return s
    return None


def _stream_text(stream):
    """What an in-memory stream holds so far (a command runner's or a
    test's captured output), None for a real file."""
    kept = _memory_of(stream)
    if kept is None:
        return None
    try:
        stream.flush()
    except Exception:
        pass
    try:
        v = kept.getvalue()
    except Exception:
        return None
    if isinstance(v, (bytes, bytearray)):
        v = bytes(v).decode("utf-8", "replace")
    return v if isinstance(v, str) else None


def _stream_texts():
    """(stdout, stderr) as _stream_text has them, None where neither is
    in memory: the output a call prints can then be read."""
    texts = (_stream_text(sys.stdout), _stream_text(sys.stderr))
    return None if texts == (None, None) else texts


def _printed_since(before):
    """What the call printed since before (_stream_texts), without
    addresses: {"out": ..., "err": ...}."""
    if before is None:
        return None
    try:
        after = _stream_texts()
        if after is None:
            return None
        out = {}
        for name, b, a in zip(("out", "err"), before, after):
            if a is None:
                continue
            text = a[len(b):] if b is not None and a.startswith(b) else a
            out[name] = litmus_calls.without_addresses(text)[:PRINTED_MAX]
        return out
    except Exception:
        return None     # never the test's own outcome changed by a probe


def _in_child(fn, args, kwargs, limit, setting=None):
    """The call made in a forked child (after setting (object, name,
    value), when given); its record, None when the child gave none in
    time or the attribute cannot be set.  Where the output streams are
    in memory, the record holds what the call printed ("printed")."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(r)
            _test[0] = None  # no probes inside the child
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            os.dup2(devnull, 2)
            if setting is not None:
                _apply_setting(setting)
            before = _stream_texts()
            status, value = litmus_calls._timed(
                lambda: _read(fn(*args, **kwargs)), limit)
            out = _result(status, value, args, kwargs)
            printed = _printed_since(before)
            if printed is not None:
                out["printed"] = printed
            data = json.dumps(out)
            os.write(w, data.encode()[:1 << 20])
        except BaseException:
            pass
        os._exit(0)
    os.close(w)
    chunks = []
    deadline = time.monotonic() + CHILD_WALL
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([r], [], [], left)[0]:
                os.kill(pid, signal.SIGKILL)
                chunks = None
                break
            b = os.read(r, 65536)
            if not b:
                break
            chunks.append(b)
    finally:
        os.close(r)
        os.waitpid(pid, 0)
    if not chunks:
        return None
    try:
        return json.loads(b"".join(chunks))
    except ValueError:
        return None


def _clock():
    """CPU time of this process and of its children it has waited for
    (the variants' children)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def _over_budget(extra):
    """Whether the run has spent its probes' budget (extra: CPU s spent
    by the probe in progress)."""
    now = time.monotonic()
    if _wall0[0] is None:
        _wall0[0] = now
    return _spent[0] + extra >= SPENT_MAX or \
        now - _wall0[0] >= SPENT_WALL_MAX


def _send(test, name, call, variant, what, out):
    if out is None or _sent[0] >= RECORDS_MAX:
        return
    rec = json.dumps({"t": test, "f": name, "c": call, "v": variant,
                      "what": what, "out": out}, sort_keys=True)
    if _litmus.send_call(rec):
        _sent[0] += 1


def _kind(v, depth=0):
    """A value's kind, for telling a test's calls apart: its type, and
    one level down for a container (a tuple of a list and an int)."""
    t = type(v)
    if depth == 0 and t in (tuple, list, set, frozenset, dict):
        items = list(v.values() if t is dict else v)[:4]
        return (t.__name__,) + tuple(_kind(x, 1) for x in items)
    if depth == 0 and isinstance(v, (tuple, list, set, frozenset, dict)):
        # A container of the program's own (a session): an empty one
        # takes another branch (`if not session`) than a full one.
        try:
            return (t.__name__, "empty" if len(v) == 0 else "items")
        except Exception:
            pass
    return t.__name__


def _read_values(args, hints):
    """The plain values the function reads from its arguments' own
    attributes (a request's method): two calls with the same types but
    another method are two kinds of call."""
    out = []
    for a in args:
        if _plain_value(a):
            continue
        d = _own_dict(a)
        if d is None:
            continue
        for k in sorted(hints.names):
            if k in d:
                v = d[k]
            elif isinstance(getattr(type(a), k, None), property):
                # A setting behind a property (an application's debug
                # flag): a getter's plain value.
                try:
                    v = getattr(a, k)
                except Exception:
                    continue
            else:
                continue
            if type(v) in (bool, int, str) or v is None:
                out.append((k, v))
    return tuple(out)


def _constants_given(args, kwargs, hints):
    """The text arguments equal to one of the function's text constants,
    by place: a call with "clear" where the code names "clear" takes
    another branch than one with "append", so the two are two kinds of
    call.  (Numbers are not: 0 and 1 are everywhere.)"""
    consts = set(c for c in hints.constants if type(c) is str)
    return tuple((k, v) for k, v in
                 list(enumerate(args)) + sorted(kwargs.items())
                 if type(v) is str and v in consts)


def _run_variants(test, name, call, fn, variants, t0, given=None):
    """Makes each variant's call (fn, or the variant's own function) in a
    child and sends its record, within the probes' budget (t0: the CPU
    clock when this probe began).  given: the test's (args, kwargs), for
    marking a variant that puts a value of another type in an argument
    ("retyped": None where the test gave an int)."""
    for k, (what, other, vargs, vkw, setting) in enumerate(variants):
        if _over_budget(_clock() - t0):
            break
        try:
            out = _in_child(other or fn, vargs, vkw, CHILD_CPU, setting)
        except OSError:
            break  # no fork here (a run without process mode)
        if out is not None and given is not None and (
                _retyped(other or fn, given, vargs, vkw) or
                _setting_retyped(setting)):
            out["retyped"] = True
        _send(test, name, call, k + 1, what, out)


def _setting_retyped(setting):
    """Whether a setting puts a value of another type than the one the
    attribute or entry holds (a text where it holds None)."""
    if setting is not None and setting[3] == "after":
        return _setting_retyped(setting[2])
    if setting is None or setting[3] not in ("attr", "item"):
        return False
    holder, key, value, how = setting
    try:
        old = holder[key] if how == "item" else \
            object.__getattribute__(holder, key)
    except Exception:
        return False
    return type(old) is not type(value) and not _stands_in(value, old)


def _stands_in(value, old):
    """Whether value is a stand-in for old (litmus_inputs.Forwarding):
    the same object, which a function that takes it refuses only where it
    tests its class."""
    return type(value) is litmus_inputs.Forwarding and \
        object.__getattribute__(value, "_litmus_target") is old


def _retyped(fn, given, args, kwargs):
    """Whether a variant's arguments hold a value of another type than
    the test's at the same place, or than a plain default (an int) of an
    option the test left out."""
    gargs, gkw = given
    if len(gargs) != len(args):
        return False
    if any(type(a) is not type(b) and not _stands_in(b, a)
           for a, b in zip(gargs, args)):
        return True
    for k, v in kwargs.items():
        if k in gkw:
            if type(gkw[k]) is not type(v) and not _stands_in(v, gkw[k]):
                return True
            continue
        try:
            p = inspect.signature(fn).parameters.get(k)
        except (TypeError, ValueError):
            continue
        if p is not None and type(p.default) in (int, float, str, bytes,
                                                 tuple) and \
                type(p.default) is not type(v):
            return True
    return False


def _private(name):
    """Whether a function's name (module.f, Class.method) is private: its
    own part starts with an underscore and is no special method."""
    own = name.rsplit(".", 1)[-1]
    return own.startswith("_") and not (own.startswith("__") and
                                        own.endswith("__"))


def _probe(fn, name, hints=NO_HINTS):
    # A private helper's contract is its callers': a fix may move a check
    # from it to them.  It is compared on the calls the tests made, never
    # on calls one change away.
    private = _private(name)

    def probe(*args, **kwargs):
        test = _test[0]
        if test is None or _inside[0] or (_own[0] and private) or \
                _sent[0] >= RECORDS_MAX or _over_budget(0):
            return fn(*args, **kwargs)
        seen = _kinds.setdefault((test, name), [])
        try:
            kind = (tuple(_kind(a) for a in args),
                    tuple(sorted((k, _kind(v)) for k, v in kwargs.items())),
                    _read_values(args, hints),
                    _constants_given(args, kwargs, hints))
        except Exception:
            return fn(*args, **kwargs)
        if kind in seen or len(seen) >= KINDS_PER_TEST:
            return fn(*args, **kwargs)
        if "." in name:
            _remember_arguments(name, args, kwargs)
        _remember_objects(args, kwargs)
        call = len(seen)
        seen.append(kind)
        _inside[0] += 1
        t0 = _clock()
        try:
            # The input as the test gave it: the engine compares a call
            # only where both sides' tests gave the same.
            given = {"args": summary(list(args)),
                     "kwargs": summary(dict(kwargs))}
        except Exception:
            given = None
        try:
            if not private:
                _run_variants(test, name, call, fn,
                              _variants(fn, args, kwargs, hints), t0,
                              (args, kwargs))
        finally:
            _spent[0] += _clock() - t0
            _inside[0] -= 1
        # What the test's own call prints, read from the streams without
        # replacing them, for the engine's rule that a variant's output
        # counts where the test's call prints alike on both sides.
        before = _stream_texts() if not private and (
            _memory_of(sys.stdout) is not None or
            _memory_of(sys.stderr) is not None) else None
        # A public changed function called inside this one is observed
        # too (a fix's helper whose other callers the tests do not reach:
        # the outer call may agree where the helper's result does not).
        _own[0] += 1
        try:
            value = fn(*args, **kwargs)
        except BaseException as exc:
            _own[0] -= 1
            _observe(test, name, call, "raise", exc, args, kwargs, given,
                     _printed_since(before))
            raise
        _own[0] -= 1
        _observe(test, name, call, "ok", value, args, kwargs, given,
                 _printed_since(before))
        return value
    return wrapper_like(probe, fn, name)


def _observe(test, name, call, status, value, args, kwargs, given,
             printed=None):
    t0 = _clock()
    try:
        out = _result(status, value, args, kwargs)
        if given is not None:
            out["in"] = given
        if printed is not None:
            out["printed"] = printed
        _send(test, name, call, 0, "as the test called it", out)
    except Exception:
        pass
    _spent[0] += _clock() - t0


_TRAMPOLINES = []  # the probes, by the index a function's new code names


def _swap_code(fn, name, hints):
    """Gives fn code that calls its probe, and the probe a copy of fn with
    its old code: a reference to fn taken before the run (a callback an
    option holds, a handler in a registry, a decorator's closure) reaches
    the probe too.  False for a closure (its cells fix its code's shape):
    then the names that hold fn are rebound instead."""
    if fn.__closure__ or not fn.__name__.isidentifier():
        return False
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):
        signature = None
    old = types.FunctionType(fn.__code__, fn.__globals__, fn.__name__,
                             fn.__defaults__)
    old.__kwdefaults__ = fn.__kwdefaults__
    old.__qualname__ = fn.__qualname__
    old.__module__ = fn.__module__
    source = ("def %s(*args, **kwargs):\n"
              "    return __litmus_probes__[%d](*args, **kwargs)\n"
              % (fn.__name__, len(_TRAMPOLINES)))
    module = compile(source, fn.__code__.co_filename, "exec")
    code = next(c for c in module.co_consts if isinstance(c, types.CodeType))
    _TRAMPOLINES.append(_probe(old, name, hints))
    fn.__globals__["__litmus_probes__"] = _TRAMPOLINES
    fn.__code__ = code
    if signature is not None:
        fn.__signature__ = signature
    return True


def install(spec, project_modules):
    """Wraps the functions either text of each file changes, in the
    module as this run has it.  spec: [{"module", "path", "reference",
    "candidate"}]."""
    # A repository's functions: a library's callers pass any iterable, a
    # mapping of their own, a callback that fails (litmus_inputs.variants).
    litmus_inputs.PACKAGE[0] = True
    for f in spec:
        _CHANGED_PATHS.add(f["path"])
        mod = sys.modules.get(f["module"])
        if mod is None:
            continue
        moved = {}
        hints = function_hints(f["path"], f["reference"], f["candidate"])
        for q in sorted(changed_functions(f["path"], f["reference"],
                                          f["candidate"])):
            owner, _, attr = q.rpartition(".")
            if attr in litmus_calls._NOT_CAPTURED:
                continue  # the object protocol's plumbing (a repr, the
                # state pickling keeps): each fix's own way of keeping it
            holder = mod
            for part in owner.split(".") if owner else ():
                holder = getattr(holder, part, None)
            if holder is None or not (holder is mod or
                                      isinstance(holder, type)):
                continue
            if holder is not mod:
                _CHANGED_METHODS.setdefault(holder, []).append(attr)
            raw = vars(holder).get(attr)
            if raw is None and holder is not mod:
                raw = _stand_in(holder, attr, f["path"])
            kind = type(raw)
            outer = getattr(raw, "__func__", raw)
            fn = litmus_calls.own_function(outer, f["path"])
            if fn is None:
                continue
            if _swap_code(fn, q, hints.get(q, NO_HINTS)):
                continue  # every reference to fn now calls the probe
            if fn is not outer:
                continue  # a decorated closure: its decorator would be lost
            w = _probe(fn, q, hints.get(q, NO_HINTS))
            if kind in (staticmethod, classmethod):
                w = kind(w)
            if holder is mod:
                moved[id(raw)] = w
                mod.__dict__[attr] = w
            else:
                setattr(holder, attr, w)
        for holder in {h for h in _CHANGED_METHODS
                       if getattr(h, "__module__", None) == mod.__name__}:
            _observe_class(holder)
        for m in project_modules:
            d = getattr(m, "__dict__", None)
            if m is mod or not isinstance(d, dict):
                continue
            for k, v in list(d.items()):
                if id(v) in moved:
                    d[k] = moved[id(v)]


# What Python does for an operator a class does not define, as the
# method that does it: where one fix defines the method (a membership
# test of its own) and the other leaves the operator to Python, the
# other side's calls are observed through this stand-in, with Python's
# own results.
_FALLBACKS = {
    "__contains__": "def __contains__(self, item):\n"
                    "    for x in self:\n"
                    "        if x is item or x == item:\n"
                    "            return True\n"
                    "    return False\n",
    "__ne__": "def __ne__(self, other):\n"
              "    r = self.__eq__(other)\n"
              "    return r if r is NotImplemented else not r\n",
    "__bool__": "def __bool__(self):\n"
                "    n = getattr(type(self), '__len__', None)\n"
                "    return True if n is None else n(self) != 0\n",
}


def _stand_in(cls, attr, path):
    """The stand-in for operator attr that class cls leaves to Python (no
    class of its MRO but object defines it), set on cls, compiled as the
    file at path (the probes observe that file's functions); None for
    another name or a class that defines it."""
    source = _FALLBACKS.get(attr)
    if source is None or any(attr in vars(c) for c in cls.__mro__[:-1]):
        return None
    space = {}
    exec(compile(source, path, "exec", dont_inherit=True), space)
    fn = space[attr]
    fn.__qualname__ = "%s.%s" % (cls.__qualname__, attr)
    fn.__module__ = cls.__module__
    try:
        setattr(cls, attr, fn)
    except (TypeError, AttributeError):
        return None  # a built-in or frozen class
    return fn


# The copy and pickle protocol's methods, watched like a class's other
# methods: a test that copies or pickles an object (a sentinel that must
# survive it) is often the only one that reaches the class.
_COPY_PROTOCOL = frozenset(("__reduce__", "__reduce_ex__", "__copy__",
                            "__deepcopy__", "__getstate__", "__setstate__"))


def _observe_class(cls):
    """The unchanged methods of a class that holds a changed method are
    watched too: after a test's first call of one, the changed methods
    are called on the receiver it leaves (each in a child; with the
    arguments of the tests' first call of it, for one that needs some),
    so that a part of a fix that no test calls is compared on the
    objects the tests built (a method's default the fix now honours)."""
    changed = set(_CHANGED_METHODS.get(cls, ()))
    if not any(isinstance(vars(cls).get(m), types.FunctionType)
               for m in changed):
        return
    for attr, raw in list(vars(cls).items()):
        if attr in changed or not isinstance(raw, types.FunctionType) or \
                attr in litmus_calls._NOT_CAPTURED and \
                attr not in _COPY_PROTOCOL or \
                attr.startswith("__") and attr != "__init__" and \
                attr not in _COPY_PROTOCOL:
            continue
        setattr(cls, attr, _observer(raw, "%s.%s" % (cls.__qualname__,
                                                      attr), cls))


_BUILT = {}     # id(object) -> (weak reference, class, args, kwargs) of
# a test's construction of an object of a class that holds a changed
# method, with a plain argument to vary (_rebuilt_receiver)
BUILT_MAX = 2000


def _remember_construction(cls, args, kwargs):
    """Keeps how a test built a receiver of cls (its constructor's
    arguments beyond it) when one of them is a plain value, so that a
    changed method the test calls on it with arguments no child can
    rebuild (a context) is also called on its neighbours."""
    receiver, rest = args[0], tuple(args[1:])
    if type(receiver) is not cls or \
            not any(_rebuildable(v) for v in rest + tuple(kwargs.values())):
        return
    if len(_BUILT) >= BUILT_MAX:
        for k in [k for k, b in _BUILT.items() if b[0]() is None]:
            del _BUILT[k]
        if len(_BUILT) >= BUILT_MAX:
            return
    try:
        # Never a strong reference to an object the test made: a test
        # that checks it is collected must still see it go.
        _BUILT[id(receiver)] = (weakref.ref(receiver), cls,
                                tuple(_kept(v) for v in rest),
                                {k: _kept(v) for k, v in kwargs.items()})
    except TypeError:
        pass    # no weak reference to it: not kept


def _rebuildable(v):
    return type(v) in (bool, int, float, str)


def _kept(v):
    """A constructor argument as _BUILT keeps it: a plain value or a
    small container of them as it is, another object through a weak
    reference (TypeError where it has none)."""
    if v is None or _rebuildable(v) or \
            type(v) in (tuple, list, frozenset) and len(v) <= 16 and \
            all(x is None or _rebuildable(x) for x in v):
        copy = type(v)(v) if type(v) is list else v  # the test may change it
        return lambda: copy
    return weakref.ref(v)


def _construction(receiver):
    built = _BUILT.get(id(receiver))
    if built is None or built[0]() is not receiver:
        return None
    cls, rest, kept = built[1:]
    values = []
    for r in rest + tuple(kept.values()):
        v = r()
        if v is None and isinstance(r, weakref.ref):
            return None     # an argument the test let go
        values.append(v)
    return cls, tuple(values[:len(rest)]), dict(zip(kept, values[len(rest):]))


def _rebuilt_receiver(fn, args, kwargs, hints):
    """The call made on receivers built again with one plain constructor
    argument one change away (_rebuilt_calls), where the test built the
    receiver itself: a fix for the object the test checked leaves its
    neighbours as they were."""
    built = _construction(args[0])
    if built is None:
        return []
    cls, cargs, ckw = built
    what = "then self.%s(%s)" % (getattr(fn, "__name__", "?"),
                                 _shown(args[1:], kwargs, args[0]))
    calls = [(what, fn, tuple(args), dict(kwargs), None)]
    return _rebuilt_calls(cls, (args[0],) + cargs, ckw, calls, hints)


def _observer(fn, name, cls):
    def observer(*args, **kwargs):
        value = fn(*args, **kwargs)
        test = _test[0]
        if fn.__name__ == "__init__" and test is not None and \
                not _inside[0] and not _own[0] and args:
            _remember_construction(cls, args, kwargs)
        if test is None or _inside[0] or _own[0] or not args or \
                not isinstance(args[0], cls) or \
                _sent[0] >= RECORDS_MAX or _over_budget(0) or \
                (test, name) in _kinds or \
                _watched[0] >= WATCHED_SHARE * SPENT_MAX or \
                _watched[1] >= WATCHED_SHARE * RECORDS_MAX:
            return value
        _kinds[(test, name)] = True
        calls = _sibling_calls(fn, args[0])
        if fn.__name__ == "__init__" and calls:
            calls += _rebuilt_calls(cls, args, kwargs, calls)
        if not calls:
            return value
        _inside[0] += 1
        t0 = _clock()
        sent = _sent[0]
        try:
            # The receiver as the call left it is the input the engine
            # compares the calls on (the same on both sides, or none).
            given = {"args": summary([args[0]]), "kwargs": {}}
            _send(test, name, 0, 0, "as the test left it",
                  {"value": None, "args": given["args"], "in": given})
            _run_variants(test, name, 0, fn, calls, t0)
        finally:
            _spent[0] += _clock() - t0
            _watched[0] += _clock() - t0
            _watched[1] += _sent[0] - sent
            _inside[0] -= 1
        return value
    return wrapper_like(observer, fn, name)


def begin_test(index):
    _test[0] = index


def end_test():
    _test[0] = None
