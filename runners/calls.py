# Call evaluation in a litmus child: capture of the calls tests make into
# the subject, differential testing of a candidate against a reference
# fix, and evaluation of call expressions on a program (datasets).  Runs
# in the embedded interpreter of a zygote, imported once before the
# zygote forks; everything here runs in a sandboxed child.  Results leave
# through `_litmus` frames only.  SPDX-License-Identifier: MIT
import base64
import copy
import heapq
import itertools
import json
import math
import pickle
import signal
import sys
import threading
import time
import types

import _litmus
import litmus_inputs

REPR_MAX = 2000


class CallTimeout(BaseException):
    """Raised by the CPU timer inside a call that ran too long."""


_TIMER_ARMED = [False]


def _on_timer(signum, frame):
    # A timer that fires as the call returns must not raise outside it.
    if _TIMER_ARMED[0]:
        raise CallTimeout()


def _timed(fn, seconds):
    """(status, value): status "ok", "raise" or "timeout"."""
    signal.signal(signal.SIGPROF, _on_timer)
    _TIMER_ARMED[0] = True
    signal.setitimer(signal.ITIMER_PROF, max(seconds, 0.001))
    try:
        try:
            return "ok", fn()
        finally:
            _TIMER_ARMED[0] = False
            signal.setitimer(signal.ITIMER_PROF, 0)
    except CallTimeout:
        return "timeout", None
    except RecursionError as exc:
        return "raise", exc
    except Exception as exc:
        return "raise", exc
    except (SystemExit, KeyboardInterrupt) as exc:
        # A package's function may end a command (click's ctx.exit(),
        # sys.exit in a CLI helper): an outcome both sides are compared
        # on.  A single file's candidate exiting is tampering.
        if _PACKAGE[0]:
            return "raise", exc
        raise


def _short_repr(v):
    try:
        r = repr(v)
    except BaseException as exc:  # a hostile __repr__
        r = "<unrepresentable %s: %s>" % (type(v).__name__,
                                          type(exc).__name__)
    return _clip(r)


def _clip(text):
    return text if len(text) <= REPR_MAX else text[:REPR_MAX] + "..."


def _jsonable(v, depth=0):
    """The value as JSON data when it is plain data, else raises."""
    if depth > 20:
        raise ValueError("too deep")
    if type(v) is int and abs(v) >= 2 ** 63:
        raise ValueError("beyond a 64-bit integer")  # the engine's JSON
    if v is None or type(v) in (bool, int, str):
        return v
    if type(v) is float:
        if v != v or v in (float("inf"), float("-inf")):
            raise ValueError("not finite")
        return v
    if type(v) in (list, tuple):
        return [_jsonable(x, depth + 1) for x in v]
    if type(v) is dict and all(type(k) is str for k in v):
        return {k: _jsonable(x, depth + 1) for k, x in v.items()}
    raise ValueError("not JSON data")


def _as_json(v):
    try:
        data = _jsonable(v)
        text = json.dumps(data)
        return data if len(text) <= REPR_MAX else None
    except (ValueError, RecursionError):
        return None


def _outcome(status, value):
    if status == "timeout":
        return {"timeout": True}
    if status == "raise":
        out = {"exception": type(value).__name__,
               "repr": _short_repr(value)}
        n = getattr(value, "items_before", None)
        if n is not None:
            out["items_before"] = n
        return out
    return {"value": _as_json(value), "repr": _short_repr(value),
            "type": type(value).__name__}


# --- capture -------------------------------------------------------------

_depth = [0]
_captured = set()
CAPTURE_MAX = 5000


def _rebuild_function(code, module, name, defaults, kwdefaults, cells):
    """A function _dumps pickled by its code: its globals are those of its
    module, which the zygote the calls are replayed in imported too."""
    import marshal
    mod = sys.modules.get(module)
    glob = mod.__dict__ if mod is not None else {"__builtins__": __builtins__}
    closure = tuple(types.CellType(v) for v in cells) if cells else None
    f = types.FunctionType(marshal.loads(code), glob, name, defaults, closure)
    f.__kwdefaults__ = kwdefaults
    return f


class _CallPickler(pickle.Pickler):
    """Pickles the functions the tests pass that pickle cannot find by
    name (a lambda, a function defined inside a test) by their code."""

    def reducer_override(self, obj):
        if isinstance(obj, type) and obj.__module__ == _SIDE_MODULE[0]:
            # A class of the changed file, whichever side's: by name, and
            # each side's unpickler takes its own (_SideUnpickler).
            return (_side_class, (obj.__module__, obj.__qualname__))
        named = _SIDE_OBJECTS.get(id(obj))
        if named is not None and named[2] is obj:
            # Another global of a side's module (a sentinel, a function,
            # a shared instance): by name too.
            return (_side_class, named[:2])
        fresh = _fresh_kind(obj)
        if fresh is not None:
            return fresh
        container = _container_reduce(obj)
        if container is not None:
            return container
        if type(obj) is not types.FunctionType:
            return NotImplemented
        qual = getattr(obj, "__qualname__", "")
        mod = sys.modules.get(getattr(obj, "__module__", None) or "")
        if "<" not in qual and mod is not None and \
                getattr(mod, qual, None) is obj:
            return NotImplemented  # found by name, as pickle does
        import marshal
        try:
            cells = tuple(c.cell_contents for c in (obj.__closure__ or ()))
        except ValueError:  # an empty cell
            return NotImplemented
        return (_rebuild_function,
                (marshal.dumps(obj.__code__), obj.__module__, obj.__name__,
                 obj.__defaults__, obj.__kwdefaults__, cells))


_SIDE_MODULE = [None]  # the changed file's module name, in a diff run
_SIDE_OBJECTS = {}     # id -> (module, name, object) of the sides' globals


def _name_side_globals(*mods):
    """Registers the globals of each side's modules that pickle cannot
    find by name (they are not the zygote's)."""
    _SIDE_OBJECTS.clear()
    for m in mods:
        for k, v in vars(m).items():
            if k.startswith("__") or type(v) in _PLAIN or \
                    type(v) in (float, list, tuple, dict, set) or \
                    isinstance(v, (type, types.ModuleType)):
                continue
            _SIDE_OBJECTS.setdefault(id(v), (m.__name__, k, v))


def _container_reduce(obj):
    """A subclass of dict, list or set pickled the default way sends its
    items before its attributes: a __setitem__ of its own then runs on an
    object without them (an LRU cache's lock).  Rebuilt here attributes
    first, items through the built-in type's own methods; None for every
    other object and for a class that pickles itself."""
    t = type(obj)
    for base in (dict, list, set):
        if isinstance(obj, base) and t is not base:
            break
    else:
        return None
    for name in ("__reduce__", "__reduce_ex__", "__getstate__",
                 "__getnewargs__", "__getnewargs_ex__"):
        if getattr(t, name, None) is not getattr(base, name, None):
            return None
    state = _state(obj) or {}
    items = list(dict.items(obj)) if base is dict else \
        list(base.__iter__(obj))
    # The object is made first and filled by a state setter, as pickle
    # fills any object: a cycle through it (a mapping and its inverse)
    # then pickles.
    return (_new_container, (t, base.__name__), (state, items), None, None,
            _fill_container)


def _new_container(cls, base_name):
    return {"dict": dict, "list": list, "set": set}[base_name].__new__(cls)


def _fill_container(obj, state):
    attrs, items = state
    for k, v in attrs.items():
        object.__setattr__(obj, k, v)
    if isinstance(obj, dict):
        dict.update(obj, items)
    elif isinstance(obj, list):
        list.extend(obj, items)
    else:
        set.update(obj, items)


_LOCK, _RLOCK = type(threading.Lock()), type(threading.RLock())


def _fresh_kind(obj):
    """How to rebuild what pickle refuses but an object of a library
    commonly holds: a lock (a new one, released: the calls are recorded
    before they run) and a module (imported by name); else None."""
    t = type(obj)
    if t is _LOCK:
        return (threading.Lock, ())
    if t is _RLOCK:
        return (threading.RLock, ())
    if isinstance(obj, types.ModuleType) and \
            sys.modules.get(obj.__name__) is obj:
        import importlib
        return (importlib.import_module, (obj.__name__,))
    return None


