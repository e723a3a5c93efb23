# Call evaluation in a litmus child: capture of the calls tests make into
# the subject, differential testing of a candidate against a reference
# fix, and evaluation of call expressions on a program (datasets).  Runs
# in the embedded interpreter of a zygote, imported once before the
# zygote forks; everything here runs in a sandboxed child.  Results leave
# through `_litmus` frames only.  SPDX-License-Identifier: MIT
import base64
import copy
import itertools
import json
import pickle
import signal
import sys
import time
import types

import _litmus

REPR_MAX = 2000


class CallTimeout(BaseException):
    """Raised by the CPU timer inside a call that ran too long."""


def _on_timer(signum, frame):
    raise CallTimeout()


def _timed(fn, seconds):
    """(status, value): status "ok", "raise" or "timeout"."""
    signal.signal(signal.SIGPROF, _on_timer)
    signal.setitimer(signal.ITIMER_PROF, max(seconds, 0.001))
    try:
        return "ok", fn()
    except CallTimeout:
        return "timeout", None
    except RecursionError as exc:
        return "raise", exc
    except Exception as exc:
        return "raise", exc
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)


def _short_repr(v):
    try:
        r = repr(v)
    except BaseException as exc:  # a hostile __repr__
        r = "<unrepresentable %s: %s>" % (type(v).__name__,
                                          type(exc).__name__)
    if len(r) > REPR_MAX:
        r = r[:REPR_MAX] + "..."
    return r


def _jsonable(v, depth=0):
    """The value as JSON data when it is plain data, else raises."""
    if depth > 20:
        raise ValueError("too deep")
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
        return {"exception": type(value).__name__,
                "repr": _short_repr(value)}
    return {"value": _as_json(value), "repr": _short_repr(value),
            "type": type(value).__name__}


# --- capture -------------------------------------------------------------

_depth = [0]
_captured = set()
CAPTURE_MAX = 5000


def _wrap(fn, name):
    def capture(*args, **kwargs):
        if _depth[0] == 0 and len(_captured) < CAPTURE_MAX:
            try:
                blob = base64.b64encode(
                    pickle.dumps((name, args, kwargs), protocol=4)).decode()
            except Exception:
                blob = None
            if blob and blob not in _captured:
                _captured.add(blob)
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


def install_capture(path, modules, project_modules):
    """Wraps the subject's top-level functions, in its module and in every
    project module that imported them, so that each outermost call from
    the tests is sent as a CALL frame (pickled arguments)."""
    moved = {}
    for mod in modules:
        d = mod.__dict__
        for name, value in list(d.items()):
            if isinstance(value, types.FunctionType) and \
                    value.__code__.co_filename == path:
                w = _wrap(value, name)
                moved[id(value)] = w
                d[name] = w
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

_PLAIN = (int, str, bytes, bool, type(None), complex)


def same(a, b, depth=0):
    """Exact type and value.  Objects of the program's own classes (loaded
    twice, once per side) compare by class name and attributes."""
    if depth > 50:
        return True
    ta, tb = type(a), type(b)
    if ta is not tb:
        if ta.__qualname__ == tb.__qualname__ and \
                ta.__module__ == tb.__module__ and \
                hasattr(a, "__dict__") and hasattr(b, "__dict__"):
            return same(vars(a), vars(b), depth + 1)
        return False
    if ta in _PLAIN:
        return a == b
    if ta is float:
        return a == b or (a != a and b != b)
    if ta in (list, tuple):
        return len(a) == len(b) and all(
            same(x, y, depth + 1) for x, y in zip(a, b))
    if ta is dict:
        if len(a) != len(b):
            return False
        for k, v in a.items():
            if k not in b or not same(v, b[k], depth + 1):
                return False
        return True
    if ta in (set, frozenset):
        return a == b
    if isinstance(a, types.GeneratorType) or hasattr(ta, "__next__"):
        la = list(itertools.islice(a, 100000))
        lb = list(itertools.islice(b, 100000))
        return same(la, lb, depth + 1)
    if hasattr(a, "__dict__") and hasattr(b, "__dict__") and \
            ta.__eq__ is object.__eq__:
        return same(vars(a), vars(b), depth + 1)
    try:
        return bool(a == b)
    except Exception:
        return False


def _materialise(status, value):
    """Generators are consumed under the same timer as the call."""
    return status, value


# --- derived inputs ------------------------------------------------------

