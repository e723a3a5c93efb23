# Applying a change in a child: a span of a subject (our mutant, or a
# candidate's) re-executed in its live module, with its functions' code
# swapped or its names rebound everywhere they were imported, the
# module's classes kept so that instances and subclasses follow; and a
# repository candidate's whole files (apply_files).  Part of the shim
# (shim.py); compiled into the litmus binary as litmus_apply.
# SPDX-License-Identifier: MIT
import linecache
import os
import sys
import types

from litmus_codediff import code_diff, import_order, package_of
from litmus_codediff import is_function_code as _is_function_code
import litmus_shared as shared
from litmus_shared import (
    APPLY_EQUIVALENT, APPLY_INVALID, APPLY_OK, APPLY_RAISED)
from litmus_subjects import _project_modules, _realpath


try:
    from abc import ABCMeta as _ABCMETA
except ImportError:  # pragma: no cover
    _ABCMETA = type


_SHARED_TYPES = (bool, int, float, complex, str, bytes, tuple, frozenset,
                 range, type(Ellipsis), type(NotImplemented))


_GONE = object()
_UNMOVED = object()


def _imported_from_elsewhere(value, module_name):
    """Whether a module's function or class came from another module
    (`from math import gcd`): other modules may hold the same object
    through their own imports, which a patch that no longer imports it
    must not take from them."""
    if isinstance(value, (types.FunctionType, types.BuiltinFunctionType,
                          type)):
        try:
            owner = value.__module__
        except Exception:
            return False
        return isinstance(owner, str) and owner != module_name
    return False


def _rebind(old, new_dict, drop_missing=False):
    """After re-executing a module, points other modules' names that held
    its old objects at the new ones (tests that did `from m import f`).
    drop_missing: a name the new module no longer defines is removed
    where others imported it, so using it fails as the import would have
    in a fresh interpreter.  Modules (`import heapq`) are shared by every
    module that imports them, litmus's own too: they never move.  What
    the old module imported from elsewhere is not dropped where others
    imported it too."""
    moved = {}
    module_name = new_dict.get("__name__")
    for name, value in old.items():
        # Immutable values may be shared or interned (small ints, strings,
        # None): matching them by identity would rewrite unrelated names.
        if value is None or isinstance(value, _SHARED_TYPES) or \
                isinstance(value, types.ModuleType):
            continue
        if name in new_dict:
            if new_dict[name] is not value:
                moved[id(value)] = new_dict[name]
        elif drop_missing and \
                not _imported_from_elsewhere(value, module_name):
            moved[id(value)] = _GONE
    if not moved:
        return
    for mod in _project_modules():
        d = getattr(mod, "__dict__", None)
        if not isinstance(d, dict) or d is new_dict:
            continue
        for name, value in list(d.items()):
            # A mutant may rebind a name to None: absence is _UNMOVED.
            repl = moved.get(id(value), _UNMOVED)
            if repl is _GONE:
                del d[name]
            elif repl is not _UNMOVED:
                d[name] = repl
    _rebind_params(moved)


def _rebind_params(moved):
    """The values pytest took at collection for parametrized tests
    (`parametrize("cls", [LRI, LRU])`, or in tuples of them) are the old
    objects too: each test's parameters are pointed at the new ones, as a
    fresh import and collection would have made them."""
    if shared.PYTEST_SESSION is None:
        return

    def new_value(v):
        repl = moved.get(id(v), _UNMOVED)
        if repl is not _UNMOVED and repl is not _GONE:
            return repl
        if type(v) in (tuple, list):
            items = [new_value(x) for x in v]
            if any(x is not y for x, y in zip(items, v)):
                return type(v)(items)
        return v

    for item in getattr(shared.PYTEST_SESSION, "items", ()):
        params = getattr(getattr(item, "callspec", None), "params", None)
        if not isinstance(params, dict):
            continue
        for name, value in list(params.items()):
            repl = new_value(value)
            if repl is not value:
                params[name] = repl


# What the import system put in a module's namespace, kept when a patch
# replaces the module's code; everything else comes from the patch alone.
_IMPORT_DUNDERS = frozenset(("__name__", "__file__", "__spec__", "__loader__",
                             "__package__", "__builtins__", "__path__",
                             "__cached__"))