def _attr_path(root, qualname, default=None):
    """root.a.b for qualname "a.b", or default."""
    v = root
    for part in qualname.split("."):
        v = getattr(v, part, _MISSING)
        if v is _MISSING:
            return default
    return v


def _side_class(module, qualname):
    """A class pickled by _CallPickler as the changed file's, found where
    no side is chosen (the zygote's copy of the module)."""
    v = _attr_path(sys.modules[module], qualname, _MISSING)
    if v is _MISSING:
        raise pickle.UnpicklingError("no %s in %s" % (qualname, module))
    return v


def _dumps(value):
    import io
    buf = io.BytesIO()
    _CallPickler(buf, protocol=4).dump(value)
    return buf.getvalue()


_per_function = {}  # name -> calls captured
_PER_FUNCTION = [0]  # at most this many per function; 0: no such cap


def _wrap(fn, name, cls=None):
    def capture(*args, **kwargs):
        made_by = None
        if cls is not None and _depth[0] == 0 and args and \
                type(args[0]) is cls:
            made_by = _sequence_step(cls, name, args, kwargs)
        if _depth[0] == 0 and len(_captured) < CAPTURE_MAX and \
                (not _PER_FUNCTION[0] or
                 _per_function.get(name, 0) < _PER_FUNCTION[0]):
            # Pickling may call the program's own methods (a receiver's
            # __reduce_ex__, __getstate__): not calls of the tests.
            _depth[0] += 1
            try:
                blob = base64.b64encode(_dumps(
                    (name, args, kwargs) if made_by is None
                    else (name, (made_by,) + args[1:], kwargs))).decode()
            except Exception:
                blob = None
            finally:
                _depth[0] -= 1
            if blob and blob not in _captured:
                _captured.add(blob)
                _per_function[name] = _per_function.get(name, 0) + 1
                _litmus.send_call(blob)
        _depth[0] += 1
        try:
            return fn(*args, **kwargs)
        finally:
            _depth[0] -= 1
    capture.__wrapped__ = fn
    capture.__name__ = getattr(fn, "__name__", name)
    capture.__qualname__ = getattr(fn, "__qualname__", name)
    return capture


# Calls on one object: a test makes an object of the changed file's
# classes and calls its methods in turn.  A method's call is replayed on
# an object each side builds itself, by the recorded __init__ and the
# calls before this one (its prefix): the reference's object as the tests
# had it, and the candidate's as its own code makes it, so a fix that
# keeps its state otherwise (a stack where the reference keeps a list)
# is judged on what its methods return, not on the reference's state.
SEQ_STEPS_MAX = 12      # calls of a prefix; later calls replay the state
SEQ_OBJECTS_MAX = 200   # objects followed in one run
_sequences = {}         # id(obj) -> (obj, [(method, pickled args), ...])


class _Receiver:
    """A method's receiver as the calls that made it: built anew on each
    side (`build`)."""

    __slots__ = ("cls_name", "steps")

    def __init__(self, cls_name, steps):
        self.cls_name = cls_name
        self.steps = steps

    def __reduce__(self):
        return (_Receiver, (self.cls_name, self.steps))

    def __repr__(self):
        parts = []
        for meth, data in self.steps:
            try:
                a, k = pickle.loads(data)
                text = ", ".join([_short_repr(x) for x in a] +
                                 ["%s=%s" % (n, _short_repr(x))
                                  for n, x in k.items()])
            except Exception:
                text = "..."
            parts.append("%s(%s)" % (self.cls_name if not parts
                                     else "." + meth, text))
        return "; ".join(parts)

    def litmus_variants(self, vary):
        """Receivers one change away (litmus_inputs.variants): a call's
        argument varied (the constructor's first), or a later call left
        out."""
        out = []
        try:
            steps = [(m, pickle.loads(d)) for m, d in self.steps]
        except Exception:
            return out
        for i, (meth, (a, k)) in enumerate(steps[:3]):
            for j, x in enumerate(a[:4]):
                for nx in vary(x)[:8]:
                    try:
                        data = _dumps((a[:j] + (nx,) + a[j + 1:], k))
                    except Exception:
                        continue
                    out.append(_Receiver(self.cls_name,
                                         self.steps[:i] + [(meth, data)] +
                                         self.steps[i + 1:]))
        for i in range(1, len(self.steps)):
            out.append(_Receiver(self.cls_name,
                                 self.steps[:i] + self.steps[i + 1:]))
        return out

    def decode(self, side):
        """The steps' arguments as this side's objects; raises when its
        classes cannot rebuild them (a fix of pickling itself): no
        input for this side, as for any argument."""
        return [(meth,) + tuple(_SideUnpickler(data, side).load())
                for meth, data in self.steps]

    def build(self, side, decoded):
        """This side's object: its class called as the first step did,
        then each later step's method; what they return or raise is the
        earlier calls' business (each is compared as its own input)."""
        cls = getattr(side, self.cls_name, None)
        obj = None
        for meth, a, k in decoded:
            if obj is None:
                obj = cls(*a, **k)
                continue
            fn = _method_of(side, "%s.%s" % (self.cls_name, meth))
            try:
                _force(fn(obj, *a, **k) if fn is not None
                       else getattr(obj, meth)(*a, **k))
            except Exception:
                pass
        return obj


def _sequence_step(cls, name, args, kwargs):
    """Records an outermost call on an object of a changed class; the
    calls that made the object before this one (a _Receiver), or None
    when it is not followed (made before the capture, or past
    SEQ_STEPS_MAX calls)."""
    obj, meth = args[0], name.rpartition(".")[2]
    if meth == "__init__":
        if len(_sequences) < SEQ_OBJECTS_MAX:
            _sequences[id(obj)] = (obj, [])
        seq = _sequences.get(id(obj))
        if seq is None or seq[0] is not obj:
            return None
    else:
        seq = _sequences.get(id(obj))
        if seq is None or seq[0] is not obj or not seq[1] or \
                len(seq[1]) >= SEQ_STEPS_MAX:
            return None
    before = list(seq[1])
    _depth[0] += 1
    try:
        seq[1].append((meth, _dumps((args[1:], kwargs))))
    except Exception:
        # Arguments that cannot be pickled: the object is not followed.
        _sequences.pop(id(obj), None)
        return None
    finally:
        _depth[0] -= 1
    return _Receiver(cls.__qualname__, before) if before else None


# Methods whose calls are the object protocol's plumbing (pickling,
# attribute access, printing), not the behaviour a test asks for; wrapping
# some of them (__new__, __getattribute__) would change how the class works.
_NOT_CAPTURED = frozenset((
    "__new__", "__init_subclass__", "__class_getitem__", "__subclasshook__",
    "__set_name__", "__del__", "__getattr__", "__getattribute__",
    "__setattr__", "__delattr__", "__dir__", "__repr__", "__str__",
    "__format__", "__hash__", "__sizeof__", "__reduce__", "__reduce_ex__",
    "__getstate__", "__setstate__", "__getnewargs__", "__getnewargs_ex__",
    "__copy__", "__deepcopy__"))


def _wrap_methods(cls, cls_name, path):
    """Wraps the methods a class of the changed file defines (plain, static
    and class methods) as "Class.method": a repository fix is most often
    a method's.  The receiver (or the class) is the first argument."""
    for name, value in list(vars(cls).items()):
        if name in _NOT_CAPTURED:
            continue
        kind = type(value)
        fn = _function_of(value)
        if not isinstance(fn, types.FunctionType) or \
                fn.__code__.co_filename != path:
            continue
        w = _wrap(fn, "%s.%s" % (cls_name, name), cls)
        try:
            setattr(cls, name, kind(w) if kind is not types.FunctionType
                    else w)
        except (TypeError, AttributeError):
            pass  # a class that refuses new attributes


def _method_of(mod, fname):
    """The plain function a captured "Class.method" name calls on one
    side, or None."""
    cls_name, _, meth = fname.partition(".")
    cls = getattr(mod, cls_name, None)
    if not isinstance(cls, type):
        return None
    value = _function_of(vars(cls).get(meth))
    return value if isinstance(value, types.FunctionType) else None