def _variants(v, depth=0):
    """Simple variations of one argument that keep its type: integers +-1
    and boundaries, sequences shortened, extended, reordered or emptied,
    and the same one level down (an element of a list, a value of a
    dict: a graph's neighbour list reordered, say)."""
    t = type(v)
    out = []
    if t is int:
        out = [v + 1, v - 1, 0, 1, -1]
    elif t is float:
        out = [v + 1.0, v - 1.0, 0.0, -v]
    elif t is str:
        out = [v[:-1], v[1:], v + v[-1], v[::-1], ""] if v else ["a"]
    elif t in (list, tuple):
        items = list(v)
        cand = []
        if items:
            cand += [items[:-1], items[1:], items + [items[-1]],
                     items[::-1], items[1:] + items[:1], []]
            if all(type(x) is int for x in items):
                cand.append(items + [max(items) + 1])
                cand.append(items + [min(items) - 1])
                cand.append(sorted(items))
            if depth == 0:
                for i, x in enumerate(items[:10]):
                    for nx in _variants(x, depth + 1)[:6]:
                        cand.append(items[:i] + [nx] + items[i + 1:])
        out = [t(c) for c in cand]
    elif t is dict:
        if v:
            keys = list(v)
            out = [{}, {k: v[k] for k in reversed(keys)}]
            if depth == 0:
                for k in keys[:20]:
                    for nx in _variants(v[k], depth + 1)[:6]:
                        d = dict(v)
                        d[k] = nx
                        out.append(d)
    elif t in (set, frozenset):
        out = [t()] if v else []
    return [x for x in out if not (type(x) is type(v) and _quiet_eq(x, v))]


def _quiet_eq(a, b):
    try:
        return a == b and list(a) == list(b) if type(a) is dict else a == b
    except Exception:
        return False


def derive(args):
    """Argument tuples that differ from args in one position."""
    for i, a in enumerate(args):
        for nv in _variants(a):
            yield args[:i] + (nv,) + args[i + 1:]


# --- differential testing ------------------------------------------------

def _load(source, path, name):
    mod = types.ModuleType(name)
    mod.__file__ = path
    code = compile(source, path, "exec", dont_inherit=True)
    exec(code, mod.__dict__)
    return mod


def _pickle_key(args, kwargs):
    try:
        return pickle.dumps((args, kwargs), protocol=4)
    except Exception:
        return repr((args, kwargs)).encode()


def diff_main(job):
    path, name = job["path"], job.get("module") or "subject"
    limit = float(job.get("call_timeout", 1.0))
    max_inputs = int(job.get("max_inputs", 3000))
    ref = _load(job["reference"], path, name)
    cand = _load(job["candidate"], path, name)

    inputs = []  # (origin, function, args, kwargs)
    counts = {}
    for blob, origin in zip(job.get("captured", []),
                            job.get("captured_origin", [])):
        try:
            fname, args, kwargs = pickle.loads(base64.b64decode(blob))
        except Exception:
            continue
        inputs.append((origin, fname, tuple(args), dict(kwargs)))
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
        inputs.append(("inputs", fname, tuple(item.get("args", [])),
                       dict(item.get("kwargs") or {})))
    if job.get("derive", True):
        base = [x for x in inputs]
        for origin, fname, args, kwargs in base:
            for dargs in derive(args):
                inputs.append(("derived", fname, dargs, kwargs))

    seen = set()
    compared = skipped = 0
    by_origin = {}
    for index, (origin, fname, args, kwargs) in enumerate(inputs):
        if compared + skipped >= max_inputs:
            break
        key = (fname, _pickle_key(args, kwargs))
        if key in seen:
            continue
        seen.add(key)
        rf, cf = getattr(ref, fname, None), getattr(cand, fname, None)
        if not callable(rf):
            skipped += 1
            continue
        try:
            a1, k1 = copy.deepcopy((args, kwargs))
            a2, k2 = copy.deepcopy((args, kwargs))
        except Exception:
            skipped += 1
            continue
        _litmus.probe(index, 0)
        rs, rv = _timed(lambda: _force(rf(*a1, **k1)), limit)
        if origin == "derived" and rs != "ok":
            skipped += 1  # outside the reference's domain
            continue
        if rs == "timeout":
            skipped += 1
            continue
        _litmus.probe(index, 1)
        if not callable(cf):
            cs, cv = "raise", AttributeError("no function %s" % fname)
        else:
            cs, cv = _timed(lambda: _force(cf(*a2, **k2)), limit)
        compared += 1
        by_origin[origin] = by_origin.get(origin, 0) + 1
        if rs == cs == "ok":
            if _litmus.equal_to_anything(cv):
                _litmus.tamper("returned a %s that compares equal to "
                               "anything" % type(cv).__name__)
            agree = same(rv, cv)
        elif rs == cs == "raise":
            agree = type(rv).__name__ == type(cv).__name__
        else:
            agree = False
        if not agree:
            _litmus.record(json.dumps({
                "type": "witness", "origin": origin, "function": fname,
                "index": index,
                "input": _as_json(list(args)) if not kwargs else None,
                "input_repr": _short_repr(args if not kwargs
                                          else (args, kwargs)),
                "reference": _outcome(rs, rv),
                "candidate": _outcome(cs, cv)}))
            break
    _litmus.record(json.dumps({"type": "summary", "compared": compared,
                               "skipped": skipped, "by_origin": by_origin,
                               "inputs": len(inputs)}))


def _force(v):
    """Generators and iterators are consumed inside the timed call."""
    if isinstance(v, types.GeneratorType) or \
            (hasattr(type(v), "__next__") and hasattr(type(v), "__iter__")):
        return list(itertools.islice(v, 100000))
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
    job = json.loads(extra)
    kind = job.get("kind")
    if kind == "diff":
        diff_main(job)
    elif kind == "cases":
        cases_main(job)
    else:
        raise ValueError("unknown call job %r" % (kind,))
