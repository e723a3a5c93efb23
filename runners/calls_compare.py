# The comparison of two sides' answers (a reference fix's and a
# candidate's): values, exceptions, and the globals and arguments a call
# changed.  Compiled into the litmus binary as litmus_calls_compare.
# SPDX-License-Identifier: MIT
import copy
import itertools
import math
import types

import litmus_inputs
from litmus_calls_values import (
    _MAPPINGS, _NO_STATE, _NUMBERS, _PACKAGE, _PLAIN, _SETS, _short_repr,
    _state, without_addresses)


# --- comparison ----------------------------------------------------------
#
# Results are compared with the equality the tests use, `==`: an int and
# an equal float, True and 1, are equal, as `assert f(x) == 3` finds them.
# Such a difference in type alone is reported (a note), never a witness.
# Two floats are equal up to rounding; objects of the program's classes
# (loaded twice, once per side) compare by class name and attributes.
# `==` across types is used only between the standard library's numbers,
# sets and mappings: a candidate's own class could claim equality with
# anything through a reflected __eq__.


def _type_text(v):
    return "%s %s" % (type(v).__name__, _short_repr(v)[:60])


_SEEN = [None]  # the pairs of one comparison, with the objects kept alive

# id -> name of each side's module-level object whose state differs from
# the other side's object of the same name before any call (a command
# whose option the fix made eager, where the patch orders them itself):
# the module's text made them apart, not a call.
_APART = {}
_DEFINITIONS = (type, types.ModuleType, types.FunctionType,
                types.BuiltinFunctionType, types.MethodType)


def note_apart(ref, cand):
    """Finds the module-level objects (not functions, classes or modules)
    that the two sides' modules ref and cand build differently at import.
    A call that hands one on (a group that registers the command) is
    compared by what the code does with it, not by how each text built
    it."""
    _APART.clear()
    rv, cv = vars(ref), vars(cand)
    for k in sorted(rv.keys() & cv.keys()):
        a, b = rv[k], cv[k]
        if k.startswith("__") or a is b or type(a) in _PLAIN or \
                type(a) is float or isinstance(a, _DEFINITIONS):
            continue
        try:
            same = compare(a, b)[0]
        except Exception:
            same = False
        if not same:
            _APART[id(a)] = _APART[id(b)] = k


def compare(a, b, depth=0):
    """(equal, type_difference): equal as the tests' `==` finds them; the
    second is None, or the first place where the two differ in type only
    ("int 3 vs float 3.0")."""
    if depth == 0:
        saved, _SEEN[0] = _SEEN[0], {}
        try:
            return _compare(a, b, 0)
        finally:
            _SEEN[0] = saved
    return _compare(a, b, depth)