def _function_of(value):
    """The function a class attribute holds: a static or class method's
    own, else the value itself."""
    if isinstance(value, (staticmethod, classmethod)):
        return value.__func__
    return value


def _side_function(mod, fname):
    if fname.endswith("." + _COPY):
        return copy.deepcopy
    if "." in fname:
        return _method_of(mod, fname)
    return getattr(mod, fname, None)


# A class whose copying or pickling methods change is compared on deep
# copies of the objects the tests made ("Class.<copy>"): deepcopy runs
# the same __reduce_ex__, __getstate__ and __setstate__ that pickle does,
# without looking the class up by name (each side's class is its own).
_COPY = "<copy>"
_COPY_METHODS = ("__reduce__", "__reduce_ex__", "__getstate__",
                 "__setstate__", "__getnewargs__", "__getnewargs_ex__",
                 "__copy__", "__deepcopy__")
COPY_INPUTS_MAX = 20


def _copy_changed(ref, cand, path):
    """The names of the file's classes whose copying methods differ."""
    from litmus_codediff import code_diff
    out = set()
    for n, b in vars(cand).items():
        a = getattr(ref, n, None)
        if not isinstance(b, type) or b.__qualname__ != n or \
                not isinstance(a, type):
            continue
        for m in _COPY_METHODS:
            fa, fb = vars(a).get(m), vars(b).get(m)
            if fa is None and fb is None:
                continue
            ca, cb = getattr(fa, "__code__", None), getattr(fb, "__code__",
                                                             None)
            if ca is None or cb is None or \
                    cb.co_filename != path or code_diff(ca, cb,
                                                        quick=True)[0]:
                out.add(n)
                break
    return out


def _copy_inputs(given, classes, module):
    """("test", "Class.<copy>", (obj,), {}) for the objects of those
    classes the recorded calls hold (receivers and arguments)."""
    out, seen = [], set()
    for origin, _, args, kwargs in given:
        for v in list(args) + list(kwargs.values()):
            t = type(v)
            if isinstance(v, _Receiver):
                # Each side's own object, made by the tests' calls.
                if v.cls_name not in classes:
                    continue
                t = None
            elif t.__module__ != module or t.__qualname__ not in classes:
                continue
            try:
                key = _dumps(v)
            except Exception:
                continue
            if key in seen or len(out) >= COPY_INPUTS_MAX:
                continue
            seen.add(key)
            out.append((origin, "%s.%s" % (t.__qualname__ if t is not None
                                           else v.cls_name, _COPY),
                        (v,), {}))
    return out


class _SideUnpickler(pickle.Unpickler):
    """Rebuilds a captured input with the changed module's classes and
    functions taken from one side: a receiver the tests built is an
    instance of the reference's class on one side and of the candidate's
    on the other."""

    def __init__(self, data, side):
        import io
        super().__init__(io.BytesIO(data))
        self.side = side

    def _side_class(self, module, qualname):
        return self.find_class(module, qualname)

    def find_class(self, module, name):
        if name == "_side_class" and module == __name__:
            return self._side_class
        if module == self.side.__name__:
            v = _attr_path(self.side, name, _MISSING)
            if v is not _MISSING:
                return v
        return super().find_class(module, name)


def install_capture(path, modules, project_modules, per_function=0):
    """Wraps the subject's top-level functions, in its module and in every
    project module that imported them, so that each outermost call from
    the tests is sent as a CALL frame (pickled arguments).  per_function:
    at most that many calls of each function (a package's file has many
    functions its tests call thousands of times: the changed one's calls
    must not be crowded out of the CAPTURE_MAX)."""
    _PER_FUNCTION[0] = per_function
    moved = {}
    for mod in modules:
        d = mod.__dict__
        for name, value in list(d.items()):
            if isinstance(value, types.FunctionType) and \
                    value.__code__.co_filename == path:
                w = _wrap(value, name)
                moved[id(value)] = w
                d[name] = w
            elif per_function and isinstance(value, type) and \
                    value.__module__ == mod.__name__ and \
                    value.__qualname__ == name:
                _wrap_methods(value, name, path)
    if not moved:
        return
    for mod in project_modules:
        d = getattr(mod, "__dict__", None)
        if not isinstance(d, dict) or mod in modules:
            continue
        for name, value in list(d.items()):
            repl = moved.get(id(value))
            if repl is not None:
                d[name] = repl


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

_PLAIN = (int, str, bytes, bool, type(None), complex)
_NUMBERS = (bool, int, float, complex)
_SETS = (set, frozenset)


def _mapping_types():
    import collections
    return (dict, collections.OrderedDict, collections.defaultdict,
            collections.Counter)


_MAPPINGS = _mapping_types()


def _type_text(v):
    return "%s %s" % (type(v).__name__, _short_repr(v)[:60])


_SEEN = [None]  # the pairs of one comparison, with the objects kept alive


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
    if ta not in _PLAIN and ta is not float:
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
        if ta.__qualname__ == tb.__qualname__ and \
                ta.__module__ == tb.__module__:
            # One class of the program, loaded once per side: compared
            # by state, its __dict__ and its __slots__.
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
    if ta in _PLAIN:
        return a == b, None
    if ta is float:
        # Rounding differs between equal formulas ((a + b) + c and
        # a + (b + c)): a difference in the last bits is not a witness.
        return (a == b or (a != a and b != b) or
                math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)), None
    if ta in (list, tuple):
        return _compare_seq(a, b, depth)
    if ta is dict:
        if len(a) != len(b):
            return False, None
        note = None
        for k, v in a.items():
            if k not in b:
                return False, None
            eq, n = compare(v, b[k], depth + 1)
            if not eq:
                return False, None
            note = note or n
        return True, note
    if ta in _SETS:
        return a == b, None
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
        return bool(a == b), None
    except Exception:
        return False, None


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


_NO_STATE = object()
_PACKAGE = [False]  # set by diff_main for a repository candidate's file
_ADDRESS = None


def _plain(v):
    return type(v) in _PLAIN or type(v) is float or \
        (type(v) in (list, tuple) and len(v) < 100 and
         all(type(x) in _PLAIN for x in v))


def _shallow_same(a, b):
    """Objects of one class from outside the changed file: equal when
    their plain attributes are and their own reprs (addresses left out)
    are."""
    global _ADDRESS
    if type(a).__repr__ is not object.__repr__:
        import re
        if _ADDRESS is None:
            _ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")
        try:
            if _ADDRESS.sub("", repr(a)) != _ADDRESS.sub("", repr(b)):
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


def _state(obj):
    """An object's attributes, from its __dict__ and the __slots__ of its
    classes, or None when it has neither (a built-in's value)."""
    state = {}
    found = False
    d = getattr(obj, "__dict__", None)
    if isinstance(d, dict):
        state.update(d)
        found = True
    for cls in type(obj).__mro__:
        slots = cls.__dict__.get("__slots__", ())
        if isinstance(slots, str):
            slots = (slots,)
        for name in slots:
            if name in ("__dict__", "__weakref__"):
                continue
            found = True
            value = getattr(obj, name, _NO_STATE)
            if value is not _NO_STATE:
                state.setdefault(name, value)
    return state if found else None


# --- differential testing ------------------------------------------------
#
# A candidate is compared with the reference fix on the inputs the tests
# gave (captured calls), the held-out tests' and the user's inputs, then
# on inputs derived from them by type and shape (one change at a time,
# other combinations of the objects the tests built) and on inputs that
# hypothesis generates from the same shapes, every derived input inside
# the contract the tests' inputs show (litmus_inputs.Contract).  The
# first difference is shrunk to a minimal input and sent as the witness.

WITNESS_SHRINK_S = 2.0   # CPU seconds spent shrinking a witness at most
SLOW_NOTE_FACTOR = 10.0  # a patch this much slower than the reference...
SLOW_NOTE_MIN_S = 0.005  # ... on a call of at least this long is noted


class _Disagree(Exception):
    """Raised inside the hypothesis test on a difference, so that
    hypothesis shrinks the input."""


class _Enough(BaseException):
    """Ends the hypothesis test at once, without shrinking (hypothesis
    lets a BaseException that is no Exception through)."""


REPEATS_ENOUGH = 40  # generated inputs already compared, in a row
DERIVE_QUANTUM_S = 0.05  # CPU time of one turn of a derived stream
OUTSIDE_TRIED = 4    # inputs outside the contract run for the note


