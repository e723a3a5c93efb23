# What every mode of call evaluation shares (calls.py): a call under a
# CPU-time limit, values told in a line or as JSON, a call's outcome, an
# object's state, and the kinds of plain values.  Compiled into the
# litmus binary as litmus_calls_values.  SPDX-License-Identifier: MIT
import collections
import dis
import inspect
import itertools
import json
import re
import signal
import threading
import types

import litmus_inputs


REPR_MAX = 2000


def _of_the_kind_of(fn, wrapper):
    """wrapper, or a function of fn's kind (generator, coroutine or
    asynchronous generator function) that calls it."""
    try:
        if inspect.isasyncgenfunction(fn):
            async def agen(*args, **kwargs):
                async for item in wrapper(*args, **kwargs):
                    yield item
            return agen
        if inspect.iscoroutinefunction(fn):
            async def coroutine(*args, **kwargs):
                return await wrapper(*args, **kwargs)
            return coroutine
        if inspect.isgeneratorfunction(fn):
            def generator(*args, **kwargs):
                return (yield from wrapper(*args, **kwargs))
            return generator
    except Exception:  # an object that will not say
        pass
    return wrapper


def wrapper_like(wrapper, fn, name):
    """Dresses a wrapper that stands in for the program's function fn
    (capturing or observing its calls) as fn: what the program reads off
    its functions (a template engine's pass-context mark, a command's
    parameters), its names, and its signature, which frameworks read
    without following __wrapped__ (pluggy takes a hook's arguments from
    inspect.getfullargspec: a wrapper of *args would be called with
    none).  A decorated fn keeps its own way of being read.  The wrapper
    is of fn's kind: a generator function's is one too (pluggy refuses a
    hook wrapper that is not), a coroutine function's a coroutine
    function (frameworks tell async views apart by it); for these the
    call is seen when the generator or coroutine starts."""
    wrapper = _of_the_kind_of(fn, wrapper)
    try:
        wrapper.__dict__.update(fn.__dict__)
    except (AttributeError, TypeError):
        pass
    wrapper.__wrapped__ = fn
    for attr, default in (("__name__", name), ("__qualname__", name),
                          ("__doc__", None), ("__module__", None)):
        try:
            value = getattr(fn, attr, default)
            if value is not None or attr == "__doc__":
                setattr(wrapper, attr, value)
        except (AttributeError, TypeError):
            pass
    if not hasattr(fn, "__wrapped__") and "__signature__" not in \
            getattr(wrapper, "__dict__", {}):
        try:
            wrapper.__signature__ = inspect.signature(fn)
        except (TypeError, ValueError):
            pass
    return wrapper


class CallTimeout(BaseException):
    """Raised by the CPU timer inside a call that ran too long."""


_TIMER_ARMED = [False]


def _on_timer(signum, frame):
    # A timer that fires as the call returns must not raise outside it.
    if _TIMER_ARMED[0]:
        raise CallTimeout()


# Set while a call reads an endless input (litmus_inputs.Endless): its
# result is read to at most this many items, and what it gave before a
# timeout is kept (CallTimeout.items_before).
ENDLESS_ITEMS = [None]
# Items of a returned iterator read at most: a generator without end on a
# test's input (iterate(f, start)) is compared on its first ones, not read
# until each side's memory or time runs out (doubling numbers: the longer
# reading of a slower side would end first).
GENERATOR_READ = 10000


def _timed(fn, seconds):
    """(status, value): status "ok", "raise" or "timeout" (its value the
    items read before it while ENDLESS_ITEMS is set, else None)."""
    signal.signal(signal.SIGPROF, _on_timer)
    _TIMER_ARMED[0] = True
    signal.setitimer(signal.ITIMER_PROF, max(seconds, 0.001))
    try:
        try:
            return "ok", fn()
        finally:
            _TIMER_ARMED[0] = False
            signal.setitimer(signal.ITIMER_PROF, 0)
    except CallTimeout as exc:
        return "timeout", getattr(exc, "items_before", None)
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


def builtin_iterator(v):
    """Whether v is a generator or a built-in iterator (itertools', map's,
    a list's): the program's own iterators are objects with attributes."""
    t = type(v)
    return isinstance(v, types.GeneratorType) or \
        t.__module__ in ("builtins", "itertools") and hasattr(t, "__next__")


_RAISE = dis.opmap["RAISE_VARARGS"]


