# Capture (calls.py's first mode): in a test run, every outermost call
# from test code into the subject is pickled and sent as a CALL frame, a
# method's calls with the calls before it on the same object, so that a
# differential run can replay them on both sides.  Compiled into the
# litmus binary as litmus_calls_capture.  SPDX-License-Identifier: MIT
import base64
import copy
import enum
import pickle
import sys
import threading
import types

import _litmus
from litmus_calls_values import (
    _LOCK, _MISSING, _PLAIN, _RLOCK, _force, _short_repr, _state,
    own_function, wrapper_like)


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


def _rebuild_plain(cls, state):
    """An object _dumps pickled as it is in memory (_plain_state): made
    without its __init__ or __setstate__, its attributes set."""
    obj = object.__new__(cls) if cls.__new__ is object.__new__ \
        else cls.__new__(cls)
    obj.__dict__.update(state)
    return obj


_PICKLES_ITSELF = {}  # type -> whether its pickling is Python code


def _pickles_itself(t):
    """Whether a class, or a base other than object, pickles its objects
    in Python code of its own (__getstate__, __reduce__, __reduce_ex__)."""
    known = _PICKLES_ITSELF.get(t)
    if known is None:
        known = any(isinstance(vars(k).get(name), types.FunctionType)
                    for k in t.__mro__ if k is not object
                    for name in ("__getstate__", "__reduce__",
                                 "__reduce_ex__"))
        _PICKLES_ITSELF[t] = known
    return known


def _plain_state(obj):
    """An object whose class pickles itself in Python code is captured as
    it is in memory: its class and its attributes, never through its own
    pickling, which may change it or what the tests see (a database
    query set runs its query; a cache may empty itself).  None for any
    other object, and for one without a __dict__ to copy."""
    t = type(obj)
    if isinstance(obj, (type, enum.Enum)) or not _pickles_itself(t):
        return None  # an enumeration's member: by its class and value
    state = getattr(obj, "__dict__", None)
    # Its whole state in its __dict__: every base is a class of Python
    # code (not a dict's items, a C type's fields) without slots.
    if type(state) is not dict or any(
            not k.__flags__ & _HEAP_TYPE or vars(k).get("__slots__")
            for k in t.__mro__ if k is not object):
        return None
    return (_rebuild_plain, (t, dict(state)))


_HEAP_TYPE = 1 << 9  # Py_TPFLAGS_HEAPTYPE: a class made by a class statement


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
        plain = _plain_state(obj)
        if plain is not None:
            return plain
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
    return wrapper_like(capture, fn, name)


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
                                                        quick=True,
                                                        positions=False)[0]:
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
        # The module calls.py names it from (its pickles' bytes as before).
        if name == "_side_class" and module == _side_class.__module__:
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
            if own_function(value, path) is not None:
                w = _wrap(value, name)
                moved[id(value)] = w
                d[name] = w
                # Pickled by name, the function and its wrapper alike:
                # the module's name now holds the wrapper, and pickle
                # would take the function by its code, with all it holds
                # (a template engine's filters: hundreds of kilobytes).
                for f in (value, w):
                    _SIDE_OBJECTS[id(f)] = (mod.__name__, name, f)
            elif per_function and isinstance(value, type) and \
                    value.__module__ == mod.__name__ and \
                    value.__qualname__ == name:
                _wrap_methods(value, name, path)
    if not moved:
        return
    for mod in list(modules) + [m for m in project_modules
                                if m not in modules]:
        d = getattr(mod, "__dict__", None)
        if not isinstance(d, dict):
            continue
        for name, value in list(d.items()):
            repl = moved.get(id(value))
            if repl is not None:
                if mod not in modules:
                    d[name] = repl
            elif type(value) is dict:
                _rebind_registry(value.items(), value, moved)
            elif type(value) is list:
                _rebind_registry(enumerate(value), value, moved)


def _rebind_registry(entries, holder, moved):
    """A module's registry (a dict or list of functions: a template
    engine's filters by name) holds the wrapped functions too: the
    program calls them from there, never by their module's name."""
    for key, value in list(entries):
        repl = moved.get(id(value))
        if repl is not None:
            holder[key] = repl