def _load(source, path, name):
    mod = types.ModuleType(name)
    mod.__file__ = path
    # A module of a package (a repository candidate's changed file):
    # its relative imports resolve against the package the zygote has.
    if "." in name:
        mod.__package__ = name.rpartition(".")[0]
    code = compile(source, path, "exec", dont_inherit=True)
    exec(code, mod.__dict__)
    return mod


def _load_side(source, path, name, others):
    """One side's compared module, with the side's texts of the other
    modules its fix changes [(module, path, text)] loaded beside it: in
    each, what came from another of them (a function, a class, the module
    itself) is that side's, not the zygote's base copy."""
    mods = [(name, _load(source, path, name))] + \
        [(m, _load(text, p, m)) for m, p, text in others]
    if len(mods) == 1:
        return mods[0][1]
    swap = {}
    for m, side in mods:
        base = sys.modules.get(m)
        if base is None:
            continue
        swap[id(base)] = side
        for k, v in vars(base).items():
            # Only what the module defines: a shared value (None, 0, an
            # imported function) is nobody's to swap.
            if k in vars(side) and not k.startswith("__") and \
                    isinstance(v, (types.FunctionType, type)) and \
                    getattr(v, "__module__", None) == m:
                swap[id(v)] = vars(side)[k]
    for m, side in mods:
        d = vars(side)
        for k, v in list(d.items()):
            if k.startswith("__"):
                continue
            new = swap.get(id(v))
            if new is not None and new is not v and \
                    not (isinstance(v, types.FunctionType) and
                         v.__globals__ is d):
                d[k] = new
    return mods[0][1]


def _pickle_key(args, kwargs):
    try:
        return _dumps((args, kwargs))
    except Exception:
        pass
    try:
        return repr((args, kwargs)).encode()
    except Exception:
        # A receiver caught before its __init__ ran has no repr of its
        # own: this input is its own key.
        return ("<%d>" % id(args)).encode()


def _hypothesis():
    """hypothesis, imported before any candidate code runs; (module,
    strategies, None) or (None, None, why).  A venv without it takes the
    copy of the interpreter's own dist-packages where there is one."""
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            import hypothesis
            import hypothesis.strategies as st
            return hypothesis, st, None
        except Exception as exc:
            why = "%s: %s" % (type(exc).__name__, exc)
        extra = [p for p in ("/usr/lib/python3/dist-packages",)
                 if p not in sys.path]
        sys.path.extend(extra)
        try:
            import hypothesis
            import hypothesis.strategies as st
            return hypothesis, st, None
        except Exception:
            return None, None, why
        finally:
            for p in extra:
                sys.path.remove(p)


def preload_generator():
    """Imports hypothesis in the zygote, before its guards pin the
    framework, so that no differential child pays for the import."""
    _hypothesis()


def _module_snapshot(prefix):
    """The functions and classes of the modules named prefix*: compared
    after the candidate ran, so that a candidate that replaces a part of
    the generator is caught (the zygote's guards pin only what it
    imported itself).  Other module attributes are caches that change."""
    snap = {}
    for name, mod in list(sys.modules.items()):
        if mod is not None and (name == prefix or
                                name.startswith(prefix + ".")):
            d = getattr(mod, "__dict__", None)
            if isinstance(d, dict):
                snap[name] = (d, {k: v for k, v in d.items()
                                  if isinstance(v, (types.FunctionType,
                                                    type))})
    return snap


def _snapshot_changed(snap):
    for name, (d, kept) in snap.items():
        for k, v in kept.items():
            if d.get(k, _MISSING) is not v:
                return "%s.%s" % (name, k)
    return None


_MISSING = object()


def _describe(args, kwargs):
    """The input as a reader checks it: plain values as repr, the program's
    objects as numbered nodes with their attributes (a graph once)."""
    nodes = litmus_inputs.reachable_objects((args, kwargs))
    if not nodes:
        return _short_repr(args if not kwargs else (args, kwargs))
    names = {id(n): "#%d" % (i + 1) for i, n in enumerate(nodes)}

    def r(v, depth=0):
        if id(v) in names:
            return names[id(v)]
        if depth > 6:
            return "..."
        if type(v) in (list, tuple):
            inner = ", ".join(r(x, depth + 1) for x in list(v)[:20])
            return "[%s]" % inner if type(v) is list else "(%s)" % inner
        if type(v) is dict:
            return "{%s}" % ", ".join("%s: %s" % (r(k, depth + 1),
                                                  r(x, depth + 1))
                                      for k, x in list(v.items())[:20])
        return _short_repr(v)[:80]
    call = ", ".join([r(a) for a in args] +
                     ["%s=%s" % (k, r(v)) for k, v in kwargs.items()])
    graph = "; ".join("%s %s(%s)" % (names[id(n)], type(n).__name__,
                                      ", ".join("%s=%s" % (k, r(x))
                                                for k, x in
                                                list(vars(n).items())[:8]))
                      for n in nodes[:24])
    return _clip("(%s) where %s" % (call, graph))