def _compare(a, b, depth):
    if depth > 50:
        return True, None
    ta, tb = type(a), type(b)
    if isinstance(a, type) and isinstance(b, type):
        # A class is its name: each side loads the changed file's classes
        # once (a metaclass's method gets its side's own class).
        return a is b or (a.__qualname__ == b.__qualname__ and
                          a.__module__ == b.__module__), None
    if ta not in _PLAIN and ta is not float:
        if a is not b and id(a) in _APART and \
                _APART[id(a)] == _APART.get(id(b)):
            return True, None   # each side's own module-level object
        # A pair met again (a graph, an object and its inverse that hold
        # each other): compared once, or a shared structure would be
        # compared once per path, exponentially many.
        key = (id(a), id(b))
        if key in _SEEN[0]:
            return True, None
        _SEEN[0][key] = (a, b)
    if ta is not tb:
        # The same class of each side's copy of the program: compared by
        # state, its __dict__ and its __slots__.
        if (ta.__qualname__ == tb.__qualname__ and
                ta.__module__ == tb.__module__) or _subclass_added(ta, tb):
            # One class of the program, loaded once per side, or a class
            # and a subclass of it that one fix adds (a command class of
            # its own where the other registers the base's): compared by
            # state, its __dict__ and its __slots__; what the subclass's
            # methods do shows through them.
            sa, sb = _state(a), _state(b)
            if sa is not None and sb is not None:
                # A subclass of a built-in container (a dict that keeps
                # its inverse): its items are a part of its value.
                for base in (dict, list, tuple, set, frozenset):
                    if isinstance(a, base) and isinstance(b, base):
                        plain = dict if base is dict else \
                            list if base in (list, tuple) else set
                        eq, note = compare(plain(a), plain(b), depth + 1)
                        if not eq:
                            return eq, note
                        break
                # How a fix stores its state is its own: an attribute
                # under another name (self.old against self._saved), or
                # of another type under the same name (a stack as a list
                # where the other keeps None and chains tuples), says
                # nothing of its behaviour, which shows through the
                # methods; the attributes both keep as the same type of
                # value are compared.
                common = [k for k in sa.keys() & sb.keys()
                          if type(sa[k]).__name__ == type(sb[k]).__name__]
                if len(common) != len(sa) or len(common) != len(sb):
                    sa = {k: sa[k] for k in common}
                    sb = {k: sb[k] for k in common}
                return compare(sa, sb, depth + 1)
            if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)):
                return _compare_seq(a, b, depth)    # a namedtuple
            return False, None
        if ta in _NUMBERS and tb in _NUMBERS:
            # Exact across types, as Python's == (no rounding tolerance:
            # a float that has lost an int's low digits is a difference).
            try:
                eq = bool(a == b)
            except Exception:
                eq = False
            return eq, ("%s vs %s" % (_type_text(a), _type_text(b))
                        if eq else None)
        if (ta in _SETS and tb in _SETS) or \
                (ta in _MAPPINGS and tb in _MAPPINGS):
            eq, note = compare(_plain_container(a), _plain_container(b),
                               depth + 1)
            if eq and note is None:
                note = "%s vs %s" % (ta.__name__, tb.__name__)
            return eq, note
        return False, None
    if ta is complex:
        # Part by part, as floats: NaN parts alike, rounding forgiven.
        return (compare(a.real, b.real, depth + 1)[0] and
                compare(a.imag, b.imag, depth + 1)[0]), None
    if ta in _PLAIN:
        return a == b, None
    if ta is float:
        # Rounding differs between equal formulas ((a + b) + c and
        # a + (b + c)): a difference in the last bits is not a witness.
        return (a == b or (a != a and b != b) or
                math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)), None
    if ta in (list, tuple):
        return _compare_seq(a, b, depth)
    if ta in _MAPPINGS:
        # A mapping of each side's objects (an OrderedDict of commands):
        # item by item, as for a dict; an OrderedDict's order is a part
        # of its equality.
        if len(a) != len(b):
            return False, None
        if ta is not dict and hasattr(a, "move_to_end") and \
                list(a) != list(b) and set(a) == set(b):
            return False, None
        keys = _counterparts(a, b, depth)
        if keys is None:
            return False, None
        note = None
        for k, kb in keys:
            eq, n = compare(a[k], b[kb], depth + 1)
            if not eq:
                return False, None
            note = note or n
        return True, note
    if ta in _SETS:
        if len(a) != len(b):
            return False, None
        return a == b or _counterparts(a, b, depth) is not None, None
    if ta is litmus_inputs.Endless:
        # An endless input, after the call: how far each side read it is
        # how lazily, not what, it computes.
        return tb is ta and a.items == b.items, None
    if isinstance(a, types.GeneratorType) or hasattr(ta, "__next__"):
        # An iterator that cannot be read (a closed file the tests
        # passed) compares by what reading it raises.
        def drain(it):
            try:
                return list(itertools.islice(it, 100000))
            except Exception as exc:
                return ("<raises>", type(exc).__name__)
        return compare(drain(a), drain(b), depth + 1)
    if ta in (types.BuiltinMethodType, types.MethodType):
        # A bound method each side got a copy of ([3, 2, 1].pop): the
        # same method of equal objects.
        if getattr(a, "__name__", None) != getattr(b, "__name__", None):
            return False, None
        return compare(getattr(a, "__self__", None),
                       getattr(b, "__self__", None), depth + 1)
    if ta is types.FunctionType:
        # A function a program makes or copies (a wrapper, a copy of the
        # tests' lambda): the same name, defaults and attributes.
        if a.__qualname__ != b.__qualname__:
            return False, None
        return compare((a.__defaults__, a.__kwdefaults__, vars(a)),
                       (b.__defaults__, b.__kwdefaults__, vars(b)),
                       depth + 1)
    if _PACKAGE[0] and ta.__eq__ is object.__eq__:
        # A repository candidate: one class on both sides is the
        # package's or a library's, not the changed file's.  Their
        # objects hold framework state (functions, registries, caches)
        # that no test compares: their plain attributes and a repr of
        # their own are.
        return _shallow_same(a, b), None
    if hasattr(a, "__dict__") and hasattr(b, "__dict__") and \
            ta.__eq__ is object.__eq__:
        return compare(vars(a), vars(b), depth + 1)
    try:
        eq = bool(a == b)
    except Exception:
        return False, None
    if not eq and _equal_to_itself_only(a) and \
            isinstance(getattr(a, "__dict__", None), dict) and \
            isinstance(getattr(b, "__dict__", None), dict):
        # An __eq__ that falls back on identity for this object (a Django
        # model instance without a primary key): each side's copy of it is
        # compared by its state.
        return compare(vars(a), vars(b), depth + 1)
    return eq, None