def raise_statement_frame(exc):
    """The frame whose `raise` statement raised exc itself (raise
    ValueError(...): a program's decision, even of a built-in type), or
    None: Python's own operations refused (an issubclass() of an
    instance, a missing key), or an assert did (it states what a function
    takes)."""
    tb = getattr(exc, "__traceback__", None)
    if tb is None or isinstance(exc, AssertionError):
        return None
    while tb.tb_next is not None:
        tb = tb.tb_next
    raw = tb.tb_frame.f_code.co_code
    at = tb.tb_lasti
    if 0 <= at < len(raw) - 1 and raw[at] == _RAISE and raw[at + 1] >= 1:
        return tb.tb_frame
    return None


_USER_TYPES = (collections.UserList, collections.UserDict,
               collections.UserString)


def _iterator_repr(v):
    """A sequence's built-in iterator as the call that makes it, with the
    items it has left (iter('def')), read from its pickling state without
    advancing it; None for any other value."""
    t = type(v)
    if t.__module__ != "builtins" or not hasattr(t, "__next__"):
        return None
    try:
        how = v.__reduce__()
        if how[0] is not iter or len(how[1]) != 1:
            return None
        seq = how[1][0]
        pos = how[2] if len(how) > 2 else 0
        if type(seq) not in (str, bytes, list, tuple, range):
            return None
        return "iter(%s)" % _short_repr(seq[pos:])
    except Exception:
        return None


def _short_repr(v):
    shown = _iterator_repr(v)
    if shown is not None:
        return _clip(shown)
    if type(v) in _USER_TYPES:
        # Shown as what it is: its repr is its data's, a list's.
        return _clip("%s(%s)" % (type(v).__name__, _short_repr(v.data)))
    try:
        r = repr(v)
    except BaseException as exc:  # a hostile __repr__
        if type(v) in (tuple, list) and len(v) <= 20:
            # Item by item: one that cannot show itself (the blank
            # receiver of an __init__) hides no other.
            parts = [_short_repr(x) for x in v]
            r = ("(%s%s)" if type(v) is tuple else "[%s%s]") % (
                ", ".join(parts), "," if len(parts) == 1 and
                type(v) is tuple else "")
        else:
            r = "<unrepresentable %s: %s>" % (type(v).__name__,
                                              type(exc).__name__)
    return _clip(r)


_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def without_addresses(text):
    """A repr with its objects' addresses left out: two copies of one
    value (each side's, each run's) are told alike."""
    return _ADDRESS.sub("", text)


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


_LOCK, _RLOCK = type(threading.Lock()), type(threading.RLock())


_PLAIN = (int, str, bytes, bool, type(None), complex)
_NUMBERS = (bool, int, float, complex)
_SETS = (set, frozenset)


def _mapping_types():
    import collections
    return (dict, collections.OrderedDict, collections.defaultdict,
            collections.Counter)


_MAPPINGS = _mapping_types()


_NO_STATE = object()
_PACKAGE = [False]  # set by diff_main for a repository candidate's file


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


_MISSING = object()

WRAPPED_DEPTH_MAX = 8


def own_function(v, path):
    """The function the file at path defines that v is: v itself, or the
    one a decorator keeping __wrapped__ wraps (functools.wraps, a cache:
    Django's keep_lazy, lru_cache).  Calls of v are the file's function's
    calls; v is what callers (and each side's module) hold.  None when
    path does not define it."""
    for _ in range(WRAPPED_DEPTH_MAX):
        if isinstance(v, types.FunctionType):
            if v.__code__.co_filename == path:
                return v
            v = v.__dict__.get("__wrapped__")
        elif type(v).__name__ == "_lru_cache_wrapper":
            v = getattr(v, "__wrapped__", None)
        else:
            return None
    return None


def _force(v):
    """Generators and iterators are consumed inside the timed call, and a
    coroutine is run to its end in an event loop of its own (an async
    view's response is what it returns, not the coroutine object).  A
    callback's error (litmus_inputs.CallbackError) that ends the reading
    says how many items came before it: when the callback was called."""
    if isinstance(v, types.CoroutineType):
        import asyncio
        loop = asyncio.new_event_loop()
        try:
            return loop.run_until_complete(v)
        finally:
            loop.close()
    if isinstance(v, types.GeneratorType) or \
            (hasattr(type(v), "__next__") and hasattr(type(v), "__iter__")):
        items = []
        cap = ENDLESS_ITEMS[0]
        try:
            if cap is None:
                items.extend(itertools.islice(v, GENERATOR_READ))
            else:
                # One at a time: the items before a timeout are kept.
                for x in itertools.islice(v, cap):
                    items.append(x)
        except litmus_inputs.CallbackError as exc:
            exc.items_before = len(items)
            raise
        except CallTimeout as exc:
            if cap is not None:
                exc.items_before = items
            raise
        return items
    return v