class _Compare:
    """Calls the reference and the candidate on one input under CPU
    limits and judges the two outcomes."""

    def __init__(self, ref, cand, job):
        self.ref, self.cand = ref, cand
        self.delta = {}  # what the last call changed in its module
        # Each side's module state as loaded, put back before each input.
        self.initial = {id(m): _globals_view(m) if _PACKAGE[0] else {}
                        for m in (ref, cand)}
        self.call_limit = float(job.get("call_timeout", 1.0))
        self.factor = float(job.get("timeout_factor", 5.0))
        self.const = float(job.get("timeout_const", 1.0))
        self.own_s = float(job.get("candidate_test_ms", 0)) / 1000.0
        self.gen_ref_limit = self.call_limit
        self.index = 0
        self.slow = None        # (ratio, input, ref s, cand s, finished)
        self.max_given_s = 0.0  # the reference's slowest given input
        self.max_given_size = 0  # the largest given input
        self.too_big = None     # the smallest larger input that timed out
        self.type_note = None   # the first result equal but of another type

    def _call(self, fn, args, kwargs, limit, side):
        # A fresh copy for each side.  deepcopy shares what it takes for
        # atomic, a bound built-in method among them ([3, 2, 1].pop: the
        # reference would empty the list the candidate then gets); a
        # pickle round trip rebuilds it.  A repository file's objects
        # become the side's own (a method's receiver).
        try:
            data = _dumps((args, kwargs))
            a, k = _SideUnpickler(data, side).load() if _PACKAGE[0] \
                else pickle.loads(data)
        except Exception:
            if _PACKAGE[0]:
                raise  # the other side's objects would not do
            a, k = copy.deepcopy((args, kwargs))
        self.index += 1
        if _PACKAGE[0]:
            # Both sides draw the same random numbers.
            import random
            random.seed(0)
        built = [a]
        decoded = a[0].decode(side) if a and isinstance(a[0], _Receiver) \
            else None
        before = [None]
        if _PACKAGE[0]:
            # Each input from the module's state as loaded: what an
            # earlier input left there (on one side only, perhaps) is not
            # this one's.
            _restore_globals(side, self.initial[id(side)])

        def call():
            if decoded is not None:
                # This side's own object, made by the calls before this
                # one (timed with it: they are the tests' too).
                built[0] = (a[0].build(side, decoded),) + tuple(a[1:])
            if _PACKAGE[0]:
                before[0] = _globals_view(side)
            return _force(fn(*built[0], **k))
        t0 = time.process_time()
        st, v = _timed(call, limit)
        took = time.process_time() - t0
        self.delta = _globals_delta(before[0], _globals_view(side)) \
            if before[0] is not None else {}
        return st, v, took, built[0]

    def judge(self, fname, args, kwargs, origin):
        """None when the two agree (or the input is outside the
        reference's domain: "skip"), else a witness dict."""
        rf, cf = _side_function(self.ref, fname), \
            _side_function(self.cand, fname)
        if not callable(rf):
            return "skip"
        given = origin in ("test", "held_out", "inputs")
        size = litmus_inputs.size_of(args)
        if not given and self.too_big is not None and size >= self.too_big:
            return "skip"   # larger than an input the reference cannot do
        _litmus.probe(self.index, 0)
        rlimit = self.call_limit if given else self.gen_ref_limit
        try:
            rs, rv, rt, ra = self._call(rf, args, kwargs, rlimit,
                                          self.ref)
        except Exception:
            return "skip"   # arguments that cannot be copied
        rdelta = self.delta
        if given:
            self.max_given_s = max(self.max_given_s, rt)
            self.max_given_size = max(self.max_given_size, size)
        elif rs == "timeout" and size > self.max_given_size:
            # An exponential program: inputs this large are out of reach,
            # and trying each would spend the budget on timeouts.
            self.too_big = size if self.too_big is None else \
                min(self.too_big, size)
        if rs == "timeout" or (not given and rs != "ok" and not isinstance(
                rv, litmus_inputs.CallbackError)):
            return "skip"   # outside the reference's domain (a callback
            # litmus made fail is inside it: its error is compared)
        if not callable(cf):
            return self._witness(origin, fname, args, kwargs, rs, rv, "raise",
                                 AttributeError("no function %s" % fname))
        # The candidate's limit: well above the reference's time on this
        # input and the candidate's own slowest test, so that "does not
        # finish" cannot disagree with the tests.
        climit = min(max(self.call_limit, self.factor * self.own_s),
                     max(self.factor * rt + self.const,
                         self.factor * self.own_s))
        # Phase 1: the patch is being called on an input the tests gave;
        # 3: on one litmus derived, no larger; 2: on an input larger than
        # every given one, where not finishing is only "slower" (the
        # engine's watchdog, which sees the phase, judges the same way).
        # A child killed by a signal in phase 3 is no witness: pure Python
        # dies so only at the child's memory or stack limit.
        larger = not given and size > self.max_given_size
        _litmus.probe(self.index, 2 if larger else 1 if given else 3)
        try:
            cs, cv, ct, ca = self._call(cf, args, kwargs, climit,
                                        self.cand)
        except Exception:
            # The candidate's classes cannot rebuild the input from the
            # reference's (a fix of pickling itself): not a result.
            return "skip"
        if cs == "timeout":
            _litmus.probe(self.index, 2 if larger else 1 if given else 3)
            cs, cv, ct, ca = self._call(cf, args, kwargs, climit,
                                        self.cand)  # confirm
        if cs == "timeout" and larger:
            # Larger than every input of the tests: a patch that is only
            # slower (exponential where the reference is not) cannot be
            # told from one that hangs; it is noted, not a witness.
            ratio = ct / max(rt, 1e-4)
            if self.slow is None or ratio > self.slow[0]:
                self.slow = (ratio, _describe(args, kwargs), rt, ct, False)
            return None
        if rs == cs == "ok":
            if _litmus.equal_to_anything(cv):
                _litmus.tamper("returned a %s that compares equal to "
                               "anything" % type(cv).__name__)
            eq, note = compare(rv, cv)
            if not eq:
                return self._witness(origin, fname, args, kwargs, rs, rv,
                                     cs, cv)
            # The arguments after the call are a part of the result: an
            # in-place algorithm's, and a patch's that changes what the
            # reference leaves alone (the caller's list).
            eq, after_note = compare(ra, ca)
            if not eq:
                return self._witness(origin, fname, args, kwargs, rs, rv,
                                     cs, cv, after=(ra, ca))
            # What the call left in its module: compared as it changed
            # (an earlier input's effect on one side is not this one's).
            if not _same_delta(rdelta, self.delta):
                return self._witness(origin, fname, args, kwargs, rs, rv,
                                     cs, cv, module=(rdelta, self.delta))
            if (note or after_note) and self.type_note is None:
                self.type_note = {
                    "type": "type_difference", "origin": origin,
                    "function": fname, "input_repr": _describe(args, kwargs),
                    "difference": note or after_note,
                    "in_arguments": note is None,
                    "reference": _outcome(rs, rv),
                    "candidate": _outcome(cs, cv)}
            if ct >= SLOW_NOTE_MIN_S and ct > SLOW_NOTE_FACTOR * max(rt,
                                                                   1e-4):
                ratio = ct / max(rt, 1e-4)
                if self.slow is None or ratio > self.slow[0]:
                    self.slow = (ratio, _describe(args, kwargs), rt, ct,
                                 True)
            return None
        if rs == cs == "raise":
            if type(rv).__name__ == type(cv).__name__ and \
                    getattr(rv, "items_before", None) == \
                    getattr(cv, "items_before", None):
                return None
        if cs == "raise" and not (args and isinstance(args[0], _Receiver)) \
                and _foreign_state(cv, ca):
            return "skip"
        return self._witness(origin, fname, args, kwargs, rs, rv, cs, cv)

    @staticmethod
    def _witness(origin, fname, args, kwargs, rs, rv, cs, cv, after=None,
                 module=None):
        w = {"type": "witness", "origin": origin, "function": fname,
             "input": _as_json(list(args)) if not kwargs else None,
             "input_repr": _describe(args, kwargs),
             "reference": _outcome(rs, rv), "candidate": _outcome(cs, cv),
             "timeout": cs == "timeout",
             "_args": args, "_kwargs": kwargs}
        if after is not None:
            w["arguments_after"] = {"reference": _short_repr(after[0]),
                                    "candidate": _short_repr(after[1])}
        if module is not None:
            def changes(d):
                return ", ".join("%s=%s" % (k, _short_repr(v[1]))
                                 for k, v in sorted(d.items())) or \
                    "unchanged"
            w["module_after"] = {"reference": changes(module[0]),
                                 "candidate": changes(module[1])}
        return w


class _Function:
    """One function of the program as the tests call it: the inputs they
    gave, the shapes and contract of those inputs, the constants of the
    code and the tests."""

    def __init__(self, name, bases, consts, user_pre, doc, params,
                 flags=()):
        self.name = name
        self.params = tuple(params)
        self.flags = tuple(flags)   # (name, default) of its bool options
        self.bases = bases          # [(origin, args, kwargs)]
        n = max((len(a) for _, a, _ in bases), default=0)
        self.shapes = [litmus_inputs.Shape() for _ in range(n)]
        for _, args, _ in bases:
            for i, a in enumerate(args):
                self.shapes[i].add(a)
        self.consts = set(consts)
        for sh in self.shapes:
            d = sh.kinds.get("int")
            if d:
                self.consts |= {v for v in d["values"] if abs(v) < 10 ** 6}
        self.contract = litmus_inputs.Contract(
            self.shapes, [a for _, a, _ in bases], user_pre, doc, params)
        # A documented bound is a boundary value to try (90 in "0 <= n <=
        # 90"), and so is the value next to it.
        self.consts |= {b for _, _, b in self.contract.documented}
        # Number arguments the tests never made equal (hanoi's start and
        # end pegs): shrinking does not make them equal.
        samples = [a for _, a, _ in bases]
        self.never_equal = []
        for p in range(n):
            for q in range(p + 1, n):
                pairs = [(a[p], a[q]) for a in samples if len(a) > q]
                if len(pairs) >= 3 and all(
                        type(x) is int and type(y) is int and x != y
                        for x, y in pairs):
                    self.never_equal.append((p, q))

    def apart(self, args):
        """Whether the arguments the tests kept apart still are."""
        return all(len(args) <= q or args[p] != args[q]
                   for p, q in self.never_equal)


def _documentation(mod, fname):
    """A function's name and docstring, and its module's docstring: where
    a program states its contract."""
    fn = _side_function(mod, fname)
    return " ".join(x for x in (fname, getattr(fn, "__doc__", None),
                                getattr(mod, "__doc__", None))
                    if isinstance(x, str))


def _parameters(mod, fname):
    """The positional parameter names of a function of the reference."""
    fn = _side_function(mod, fname)
    code = getattr(fn, "__code__", None)
    if code is None:
        return ()
    return code.co_varnames[:code.co_argcount]


def _is_option(d):
    """A default worth passing the other way: a bool, or a sentinel that
    tells "not given" apart (a bare object(), an instance of a class made
    for it: boltons' make_sentinel, a private _Missing)."""
    if type(d) in (bool, object):
        return True
    name = type(d).__name__.lower()
    return "sentinel" in name or "missing" in name or \
        (name.startswith("_") and type(d).__module__ != "builtins")