def difference(a, b, path="", depth=0):
    """Where compare first finds a and b unequal: (path, a's part, b's
    part); path is "" when the difference is a and b themselves, else
    "[i]" an item, "[k]" a key, ".name" an attribute."""
    if depth > 20:
        return path, a, b
    ta, tb = type(a), type(b)
    pairs = ()
    if ta in (list, tuple) and tb in (list, tuple) and len(a) == len(b):
        pairs = (("[%d]" % i, x, y) for i, (x, y) in enumerate(zip(a, b)))
    elif ta in _MAPPINGS and tb in _MAPPINGS and a.keys() == b.keys():
        pairs = (("[%s]" % _short_repr(k)[:40], a[k], b[k]) for k in a)
    elif not isinstance(a, type) and (
            (ta is not tb and ((ta.__qualname__ == tb.__qualname__ and
                                ta.__module__ == tb.__module__) or
                               _subclass_added(ta, tb))) or
            (ta is tb and ta.__eq__ is object.__eq__)):
        sa, sb = _state(a), _state(b)
        if sa is not None and sb is not None:
            pairs = (("." + k, sa[k], sb[k]) for k in sorted(
                sa.keys() & sb.keys(), key=str)
                if type(sa[k]).__name__ == type(sb[k]).__name__)
    for step, x, y in pairs:
        if not same(x, y):
            return difference(x, y, path + step, depth + 1)
    return path, a, b


def _subclass_added(ta, tb):
    """Whether one of two classes of the program subclasses the other (or
    the other side's copy of it)."""
    if "builtins" in (ta.__module__, tb.__module__):
        return False

    def under(sub, base):
        return any(c.__qualname__ == base.__qualname__ and
                   c.__module__ == base.__module__
                   for c in getattr(sub, "__mro__", ())[1:])
    return under(ta, tb) or under(tb, ta)


MATCH_MAX = 200   # elements matched one by one, at most


def _counterparts(a, b, depth):
    """(x, y) for each element (or key) x of a: y is x where b holds it,
    else the first element of b left that compares equal to it by state
    (the program's objects, each side's own class, which hash and compare
    as that class: a set of symbols).  None when one has no match."""
    rest = [y for y in b if y not in a][:MATCH_MAX]
    out = []
    for x in a:
        if x in b:
            out.append((x, x))
            continue
        for i, y in enumerate(rest):
            if compare(x, y, depth + 1)[0]:
                out.append((x, rest.pop(i)))
                break
        else:
            return None
    return out


def _equal_to_itself_only(v):
    """Whether v's own __eq__ finds a copy of it unequal: it compares
    this object by identity."""
    try:
        return not bool(copy.copy(v) == v)
    except Exception:
        return False


def _plain_container(v):
    if isinstance(v, _SETS):
        return set(v)
    return dict(v)