def _install_loader_patch(path, code):
    """Any later import or reload of the file gets the mutated code, even
    through importlib machinery the tests drive themselves.  `code` may be
    the mutated source (bytes) instead: it is compiled on first use, so a
    child that swapped precompiled functions compiles nothing unless a
    test imports the file again."""
    from importlib import machinery
    real = _realpath(path)
    original_get_code = machinery.SourceFileLoader.get_code
    compiled = [code if not isinstance(code, bytes) else None]

    def get_code(self, fullname):
        if os.path.realpath(self.path) == real:
            if compiled[0] is None:
                compiled[0] = compile(code, path, "exec", dont_inherit=True)
            return compiled[0]
        return original_get_code(self, fullname)

    machinery.SourceFileLoader.get_code = get_code


def _apply_swap(subject, new_raw, swap):
    """Puts a mutant in place from the engine's swap payload: the changed
    function code objects, compiled and compared once in the planner.
    Returns an apply result, or None when the payload does not fit the
    live functions (the caller then compiles as usual)."""
    import marshal
    try:
        changed = marshal.loads(swap)
    except (ValueError, EOFError, TypeError):
        return None
    pairs = []
    for keypath, new_code in changed:
        if keypath == ("<rebind>",):
            # One module-level statement executed again in the imported
            # module: the engine found that nothing read what it binds
            # while the module and the tests were imported.
            for mod in subject.modules:
                try:
                    exec(new_code, mod.__dict__)
                except BaseException as exc:
                    return APPLY_RAISED, "%s: %s" % (type(exc).__name__, exc)
            _install_loader_patch(subject.path, new_raw)
            return APPLY_OK, "re-executed the mutated statement"
        funcs = subject.functions.get(keypath)
        if funcs:
            pairs.extend((f, new_code) for f in funcs)
        elif len(keypath) == 1 and _is_function_code(new_code):
            return None  # no live object: only re-execution places it
    done = []
    try:
        for f, new_code in pairs:
            old = f.__code__
            f.__code__ = new_code
            done.append((f, old))
    except ValueError:  # closure shape changed
        for f, old in done:
            f.__code__ = old
        return None
    _install_loader_patch(subject.path, new_raw)
    return APPLY_OK, "swapped %d function(s), precompiled" % len(pairs)