def _flags(mod, fname):
    """(name, default) of a function's parameters that default to a bool
    or a sentinel and can be passed by keyword."""
    fn = _side_function(mod, fname)
    code = getattr(fn, "__code__", None)
    if code is None:
        return ()
    out = []
    names = code.co_varnames[:code.co_argcount]
    for name, d in zip(names[len(names) - len(fn.__defaults__ or ()):],
                       fn.__defaults__ or ()):
        if _is_option(d) and code.co_posonlyargcount <= names.index(name):
            out.append((name, d))
    out += [(k, d) for k, d in (fn.__kwdefaults__ or {}).items()
            if _is_option(d)]
    return out


def _user_precondition(job, fname):
    pre = job.get("_precondition_module")
    if pre is None:
        return None
    fn = getattr(pre, "litmus_precondition_" + fname, None) or \
        getattr(pre, "litmus_precondition", None)
    return fn if callable(fn) else None


def _code_names(code, out):
    """Every global or attribute name a code object and its nested code
    objects use."""
    out.update(code.co_names)
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            _code_names(c, out)
    return out


def _affected(ref, cand, path):
    """The top-level names of the changed file whose definition differs
    between the reference's and the candidate's text, and those that use
    one of them (a fixpoint over the names their code uses)."""
    from litmus_codediff import code_diff
    mod_name = ref.__name__

    def own(v):
        if isinstance(v, types.FunctionType):
            return v.__code__.co_filename == path
        return isinstance(v, type) and v.__module__ == mod_name

    def codes(v):
        if isinstance(v, types.FunctionType):
            return [v.__code__]
        if isinstance(v, type):
            out = []
            for x in vars(v).values():
                f = getattr(x, "__func__", x)
                if isinstance(f, types.FunctionType):
                    out.append(f.__code__)
                elif isinstance(x, property):
                    out.extend(g.__code__ for g in (x.fget, x.fset, x.fdel)
                               if isinstance(g, types.FunctionType))
            return out
        return []

    def differs(a, b):
        if a is _MISSING or b is _MISSING:
            return True
        if own(a) != own(b):
            return True
        if type(a) is not type(b) and not \
                (isinstance(a, type) and isinstance(b, type)):
            # A sentinel whose class is made per call (make_sentinel):
            # the same when its class's name and its repr are.
            ta, tb = type(a), type(b)
            try:
                return own(a) or ta.__qualname__ != tb.__qualname__ or \
                    ta.__module__ != tb.__module__ or repr(a) != repr(b) \
                    or " at 0x" in repr(a)
            except Exception:
                return True
        if own(a):
            ca, cb = codes(a), codes(b)
            if len(ca) != len(cb):
                return True
            for x, y in zip(ca, cb):
                if x.co_name != y.co_name or code_diff(x, y, quick=True)[0]:
                    return True
            if isinstance(a, types.FunctionType):
                try:
                    return not same(a.__defaults__, b.__defaults__) or \
                        not same(a.__kwdefaults__, b.__kwdefaults__)
                except Exception:
                    return True
            return False
        if type(a) in _PLAIN or type(a) in (float, list, tuple, dict):
            try:
                return not same(a, b)
            except Exception:
                return True
        return False  # an import: the same object on both sides

    da, db = vars(ref), vars(cand)
    names = set(da) | set(db)
    affected = {n for n in names if not n.startswith("__") and
                differs(da.get(n, _MISSING), db.get(n, _MISSING))}
    uses = {}
    for n in names:
        v = db.get(n, da.get(n))
        if own(v):
            used = set()
            for c in codes(v):
                _code_names(c, used)
            uses[n] = used
    # The methods of the file's classes, each as "Class.method": those
    # whose code differs, then those that use one of them or an affected
    # top-level name (by attribute name: self.update reaches update).
    for n in names:
        a, b = da.get(n, _MISSING), db.get(n, _MISSING)
        if not isinstance(b, type) or not own(b) or b.__qualname__ != n:
            continue
        old = vars(a) if isinstance(a, type) else {}
        for m, x in vars(b).items():
            fb = getattr(x, "__func__", x)
            if m in _NOT_CAPTURED or not isinstance(
                    fb, types.FunctionType) or \
                    fb.__code__.co_filename != path:
                continue
            qual = "%s.%s" % (n, m)
            uses[qual] = _code_names(fb.__code__, set())
            fa = getattr(old.get(m), "__func__", old.get(m))
            try:
                if not isinstance(fa, types.FunctionType) or \
                        code_diff(fa.__code__, fb.__code__, quick=True)[0] \
                        or not same(fa.__defaults__, fb.__defaults__):
                    affected.add(qual)
            except Exception:
                affected.add(qual)
    grew = True
    while grew:
        grew = False
        for n, used in uses.items():
            if n in affected:
                continue
            # A method reaches its own class's changed methods by name
            # (self.update); any name reaches a changed top-level one.
            cls = n.partition(".")[0] if "." in n else None
            if used & affected or cls is not None and any(
                    q.partition(".")[2] in used for q in affected
                    if q.partition(".")[0] == cls):
                affected.add(n)
                grew = True
    return affected