def _compare_seq(a, b, depth):
    if len(a) != len(b):
        return False, None
    note = None
    for x, y in zip(a, b):
        eq, n = compare(x, y, depth + 1)
        if not eq:
            return False, None
        note = note or n
    return True, note


def same(a, b):
    """Whether the tests' `==` finds a and b equal (see compare)."""
    return compare(a, b)[0]


def _plain(v):
    return type(v) in _PLAIN or type(v) is float or \
        (type(v) in (list, tuple) and len(v) < 100 and
         all(type(x) in _PLAIN for x in v))


def _shallow_same(a, b):
    """Objects of one class from outside the changed file: equal when
    their plain attributes are and their own reprs (addresses left out)
    are."""
    if type(a).__repr__ is not object.__repr__:
        try:
            if without_addresses(repr(a)) != without_addresses(repr(b)):
                return False
        except Exception:
            pass
    sa, sb = _state(a) or {}, _state(b) or {}
    pa = {k: v for k, v in sa.items() if _plain(v)}
    pb = {k: v for k, v in sb.items() if _plain(v)}
    return pa.keys() == pb.keys() and all(same(pa[k], pb[k]) for k in pa)


def _globals_view(mod):
    """What a call can leave in a module besides its result: the module's
    plain values (a flag, a counter) and the plain attributes of the
    objects of its own classes it holds (a settings object), by dotted
    name.  A repository file only: a call's effect there is what the
    code after it sees (sympy's `with evaluate(False):`)."""
    view = {}
    name = getattr(mod, "__name__", None)
    for k, v in list(vars(mod).items()):
        if k.startswith("__"):
            continue
        t = type(v)
        if t in _PLAIN or t is float:
            view[k] = v
        elif t.__module__ == name and not isinstance(v, type) and \
                not callable(v):
            st = _state(v)
            for a, x in (st or {}).items():
                if type(x) in _PLAIN or type(x) is float:
                    view["%s.%s" % (k, a)] = x
    return view


def _restore_globals(mod, view):
    """Puts back the entries of a _globals_view of mod (those it has
    still): plain module values, and plain attributes of its objects,
    set past their own __setattr__ where they define one."""
    d = vars(mod)
    for k, v in view.items():
        name, _, attr = k.partition(".")
        if not attr:
            if type(d.get(name)) in _PLAIN or type(d.get(name)) is float:
                d[name] = v
            continue
        obj = d.get(name)
        if obj is None:
            continue
        try:
            state = getattr(obj, "__dict__", None)
            if isinstance(state, dict) and attr in state:
                state[attr] = v
            else:
                object.__setattr__(obj, attr, v)
        except Exception:
            pass


def _globals_delta(before, after):
    """The entries a call changed: {name: (old, new)}."""
    out = {}
    for k in set(before) | set(after):
        a, b = before.get(k, _NO_STATE), after.get(k, _NO_STATE)
        if a is b or (type(a) is type(b) and a == b):
            continue
        out[k] = (a, b)
    return out


def _same_delta(dr, dc):
    """Whether two calls changed their modules alike: the same entries to
    the same values; an entry of another type of value on each side is
    each fix's own (as for objects' attributes)."""
    for k in set(dr) | set(dc):
        if k not in dr or k not in dc:
            # Changed on one side only: a difference, unless the entry is
            # one the other side does not keep at all.
            if (dr.get(k) or dc.get(k))[0] is _NO_STATE:
                continue
            return False
        (ra, rb), (ca, cb) = dr[k], dc[k]
        if type(rb) is not type(cb):
            continue
        if not compare(rb, cb)[0]:
            return False
    return True


def _foreign_state(exc, args):
    """Whether exc is the candidate reading an attribute that an object
    of its arguments lacks because the reference made it (the receiver a
    test's call was recorded with, rebuilt from the reference's state): a
    fix that keeps its state under other names (self._saved for
    self.old) is not wrong for that; its own objects would have it."""
    obj = getattr(exc, "obj", None) if isinstance(exc, AttributeError) \
        else None
    name = getattr(exc, "name", None)
    if obj is None or not isinstance(name, str) or \
            not any(obj is a for a in args):
        return False
    state = _state(obj)
    return state is not None and name not in state and \
        not hasattr(type(obj), name)