def apply_mutant(index, start, end, replacement, swap=b"", fresh=False):
    """Puts a change of subject `index` in place.  fresh: the change is a
    whole new file (a patch), so when the module must be re-executed it
    starts from an empty namespace, as a fresh import would: nothing the
    buggy file defined and the patch does not can linger."""
    subject = shared.SUBJECTS[index]
    src = subject.source
    raw = src.encode("utf-8")
    new_raw = raw[:start] + replacement.encode("utf-8") + raw[end:]
    if swap and subject.modules:
        res = _apply_swap(subject, new_raw, swap)
        if res is not None:
            return res
    new_src = new_raw.decode("utf-8", "surrogateescape")
    try:
        code = compile(new_src, subject.path, "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as exc:
        return APPLY_INVALID, "%s: %s" % (type(exc).__name__, exc)
    # A patch's file: code that only moved (lines added or removed above
    # it) is left as it is; re-executing the module for it would be a
    # fresh import's imitation where nothing changed.
    changed, structural = code_diff(subject.code, code, quick=True,
                                    positions=not fresh)
    if not changed:
        return APPLY_EQUIVALENT, ""
    _install_loader_patch(subject.path, code)
    if not subject.modules:
        return APPLY_OK, "not imported yet"
    need_exec = bool(structural)
    swaps = []
    if not need_exec:
        for keypath, new_code in changed.items():
            if keypath == ():
                continue
            funcs = subject.functions.get(keypath)
            if funcs:
                swaps.extend((f, new_code) for f in funcs)
            elif len(keypath) == 1 and _is_function_code(new_code):
                # A top-level function with no live object: only
                # re-executing the module can put the mutant in place.
                # (A class body here changed only below it: the methods
                # that changed are swapped on their own.)
                need_exec = True
    if not need_exec:
        try:
            for f, new_code in swaps:
                f.__code__ = new_code
            return APPLY_OK, "swapped %d function(s)" % len(swaps)
        except ValueError:
            need_exec = True  # closure shape changed
    for mod in subject.modules:
        old = dict(mod.__dict__)
        if fresh:
            for name in list(mod.__dict__):
                if name not in _IMPORT_DUNDERS:
                    del mod.__dict__[name]
        try:
            exec(code, mod.__dict__)
        except BaseException as exc:  # the mutant broke module-level code
            if fresh:
                # The module as it was: a candidate's other files may
                # yet come first and let this one execute.
                mod.__dict__.clear()
                mod.__dict__.update(old)
            return APPLY_RAISED, "%s: %s" % (type(exc).__name__, exc)
        if fresh:
            keep_after_reexec(old, mod.__dict__, subject.path)
        _rebind(old, mod.__dict__, drop_missing=fresh)
    return APPLY_OK, "re-executed module"


_CLASS_SKIP = frozenset(("__dict__", "__weakref__"))


def keep_after_reexec(old, new_dict, path):
    """After a patch's module (file path) was re-executed from an empty
    namespace, old being the namespace before: what the program already
    holds of it stays itself where the patch defines it again (classes,
    enumerations, functions, alike values), and what other modules
    registered in it is carried over."""
    _KEPT.clear()
    classes = _keep_classes(old, new_dict)
    _keep_values(old, new_dict, path)
    # The kept classes' attributes made anew by the re-execution (a class
    # attribute naming the module's sentinel) stand for the kept values.
    for cls in classes:
        for k, v in list(vars(cls).items()):
            if _kept(v) is not v:
                try:
                    type.__setattr__(cls, k, _kept(v))
                except (TypeError, AttributeError):
                    pass
    _keep_functions(old, new_dict)


def _keep_values(old, new_dict, path):
    """After a patch's module is re-executed: a module-level object it
    made again alike (a sentinel, `concat = "".join`, a settings object
    of the same attributes) stays the one the program already holds: the
    defaults and registries of other modules name it, and compare by
    identity (`value is missing`), as after a fresh import of the patch
    they would name the patch's.  Functions and classes are kept by
    their own rules."""
    for name, was in old.items():
        now = new_dict.get(name, _GONE)
        if now is _GONE or now is was or name in _IMPORT_DUNDERS or \
                isinstance(was, (types.FunctionType, type,
                                 types.ModuleType)) or \
                was is None or isinstance(was, _SHARED_TYPES):
            continue
        if _alike(was, now) and _adopt_class(was, now):
            new_dict[name] = was
            _KEPT[id(now)] = (now, was)
        elif type(was) is type(now) and type(was) in (set, list, dict):
            _carry_registrations(was, now, new_dict.get("__name__"), path)


def _adopt_class(was, now):
    """Gives was the class of now, when it is another (one class statement
    run twice): what the patch registered for its class (a copyreg
    reducer, a singledispatch entry) then applies to the kept object.
    False when Python refuses (another layout): the new object stands."""
    target = _kept(type(now))
    if type(was) is target:
        return True
    try:
        was.__class__ = target
    except TypeError:
        return False
    return True


def _foreign(v, module_name, path):
    """Whether v is another module's function, class or code: what that
    module registered at its import (a decorator's set of internal code
    objects), which re-executing this module alone does not redo."""
    if isinstance(v, types.CodeType):
        return v.co_filename != path
    if isinstance(v, (types.FunctionType, type)):
        return getattr(v, "__module__", module_name) != module_name
    return False


def _carry_registrations(was, now, module_name, path):
    """A module-level set, list or dict made again: what other modules put
    in the old one at their import (_foreign) goes into the new one, as
    their fresh import would have put it."""
    try:
        if type(was) is set:
            now.update(v for v in was if _foreign(v, module_name, path))
        elif type(was) is list:
            now.extend(v for v in was if _foreign(v, module_name, path) and
                       not any(v is x for x in now))
        else:
            for k, v in was.items():
                if k not in now and _foreign(v, module_name, path):
                    now[k] = v
    except Exception:  # unhashable or odd items: left as made
        pass


def _same_definition(a, b):
    """Whether two classes are one class statement run twice: the same
    name, bases and attributes, their functions of the same code (a patch
    that redefines the class, a singleton's __new__ added, is another)."""
    if a.__qualname__ != b.__qualname__ or a.__module__ != b.__module__ or \
            a.__bases__ != b.__bases__ or type(a) is not type(b):
        return False
    da = {k: v for k, v in vars(a).items() if k not in _CLASS_SKIP}
    db = {k: v for k, v in vars(b).items() if k not in _CLASS_SKIP}
    if da.keys() != db.keys():
        return False
    for k, x in da.items():
        y = db[k]
        fx, fy = getattr(x, "__func__", x), getattr(y, "__func__", y)
        if type(fx) is types.FunctionType and type(fy) is types.FunctionType:
            if type(x) is not type(y) or code_diff(
                    fx.__code__, fy.__code__, quick=True,
                    positions=False)[0]:
                return False
        elif not (x is y or (isinstance(x, _SHARED_TYPES) and
                             type(x) is type(y) and x == y)):
            return False
    return True


def _slot_state(obj):
    """The values of an object's slots, by name (unset ones left out)."""
    state = {}
    for cls in type(obj).__mro__:
        slots = cls.__dict__.get("__slots__", ())
        for name in (slots,) if isinstance(slots, str) else slots:
            if name not in ("__dict__", "__weakref__"):
                value = getattr(obj, name, _GONE)
                if value is not _GONE:
                    state[name] = value
    return state


def _alike(was, now):
    """Whether two module-level objects are one definition made twice:
    of one class, or of one class statement run twice, and the same state
    (their attributes the same objects, or equal plain values), or
    equal."""
    tw, tn = type(was), _kept(type(now))
    try:
        if tw is not tn and not _same_definition(tw, tn):
            return False
        dw = getattr(was, "__dict__", None)
        dn = getattr(now, "__dict__", None)
        if dw is None and dn is None and tw.__eq__ is object.__eq__:
            # An object of slots only (a typed key, `StashKey()`): its
            # slots are its state.
            dw, dn = _slot_state(was), _slot_state(now)
        if type(dw) is dict and type(dn) is dict:
            return dw.keys() == dn.keys() and all(
                dw[k] is dn[k] or (isinstance(dw[k], _SHARED_TYPES) and
                                   type(dw[k]) is type(dn[k]) and
                                   dw[k] == dn[k]) for k in dw)
        return type(was == now) is bool and was == now
    except Exception:  # an object that will not say
        return False

WRAPPED_DEPTH_MAX = 4  # decorators followed into a function's closure


def _keep_functions(old, new_dict):
    """After a patch's module is re-executed: each function it defines
    again keeps its identity, with the new definition's code, defaults
    and closure.  A reference taken at import elsewhere (a URL pattern's
    view, a registered callback, a signal's receiver) then runs the patch,
    as after a fresh import; rebinding names would leave it on the old
    code.  A decorator's closure is followed to the function it wraps."""
    module_name = new_dict.get("__name__")
    for name, was in old.items():
        now = new_dict.get(name)
        if type(was) is not types.FunctionType or \
                type(now) is not types.FunctionType or was is now or \
                was.__module__ != module_name or \
                now.__module__ != module_name or \
                was.__qualname__ != now.__qualname__:
            continue
        if _update_function(was, now, 0):
            new_dict[name] = was
            _KEPT[id(now)] = (now, was)
    # The module's own tables made by the re-execution (a dict of its
    # filters, a list of handlers) hold the functions kept in their
    # place: another module that takes the new table (rebound to it)
    # reaches the same function objects as the program's references.
    for v in list(new_dict.values()):
        if type(v) is dict:
            for k, x in list(v.items()):
                if _kept(x) is not x:
                    v[k] = _kept(x)
        elif type(v) is list:
            for i, x in enumerate(v):
                if _kept(x) is not x:
                    v[i] = _kept(x)
    if _KEPT:
        # A new function's too: its defaults (`base=Undefined`, made of
        # the class the re-execution defined before it was kept) and its
        # marks (set by the module's own decorators).
        for v in list(new_dict.values()):
            if type(v) is types.FunctionType:
                _remap_defaults(v)
                for k, x in list(v.__dict__.items()):
                    v.__dict__[k] = _kept(x)


def _remap_defaults(f):
    """A function's defaults made by the re-execution stand for the
    objects kept in their place."""
    if f.__defaults__ and any(_kept(d) is not d for d in f.__defaults__):
        f.__defaults__ = tuple(_kept(d) for d in f.__defaults__)
    if f.__kwdefaults__ and any(_kept(d) is not d
                                for d in f.__kwdefaults__.values()):
        f.__kwdefaults__ = {k: _kept(d) for k, d in f.__kwdefaults__.items()}


def _update_function(was, now, depth):
    """Gives was now's code, defaults and closure contents; False (was
    untouched) when their closures differ in shape."""
    if was.__code__.co_freevars != now.__code__.co_freevars:
        return False
    pairs = []
    for cw, cn in zip(was.__closure__ or (), now.__closure__ or ()):
        try:
            pairs.append((cw, cw.cell_contents, cn.cell_contents))
        except ValueError:  # an empty cell
            pairs.append((cw, None, None))
    was.__code__ = now.__code__
    was.__defaults__ = now.__defaults__
    was.__kwdefaults__ = now.__kwdefaults__
    _remap_defaults(was)
    for cell, a, b in pairs:
        if type(a) is types.FunctionType and type(b) is types.FunctionType \
                and depth < WRAPPED_DEPTH_MAX and a is not b and \
                a.__code__.co_filename == b.__code__.co_filename and \
                _update_function(a, b, depth + 1):
            continue  # the wrapped function, updated in place
        b = _kept(b)
        if a is not b:
            cell.cell_contents = b
    for k, v in now.__dict__.items():
        if k != "__wrapped__":
            was.__dict__[k] = _kept(v)
    return True


def _keep_classes(old, new_dict):
    """After a patch's module is re-executed: each class it defines again
    (same name, same kind, bases and slots) keeps its identity, its
    attributes replaced by the new definition's.  A subclass another
    module made at import (a test's conftest subclassing the package's
    app class) then inherits the patched methods, as it would after a
    fresh import; replacing the class would leave it on the old one."""
    module_name = new_dict.get("__name__")
    kept = {}  # id(new class) -> the class kept in its place
    for name, was in old.items():
        now = new_dict.get(name)
        if not isinstance(was, type) or not isinstance(now, type) or \
                was is now or was.__module__ != module_name or \
                now.__module__ != module_name or \
                was.__qualname__ != now.__qualname__:
            continue
        if _merge_enum(was, now) or _merge_class(was, now, kept):
            kept[id(now)] = was
            _KEPT[id(now)] = (now, was)
            new_dict[name] = was
    if _KEPT:
        for name, v in list(new_dict.items()):
            new_dict[name] = _kept(v)
    if kept:
        _retype_instances(new_dict, kept)
    return list(kept.values())


# id(a new object) -> (it, the object kept in its place): a class, an
# enumeration's member, a value made alike (the new one is held, so that
# its id is not another's).
_KEPT = {}


def _kept(v):
    e = _KEPT.get(id(v))
    return e[1] if e is not None and e[0] is v else v


def _merge_enum(was, now):
    """An enumeration defined again with the same members (names and
    values) stays the one whose members the program already holds (a
    mark its decorators set on functions at import: a template engine's
    pass-context flag); its methods become the new definition's, and the
    new members found later stand for the kept ones (_KEPT)."""
    import enum
    if not isinstance(was, enum.EnumMeta) or \
            not isinstance(now, enum.EnumMeta) or \
            type(was) is not type(now):
        return False
    try:
        old = [(k, m.value) for k, m in was.__members__.items()]
        new = [(k, m.value) for k, m in now.__members__.items()]
        if old != new:
            return False
        for k, v in now.__dict__.items():
            if k not in was.__members__ and k not in _CLASS_SKIP and \
                    isinstance(v, (types.FunctionType, classmethod,
                                   staticmethod, property)):
                type.__setattr__(was, k, v)
                _retarget_class_cell(v, now, was)
    except Exception:  # members that cannot be compared: a new class
        return False
    for k, m in now.__members__.items():
        _KEPT[id(m)] = (m, was.__members__[k])
    return True


def _retype_instances(new_dict, kept):
    """Objects the re-executed module made of a class that was then kept
    in the new one's place (`settings = _Settings()` at module level, or
    in a module-level list or dict) are of the dropped class: their
    methods' super() names the kept one, so they become its instances,
    as a fresh import would have made them."""
    def retype(v):
        new_cls = type(v)
        was = kept.get(id(new_cls))
        if was is None:
            return
        # Past the class's own __setattr__ (it may use super()): the
        # first one a built-in base defines (threading.local's, object's).
        for base in new_cls.__mro__:
            setter = base.__dict__.get("__setattr__")
            if setter is not None and \
                    not isinstance(setter, types.FunctionType):
                try:
                    setter(v, "__class__", was)
                except TypeError:  # another layout: left as it is
                    pass
                return
    for v in list(new_dict.values()):
        if isinstance(v, type):
            # A class the module's kept metaclass made, not kept itself:
            # the kept metaclass's methods' super() names that one.
            was = kept.get(id(type(v)))
            if was is not None and v not in kept.values():
                try:
                    v.__class__ = was
                except TypeError:
                    pass
            # Its attributes too (a descriptor the class body makes of a
            # kept class: `fields_cache = FieldsCacheDescriptor()`).
            for x in list(vars(v).values())[:1000]:
                retype(x)
            continue
        retype(v)
        if type(v) in (list, tuple, set, frozenset):
            for x in list(v)[:1000]:
                retype(x)
        elif type(v) is dict:
            for x in list(v.values())[:1000]:
                retype(x)


def _merge_class(was, now, kept):
    """Puts now's attributes on was; False (was untouched) when the two
    cannot be one class: another metaclass, other bases (a base kept in
    place of a new one counts as that one) or slots."""
    bases = tuple(kept.get(id(b), b) for b in now.__bases__)
    meta = type(was)
    # The metaclass: type or ABCMeta, or the module's own metaclass that
    # was itself kept (Django's ModelBase for its Model) and sets
    # attributes as type does.
    same_meta = meta is type(now) and meta in (type, _ABCMETA) or \
        kept.get(id(type(now))) is meta and meta.__setattr__ is \
        type.__setattr__
    if not same_meta or was.__bases__ != bases or \
            was.__dict__.get("__slots__") != now.__dict__.get("__slots__"):
        return False
    # The slots' descriptors stay the kept class's own (the same slots):
    # the new class's would not apply to the kept class's objects.
    slot_types = (types.MemberDescriptorType, types.GetSetDescriptorType)
    new_attrs = {k: v for k, v in now.__dict__.items()
                 if k not in _CLASS_SKIP and not isinstance(v, slot_types)}
    try:
        for k in [k for k, v in was.__dict__.items()
                  if k not in _CLASS_SKIP and k not in new_attrs and
                  not isinstance(v, slot_types)]:
            delattr(was, k)
        for k, v in new_attrs.items():
            if k in ("__module__", "__qualname__"):
                continue
            setattr(was, k, v)
            _retarget_class_cell(v, now, was)
    except (TypeError, AttributeError):
        return False
    return True


def _retarget_class_cell(value, now, was):
    """A method that uses super() or __class__ holds its class in a cell:
    the new class, which is dropped; it must be the one kept."""
    funcs = []
    f = getattr(value, "__func__", value)
    if isinstance(f, types.FunctionType):
        funcs.append(f)
    if isinstance(value, property):
        funcs.extend(g for g in (value.fget, value.fset, value.fdel)
                     if isinstance(g, types.FunctionType))
    for f in funcs:
        for var, cell in zip(f.__code__.co_freevars, f.__closure__ or ()):
            try:
                if var == "__class__" and cell.cell_contents is now:
                    cell.cell_contents = was
            except ValueError:  # an empty cell
                pass


class _NewFileFinder:
    """Finds the Python files a candidate adds (they exist only in the
    candidate): `import pkg.new` looks in pkg.__path__, a top-level
    `import new` in sys.path."""

    def __init__(self, files):
        self.files = files  # real path -> source text

    def find_spec(self, name, path=None, target=None):
        from importlib.util import spec_from_loader
        last = name.rpartition(".")[2]
        for entry in (path if path is not None else sys.path):
            if not isinstance(entry, str):
                continue
            base = os.path.join(os.path.realpath(entry or "."), last)
            for file, package in ((base + ".py", False),
                                  (os.path.join(base, "__init__.py"), True)):
                if file in self.files:
                    loader = _NewFileLoader(file, self.files[file], package)
                    spec = spec_from_loader(name, loader, origin=file,
                                            is_package=package)
                    spec.has_location = True
                    if package:
                        spec.submodule_search_locations = [base]
                    return spec
        return None


class _NewFileLoader:
    def __init__(self, path, text, package):
        self.path, self.text, self.package = path, text, package

    def create_module(self, spec):
        return None

    def is_package(self, fullname):
        return self.package

    def get_source(self, fullname):
        return self.text

    def exec_module(self, module):
        module.__file__ = self.path
        code = compile(self.text, self.path, "exec", dont_inherit=True)
        exec(code, module.__dict__)


def _import_order(items):
    """A candidate's changed modules, [(subject index or None, text)],
    in the order a fresh import executes them (import_order); entries
    without a subject are dropped."""
    items = [(i, src) for i, src in items if i is not None]
    modules = []
    for i, src in items:
        mods = shared.SUBJECTS[i].modules
        modules.append(({m.__name__ for m in mods},
                         package_of(mods[0]) if mods else "", src))
    return [items[k] for k in import_order(modules)]


def apply_files(files):
    """Puts a change of whole files in place (a repository candidate):
    each changed subject re-executed from its new text as a fresh import
    would (apply_mutant with fresh), each new Python file importable.
    files: [(path, text or None for a deleted file)].  Returns an apply
    status and text."""
    by_path = {s.path: i for i, s in enumerate(shared.SUBJECTS)}
    new = {}
    done = []
    for path, src in files:
        if src is not None and path.endswith(".py") and \
                _realpath(path) not in by_path and not os.path.exists(path):
            new[_realpath(path)] = src
    # New modules first: a changed module may import them.
    if new:
        sys.meta_path.insert(0, _NewFileFinder(new))
    # Syntax first, over every file: a candidate that does not compile is
    # invalid whatever order its files come in.
    for path, src in files:
        if src is not None and path.endswith(".py"):
            try:
                compile(src, path, "exec", dont_inherit=True)
            except (SyntaxError, ValueError) as exc:
                return APPLY_INVALID, "%s: %s (%s)" % (type(exc).__name__,
                                                      exc, path)
    order = _import_order([(by_path.get(_realpath(p)), src or "")
                           for p, src in files if p.endswith(".py")])
    # Each module once, in that order; one whose top level raised is
    # tried once more after the others (appended to the list walked).  A
    # module the run has no file for (one a fix adds, in a run of a tree
    # without the fix) is put in place empty (src ""), so that what
    # imported its names loses them, as a fresh interpreter would not
    # find them.
    pending, first = list(order), len(order)
    for at, (index, src) in enumerate(pending):
        path = shared.SUBJECTS[index].path
        raw = shared.SUBJECTS[index].source.encode("utf-8")
        status, text = apply_mutant(index, 0, len(raw), src, fresh=True)
        # The module's source is the patch's text now: what reads it by
        # line (inspect.getsource, a traceback) reads that, not the disk.
        linecache.cache[path] = (len(src), None, src.splitlines(True), path)
        if status == APPLY_EQUIVALENT:
            continue
        if status == APPLY_RAISED and at < first and \
                len(pending) - first < first - 1:
            # Its module-level code may need another file of the
            # candidate that the order put later (an import its text
            # does not show, or modules that import each other).
            pending.append((index, src))
            continue
        if status != APPLY_OK:
            return status, "%s (%s)" % (text, path)
        done.append(os.path.basename(path))
    done.extend(os.path.basename(p) + " (new)" for p in sorted(new))
    return APPLY_OK, "files: " + (", ".join(done) if done else "no code change")