def diff_main(job):
    path, name = job["path"], job.get("module") or "subject"
    _PACKAGE[0] = litmus_inputs.PACKAGE[0] = bool(job.get("package"))
    _SIDE_MODULE[0] = name if _PACKAGE[0] else None
    budget = float(job.get("budget", 10.0))
    max_inputs = int(job.get("max_inputs", 20000))
    clock = {"start": time.process_time()}

    def spent():
        """CPU seconds spent on inputs beyond the given ones (the budget's
        part of the run)."""
        return time.process_time() - clock["start"]

    hyp, st, hyp_missing = (None, None, "turned off") \
        if not job.get("generate", True) else _hypothesis()
    watched = _module_snapshot("hypothesis") if hyp else {}
    watched.update(_module_snapshot("litmus_inputs"))
    if job.get("precondition"):
        job["_precondition_module"] = _load(job["precondition"],
                                            "<litmus_precondition>",
                                            "litmus_precondition")
    also = [a for a in job.get("also", ()) if len(a) == 4]
    ref = _load_side(job["reference"], path, name,
                     [(m, p, r) for m, p, r, _ in also])
    consts = set()
    for v in vars(ref).values():
        if isinstance(v, types.FunctionType) and \
                v.__code__.co_filename == path:
            litmus_inputs.constants_of(v.__code__, consts)
    cand = _load_side(job["candidate"], path, name,
                      [(m, p, c) for m, p, _, c in also])
    if _PACKAGE[0]:
        _name_side_globals(ref, cand)
    cmp = _Compare(ref, cand, job)

    given = []  # (origin, function, args, kwargs)
    counts = {}
    for blob, origin in zip(job.get("captured", []),
                            job.get("captured_origin", [])):
        try:
            data = base64.b64decode(blob)
            # Recorded in the reference's run: its objects are the
            # reference's (the zygote holds the base's classes, whose
            # pickling methods a fix may change).
            fname, args, kwargs = _SideUnpickler(data, ref).load() \
                if _PACKAGE[0] else pickle.loads(data)
        except Exception:
            continue
        given.append((origin, fname, tuple(args), dict(kwargs)))
        counts[fname] = counts.get(fname, 0) + 1
    default_fn = max(counts, key=lambda k: (counts[k], k)) if counts else None
    if default_fn is None:
        public = [k for k, v in vars(ref).items()
                  if isinstance(v, types.FunctionType) and
                  not k.startswith("_") and v.__code__.co_filename == path]
        default_fn = public[0] if len(public) == 1 else None
    for item in job.get("inputs", []):
        fname = item.get("function") or default_fn
        if fname is None:
            continue
        given.append(("inputs", fname, tuple(item.get("args", [])),
                      dict(item.get("kwargs") or {})))
    if job.get("package"):
        # A repository candidate's file holds many functions the change
        # does not reach (a random sampler beside the fixed function):
        # only those whose code differs, or that use one that does, are
        # compared.
        affected = _affected(ref, cand, path)
        copied = _copy_changed(ref, cand, path)
        if affected or copied:
            given = [g for g in given if g[1] in affected] + \
                _copy_inputs(given, copied, name)
    functions = {}
    for origin, fname, args, kwargs in given:
        functions.setdefault(fname, []).append((origin, args, kwargs))
    functions = {f: _Function(f, b, consts, _user_precondition(job, f),
                              _documentation(ref, f), _parameters(ref, f),
                              _flags(ref, f))
                 for f, b in functions.items()}

    judged = {}  # input -> its witness, or None
    state = {"compared": 0, "skipped": 0, "outside": 0, "by_origin": {},
             "judged": 0,
             "witness": None, "outside_witness": None}

    def try_input(origin, fname, args, kwargs, check_contract=True):
        """Compares one input; True when a witness ends the search."""
        if state["compared"] + state["skipped"] >= max_inputs:
            return False
        key = (fname, _pickle_key(args, kwargs))
        if key in judged:
            # The same input again (hypothesis replays its minimal
            # example): the same answer, without running it twice.
            if judged[key] is None:
                return False
            state["witness"] = judged[key]
            return True
        judged[key] = None
        state["judged"] += 1
        fn = functions.get(fname)
        if check_contract and fn is not None and \
                not fn.contract.ok(args, kwargs):
            state["outside"] += 1
            # A few are run, for the note (not many: on inputs outside
            # its contract a reference often loops until its limit).
            if state["outside_witness"] is None and \
                    state["outside"] <= OUTSIDE_TRIED and \
                    spent() < 0.5 * budget:
                w = cmp.judge(fname, args, kwargs, origin)
                if isinstance(w, dict):
                    state["outside_witness"] = w
            return False
        w = cmp.judge(fname, args, kwargs, origin)
        if w == "skip":
            state["skipped"] += 1
            return False
        state["compared"] += 1
        state["by_origin"][origin] = state["by_origin"].get(origin, 0) + 1
        if w is not None:
            judged[key] = w
            state["witness"] = w
            return True
        return False

    # 1. The inputs the tests, the held-out tests and the user gave: no
    # budget, they are the suite's own.
    for origin, fname, args, kwargs in given:
        if try_input(origin, fname, args, kwargs, check_contract=False):
            break
    # Generated inputs may cost the reference at most a few times its
    # slowest given call, and a fifth of the budget: an exponential
    # program stays in the range the tests exercise, and one input cannot
    # spend the whole budget.
    given_s = spent()
    clock["start"] = time.process_time()
    cmp.gen_ref_limit = min(cmp.call_limit, max(0.1, 3.0 * cmp.max_given_s),
                            max(0.1, 0.2 * budget))

    # 2. Values one change away, other combinations of the tests' objects:
    # the given inputs' variants in turn (one of each, then the next of
    # each), the smallest given inputs first (by size, not measured time:
    # the same order in every run), so that a budget cut short by a slow
    # program still reaches every given input.  A turn costs its stream
    # one unit per started DERIVE_QUANTUM_S of CPU time, and the stream
    # that has spent the fewest units goes next: where every call is
    # quicker than that, this is the plain round, and where some given
    # inputs' variants are exponential (lcs_length's two long strings),
    # the small ones' variants are not starved behind them.
    derive = job.get("derive", True) and budget > 0
    if state["witness"] is None and derive:
        streams = []
        for fn in functions.values():
            order = sorted(range(len(fn.bases)), key=lambda k: (
                litmus_inputs.size_of(fn.bases[k][1]), k))
            for k in order:
                origin, args, kwargs = fn.bases[k]
                streams.append((0, len(streams),
                                _variant_stream(fn, args, kwargs)))
        heapq.heapify(streams)
        while streams and state["witness"] is None and \
                spent() <= 0.6 * budget:
            units, k, stream = heapq.heappop(streams)
            item = next(stream, None)
            if item is None:
                continue
            t0 = time.process_time()
            if try_input(*item):
                break
            took = time.process_time() - t0
            heapq.heappush(streams, (units + max(1, math.ceil(
                took / DERIVE_QUANTUM_S)), k, stream))

    # 3. Inputs hypothesis generates from the same shapes, shrunk by it.
    gen_note = None
    if state["witness"] is None and hyp is not None and derive:
        gen_note = _generate(hyp, st, functions, try_input, state,
                             lambda: spent() > 0.9 * budget,
                             int(job.get("max_examples", 300)))
    elif hyp is None and derive:
        gen_note = "hypothesis is not importable (%s): no generated " \
                   "inputs" % hyp_missing

    w = state["witness"]
    if w is not None and not w.get("shrunk") and not w["timeout"] and \
            w["origin"] not in ("test", "held_out", "inputs"):
        w = _shrink(cmp, functions, w, t_limit=spent() + WITNESS_SHRINK_S,
                    spent=spent)
    changed = _snapshot_changed(watched)
    if changed:
        _litmus.tamper("changed %s, a part of litmus's input generator"
                       % changed)
    if w is not None:
        fn = functions.get(w["function"])
        w["contract"] = fn.contract.describe() if fn else []
        _send_witness(w)
    elif state["outside_witness"] is not None:
        ow = state["outside_witness"]
        fn = functions.get(ow["function"])
        _litmus.record(json.dumps({
            "type": "outside_contract", "function": ow["function"],
            "input_repr": ow["input_repr"],
            "reference": ow["reference"], "candidate": ow["candidate"],
            "arguments_after": ow.get("arguments_after"),
            "contract": fn.contract.describe() if fn else []}))
    if w is None and cmp.type_note is not None:
        _litmus.record(json.dumps(cmp.type_note))
    if cmp.slow is not None:
        ratio, where, rt, ct, finished = cmp.slow
        _litmus.record(json.dumps({
            "type": "slower", "ratio": round(ratio, 1), "input_repr": where,
            "finished": finished,
            "reference_ms": round(rt * 1000, 3),
            "candidate_ms": round(ct * 1000, 3)}))
    _litmus.record(json.dumps({
        "type": "summary", "compared": state["compared"],
        "skipped": state["skipped"], "outside_contract": state["outside"],
        "by_origin": state["by_origin"], "inputs": len(judged),
        "cpu_s": round(given_s + spent(), 3),
        "given_cpu_s": round(given_s, 3), "budget_s": budget,
        "contracts": {f: fn.contract.describe()
                      for f, fn in sorted(functions.items())},
        "generator": ("hypothesis %s" % hyp.__version__) if hyp else None,
        "note": gen_note}))


def _variant_stream(fn, args, kwargs):
    """(origin, function, args, kwargs) of one given input's variants:
    other combinations of its objects, then its values one change away."""
    for dargs in litmus_inputs.object_inputs(args, fn.contract):
        yield "objects", fn.name, dargs, kwargs
    arg_variants = litmus_inputs.derive(args, fn.shapes, fn.consts)
    yield from litmus_inputs.alternate(
        (("derived", fn.name, dargs, kwargs) for dargs in arg_variants),
        _kwarg_variants(fn, args, kwargs))


def _kwarg_variants(fn, args, kwargs):
    """The keyword arguments one change away, each in turn (a flag the
    tests passed flipped, a value varied, one left out, a flag they left
    at its default passed the other way)."""
    for k, default in fn.flags:
        if k not in kwargs and k not in fn.params[:len(args)]:
            # A flag the other way; an option whose default is a sentinel
            # (given or not), given: None is the value callers pass most.
            value = not default if type(default) is bool else None
            yield "derived", fn.name, args, dict(kwargs, **{k: value})
    for k, v in kwargs.items():
        rest = {x: y for x, y in kwargs.items() if x != k}
        yield "derived", fn.name, args, rest
        for nv in litmus_inputs.variants(v, None, fn.consts)[:12]:
            yield "derived", fn.name, args, dict(kwargs, **{k: nv})


def _send_witness(w):
    rec = {k: v for k, v in w.items() if not k.startswith("_")}
    _litmus.record(json.dumps(rec))


def _generate(hyp, st, functions, try_input, state, out_of_time,
              max_examples):
    """Random inputs of the tests' shapes, per function; the first
    difference is shrunk by hypothesis.  Returns a note or None."""
    import warnings
    notes = []
    for fn in functions.values():
        if state["witness"] is not None or out_of_time():
            break
        args_st = _args_strategy(st, fn)
        if args_st is None:
            notes.append("%s: no generator for its argument types" % fn.name)
            continue
        found = []
        check = _checker(fn, found, try_input, state, out_of_time)
        settings = hyp.settings(
            max_examples=max_examples, database=None, deadline=None,
            derandomize=True, suppress_health_check=list(hyp.HealthCheck),
            phases=(hyp.Phase.generate, hyp.Phase.shrink),
            report_multiple_bugs=False, verbosity=hyp.Verbosity.quiet,
            print_blob=False)
        test = settings(hyp.given(args_st)(check))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                test()
            except (_Disagree, _Enough):
                pass
            except Exception as exc:
                notes.append("%s: the generator stopped (%s)"
                             % (fn.name, type(exc).__name__))
        if found:
            w = found[-1]
            w["shrunk"] = not w["timeout"]
            state["witness"] = w
    return "; ".join(notes) or None


def _checker(fn, found, try_input, state, out_of_time):
    """The body of the hypothesis test of fn: compares one drawn input;
    a difference is kept in found and raised, so that hypothesis shrinks
    it (a patch that does not finish is kept and ends the search: each
    try of it costs its whole limit)."""
    repeats = [0]

    def check(drawn):
        if out_of_time() or (found and found[-1]["timeout"]):
            return
        args, kwargs = drawn
        before = state["witness"]
        seen = state["judged"]
        state["witness"] = None
        hit = try_input("generated", fn.name, args, kwargs)
        w = state["witness"]
        state["witness"] = before
        if hit and w is not None:
            found.append(w)
            if not w["timeout"]:
                raise _Disagree()
        # A small input space: hypothesis keeps drawing inputs already
        # compared; enough of them in a row end the search early.
        repeats[0] = repeats[0] + 1 if state["judged"] == seen else 0
        if repeats[0] >= REPEATS_ENOUGH and not found:
            raise _Enough()
    return check


def _args_strategy(st, fn):
    """(args, kwargs) drawn for fn: each base input's kwargs and objects,
    every other place from its shape under the contract's rules."""
    per_base = []
    for _, args, kwargs in fn.bases:
        places = []
        for i, a in enumerate(args):
            if litmus_inputs._user_object(a) or i >= len(fn.shapes):
                nodes = [n for n in litmus_inputs.reachable_objects(args)
                         if type(n) is type(a)] or [a]
                places.append(("obj", nodes))
                continue
            s = litmus_inputs.strategy(
                st, fn.shapes[i], fn.consts, rules=fn.contract.describe(),
                name="argument %d" % (i + 1),
                floor=litmus_inputs.floor_of(fn.shapes[i]))
            if s is None:
                places.append(("fixed", a))
            else:
                places.append(("gen", s))
        per_base.append((args, kwargs, places))
    if not per_base or all(all(k != "gen" for k, _ in p)
                           for _, _, p in per_base):
        if not any(k == "obj" for _, _, p in per_base for k, _ in p):
            return None

    def build(i):
        args, kwargs, places = per_base[i]
        if any(k == "obj" for k, _ in places):
            # Objects of one graph: pick indices, copy the graph, then
            # take the copies' objects.
            idx = [st.integers(0, len(v) - 1) if k == "obj" else st.just(0)
                   for k, v in places]
            gens = [v if k == "gen" else st.just(None) for k, v in places]

            def assemble(choice, args=args, kwargs=kwargs, places=places):
                ix, vals = choice
                memo = {}
                new = list(copy.deepcopy(args, memo))
                for j, (k, v) in enumerate(places):
                    if k == "obj":
                        new[j] = memo.get(id(v[ix[j]]), v[ix[j]])
                    elif k == "gen":
                        new[j] = vals[j]
                return tuple(new), kwargs
            return st.tuples(st.tuples(*idx), st.tuples(*gens)).map(assemble)
        parts = [v if k == "gen" else st.just(v) for k, v in places]

        # Named, not a lambda: hypothesis describes a lambda by reading
        # and parsing its source, on every draw.
        def with_kwargs(a, kwargs=kwargs):
            return a, kwargs
        return st.tuples(*parts).map(with_kwargs)
    # Built once per given input (a flatmap would build them on every
    # draw); hypothesis shrinks towards the first.
    return st.one_of(*[build(i) for i in range(len(per_base))])


def _shrink(cmp, functions, w, t_limit, spent):
    """A witness found by one change: simpler inputs tried one step at a
    time while they stay inside the contract and still differ."""
    fname, args, kwargs = w["function"], w["_args"], w["_kwargs"]
    fn = functions.get(fname)
    best = w
    improved = True
    while improved and spent() < t_limit:
        improved = False
        for cand in litmus_inputs.smaller(best["_args"],
                                          fn.shapes if fn else ()):
            if spent() >= t_limit:
                break
            if fn is not None and not (fn.contract.ok(cand, kwargs) and
                                       fn.apart(cand)):
                continue
            r = cmp.judge(fname, cand, kwargs, w["origin"])
            if isinstance(r, dict) and not r["timeout"]:
                best = r
                improved = True
                break
    best["shrunk"] = True
    return best


def _force(v):
    """Generators and iterators are consumed inside the timed call.  A
    callback's error (litmus_inputs.CallbackError) that ends the reading
    says how many items came before it: when the callback was called."""
    if isinstance(v, types.GeneratorType) or \
            (hasattr(type(v), "__next__") and hasattr(type(v), "__iter__")):
        items = []
        try:
            items.extend(itertools.islice(v, 100000))
        except litmus_inputs.CallbackError as exc:
            exc.items_before = len(items)
            raise
        return items
    return v


# --- cases: a program on call expressions (datasets) ---------------------

def cases_main(job):
    path = job.get("path") or "<program>"
    limit = float(job.get("call_timeout", 1.0))
    trace = bool(job.get("trace", True))
    mod = types.ModuleType(job.get("module") or "litmus_case")
    mod.__file__ = path
    try:
        code = compile(job["source"], path, "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as exc:
        _litmus.record(json.dumps({"type": "load_error",
                                   "error": "%s: %s" % (type(exc).__name__,
                                                        exc)}))
        return
    t0 = time.process_time()
    status, err = _timed(lambda: exec(code, mod.__dict__), limit)
    load_cpu_ms = (time.process_time() - t0) * 1000
    if status != "ok":
        _litmus.record(json.dumps({
            "type": "load_error",
            "error": "timeout" if status == "timeout" else
            "%s: %s" % (type(err).__name__, _short_repr(err)[:300])}))
        return
    for index, expr in enumerate(job.get("calls", [])):
        try:
            ccode = compile(expr, "<input>", "eval", dont_inherit=True)
        except (SyntaxError, ValueError) as exc:
            _litmus.record(json.dumps({"type": "case", "index": index,
                                       "status": "error",
                                       "error": "input: %s" % exc}))
            continue
        _litmus.probe(index, 0)
        if trace:
            _litmus.lines_begin(path)
        t0 = time.process_time()
        try:
            st, val = _timed(lambda: _force(eval(ccode, mod.__dict__)), limit)
        finally:
            cpu_ms = (time.process_time() - t0) * 1000
            lines = _litmus.lines_end() if trace else []
        # The CPU time of the load and of the call alone (line tracing
        # included), for limits that scale with the work, not with the
        # child's start.
        rec = {"type": "case", "index": index, "lines": lines,
               "cpu_ms": round(cpu_ms, 3), "load_cpu_ms": round(load_cpu_ms, 3)}
        if st == "ok":
            rec.update(status="ok", repr=_short_repr(val),
                       type_name=type(val).__name__, json=_as_json(val))
        elif st == "raise":
            rec.update(status="raised", exception=type(val).__name__,
                       repr=_short_repr(val))
        else:
            rec.update(status="timeout")
        _litmus.record(json.dumps(rec))


def main(extra):
    # A crash's Python stack on stderr (kept with LITMUS_DEBUG=1).
    import faulthandler
    faulthandler.enable(sys.__stderr__)
    job = json.loads(extra)
    kind = job.get("kind")
    if kind == "diff":
        diff_main(job)
    elif kind == "cases":
        cases_main(job)
    else:
        raise ValueError("unknown call job %r" % (kind,))
