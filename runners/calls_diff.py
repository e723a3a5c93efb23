# Differential testing (calls.py's second mode, diff_main): a candidate
# against a reference fix on the captured calls, then on inputs derived
# from them and generated, with a witness shrunk when they disagree.
# Compiled into the litmus binary as litmus_calls_diff.
# SPDX-License-Identifier: MIT
import base64
import copy
import heapq
import itertools
import json
import math
import pickle
import sys
import time
import types

import _litmus
import litmus_inputs
from litmus_codediff import import_order
from litmus_calls_values import (
    ENDLESS_ITEMS, _MISSING, _PACKAGE, _PLAIN, _as_json, _clip, _force,
    _outcome, _short_repr, _timed, builtin_iterator, own_function,
    raise_statement_frame, without_addresses)
from litmus_calls_capture import (
    _NOT_CAPTURED, _Receiver, _SIDE_MODULE, _SideUnpickler, _copy_changed,
    _copy_inputs, _dumps, _name_side_globals, _side_function)
from litmus_calls_compare import (
    _foreign_state, _globals_delta, _globals_view, _restore_globals,
    _same_delta, compare, difference, note_apart, same)


# --- differential testing ------------------------------------------------
#
# A candidate is compared with the reference fix on the inputs the tests
# gave (captured calls), the held-out tests' and the user's inputs, then
# on inputs derived from them by type and shape (one change at a time,
# other combinations of the objects the tests built, an argument of one
# call in another's place) and on inputs that
# hypothesis generates from the same shapes, every derived input inside
# the contract the tests' inputs show (litmus_inputs.Contract).  The
# first difference is shrunk to a minimal input and sent as the witness.

WITNESS_SHRINK_S = 2.0   # CPU seconds spent shrinking a witness at most
SLOW_NOTE_FACTOR = 10.0  # a patch this much slower than the reference...
# A candidate's call that timed out is run again with this many times
# its limit before it counts as not finishing.
CONFIRM_FACTOR = 2.0
SLOW_NOTE_MIN_S = 0.005  # ... on a call of at least this long is noted
CROSSED_MAX = 16         # inputs per given one with an argument of another
                         # call of the tests (_crossed)


class _Disagree(Exception):
    """Raised inside the hypothesis test on a difference, so that
    hypothesis shrinks the input."""


class _Enough(BaseException):
    """Ends the hypothesis test at once, without shrinking (hypothesis
    lets a BaseException that is no Exception through)."""


REPEATS_ENOUGH = 40  # generated inputs already compared, in a row
DERIVE_QUANTUM_S = 0.05  # CPU time of one turn of a derived stream
OUTSIDE_TRIED = 4    # inputs outside the contract run for the note
ENDLESS_READ = 20    # items of a result read from an endless input


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
    if not others:
        return _load(source, path, name)
    texts = [(name, path, source)] + list(others)
    order = import_order([
        ({m}, m if p.endswith("__init__.py") else m.rpartition(".")[0],
         text) for m, p, text in texts])
    # Each module is executed with the side's modules executed before it
    # in sys.modules, as a fresh import would find them: a name the fix
    # adds to one and imports in another is there.
    loaded, saved = {}, {}
    try:
        for k in order:
            m, p, text = texts[k]
            loaded[k] = _load(text, p, m)
            saved.setdefault(m, sys.modules.get(m))
            sys.modules[m] = loaded[k]
    finally:
        for m, was in saved.items():
            if was is None:
                sys.modules.pop(m, None)
            else:
                sys.modules[m] = was
    mods = [(texts[k][0], loaded[k]) for k in range(len(texts))]
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


def _broken(v):
    """Whether value v fails to show itself (its repr raises)."""
    try:
        repr(v)
    except Exception:
        return True
    return False


def _describe(args, kwargs):
    """The input as a reader checks it: plain values as repr, the program's
    objects as numbered nodes with their attributes (a graph once)."""
    nodes = litmus_inputs.reachable_objects((args, kwargs))
    if not nodes:
        return without_addresses(
            _short_repr(args if not kwargs else (args, kwargs)))
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
        return without_addresses(_short_repr(v))[:80]
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
        reference's domain: "skip"), else a witness dict.  With an
        endless input (litmus_inputs.Endless), each side's result is read
        to ENDLESS_READ items at most."""
        endless = any(type(a) is litmus_inputs.Endless
                      for a in tuple(args) + tuple(kwargs.values()))
        ENDLESS_ITEMS[0] = ENDLESS_READ if endless else None
        try:
            return self._judge(fname, args, kwargs, origin)
        finally:
            ENDLESS_ITEMS[0] = None

    def _judge(self, fname, args, kwargs, origin):
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
        if rs == "timeout" and rv and callable(cf):
            # An endless input the reference reads lazily, until it needs
            # the rest (split after a last separator): the items it gave
            # first are its result, which the candidate must give too.
            return self._judge_prefix(origin, fname, args, kwargs, rv, rt)
        refused = not given and rs == "raise" and _refused_here(rv, self.ref)
        if rs == "timeout" or (not given and rs != "ok" and not isinstance(
                rv, litmus_inputs.CallbackError) and not refused):
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
            # Confirmed with twice the limit: "does not finish" is then
            # no patch that is only a little over it (an exponential
            # correct one), and a hang costs one limit more.  The
            # engine's watchdog allows a probe three of its limits.
            _litmus.probe(self.index, 2 if larger else 1 if given else 3)
            cs, cv, ct, ca = self._call(cf, args, kwargs,
                                        CONFIRM_FACTOR * climit,
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
                if self._unstable(rf, args, kwargs, rlimit):
                    return "skip"
                return self._witness(origin, fname, args, kwargs, rs, rv,
                                     cs, cv)
            # The arguments after the call are a part of the result: an
            # in-place algorithm's, and a patch's that changes what the
            # reference leaves alone (the caller's list).
            # A result that is a mutable argument itself (or holds it)
            # on one side only: the caller's list aliased by the result.
            rs_, cs_ = _shared(rv, ra), _shared(cv, ca)
            if rs_ != cs_:
                if self._unstable(rf, args, kwargs, rlimit):
                    return "skip"
                return self._witness(origin, fname, args, kwargs, rs, rv,
                                     cs, cv, shared=(rs_, cs_))
            ra, ca, read_apart = _left_items(ra, ca)
            if read_apart and rv is not None:
                # The same result from an iterator read further on one
                # side (a loop that stops at the first true item where
                # the other stops before reading): how far a function
                # reads its input is how lazily it computes, unless
                # reading it is all it does (it returns None).
                for i in read_apart:
                    ra[i] = ca[i] = None
            eq, after_note = compare(ra, ca)
            if not eq:
                if self._unstable(rf, args, kwargs, rlimit):
                    return "skip"
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
        if refused and cs != "ok":
            # The reference's own raise statement refuses this derived
            # input (a length it checks): a candidate that refuses it too,
            # in its own words, agrees; one that returns accepts what the
            # fix rejects.
            return None
        if rs == cs == "raise":
            if type(rv).__name__ == type(cv).__name__ and \
                    getattr(rv, "items_before", None) == \
                    getattr(cv, "items_before", None):
                return None
        if cs == "raise" and not (args and isinstance(args[0], _Receiver)) \
                and _foreign_state(cv, ca):
            return "skip"
        if rs == "ok" and cs == "raise" and not given and _broken(rv):
            # The reference returns an object that cannot even show
            # itself on this derived input (a width of -1 bits): outside
            # its domain; a candidate that refuses the input is no worse.
            return "skip"
        return self._witness(origin, fname, args, kwargs, rs, rv, cs, cv)

    def _unstable(self, rf, args, kwargs, limit):
        """Whether the reference, called twice more on the same input,
        gives two results, or leaves the arguments, that differ (a fresh
        object each call, unequal to the last: a unique symbol, a counter,
        the time): a difference from the candidate is then no witness.
        (Twice more, not once: the first call's result may hold iterators
        the comparison with the candidate's has read.)"""
        kept = self.delta
        _litmus.probe(self.index, 0)
        try:
            s1, v1, _, a1 = self._call(rf, args, kwargs, limit, self.ref)
            s2, v2, _, a2 = self._call(rf, args, kwargs, limit, self.ref)
        except Exception:
            return True
        finally:
            self.delta = kept
        return s1 != "ok" or s2 != "ok" or not compare(v1, v2)[0] or \
            not compare(a1, a2)[0]

    def _judge_prefix(self, origin, fname, args, kwargs, prefix, rt):
        """The reference gave the items prefix of an endless input's
        result before its limit: the candidate is read to as many items.
        A candidate that gives none of them (it reads its whole input
        first) or others is a witness; one that gives fewer in its longer
        limit is only slower."""
        cf = _side_function(self.cand, fname)
        climit = max(self.call_limit, self.factor * rt + self.const,
                     self.factor * self.own_s)
        ENDLESS_ITEMS[0] = len(prefix)
        _litmus.probe(self.index, 3)
        try:
            cs, cv, _, _ = self._call(cf, args, kwargs, climit, self.cand)
            if cs == "timeout" and not cv:
                _litmus.probe(self.index, 3)
                cs, cv, _, _ = self._call(cf, args, kwargs, climit,
                                          self.cand)  # confirm
        except Exception:
            return "skip"
        if cs == "timeout" and not cv:
            return self._witness(origin, fname, args, kwargs, "ok", prefix,
                                 "timeout", None)
        got = cv if cs in ("ok", "timeout") and isinstance(cv, list) \
            else None
        if got is None:
            return self._witness(origin, fname, args, kwargs, "ok", prefix,
                                 cs, cv)
        n = min(len(got), len(prefix))
        eq, _ = compare(prefix[:n], got[:n])
        if not eq:
            return self._witness(origin, fname, args, kwargs, "ok",
                                 prefix[:n], "ok", got[:n])
        return None

    @staticmethod
    def _witness(origin, fname, args, kwargs, rs, rv, cs, cv, after=None,
                 module=None, shared=None):
        w = {"type": "witness", "origin": origin, "function": fname,
             "input": _as_json(list(args)) if not kwargs else None,
             "input_repr": _describe(args, kwargs),
             "reference": _outcome(rs, rv), "candidate": _outcome(cs, cv),
             "timeout": cs == "timeout",
             "_args": args, "_kwargs": kwargs}
        if after is not None:
            # Where they differ, as a path into the arguments: an
            # object's repr alone hides which of its attributes it is.
            path, ra, ca = difference(after[0], after[1])
            w["arguments_after"] = {
                "reference": "%s%s%s" % (path, " = " if path else "",
                                         _short_repr(ra)),
                "candidate": "%s%s%s" % (path, " = " if path else "",
                                         _short_repr(ca))}
        if shared is not None:
            w["result_shares"] = {"reference": shared[0] or "nothing",
                                  "candidate": shared[1] or "nothing"}
        if module is not None:
            def changes(d):
                return ", ".join("%s=%s" % (k, _short_repr(v[1]))
                                 for k, v in sorted(d.items())) or \
                    "unchanged"
            w["module_after"] = {"reference": changes(module[0]),
                                 "candidate": changes(module[1])}
        return w


def _refused_here(exc, side):
    """Whether a raise statement of the side's own file raised exc (not
    an assert, a TypeError or an AttributeError, and not Python refusing
    an operation): the fix's decision that the input is invalid.  In a
    repository candidate's run, a raise statement of any module of the
    side's package is the project's decision too (a lookup the changed
    function leaves to a helper of another file: jinja's "no test
    named")."""
    if isinstance(exc, (TypeError, AttributeError, RecursionError)):
        return False
    frame = raise_statement_frame(exc)
    if frame is None:
        return False
    if frame.f_globals is vars(side):
        return True
    if not _PACKAGE[0]:
        return False
    where = frame.f_globals.get("__name__")
    root = side.__name__.split(".")[0]
    return isinstance(where, str) and where.split(".")[0] == root


_MUTABLE = (list, dict, set, bytearray)


def _shared(result, args):
    """Which mutable argument (a list, dict, set or bytearray) the result
    is, or holds as an item: "argument N", "argument N as an item", or ""
    for none."""
    for i, a in enumerate(args):
        if type(a) not in _MUTABLE:
            continue
        if result is a:
            return "argument %d" % (i + 1)
        if type(result) in (list, tuple) and \
                any(x is a for x in result[:1000]):
            return "argument %d as an item" % (i + 1)
    return ""


def _left_items(ra, ca):
    """The two sides' arguments after a call, each iterator among them
    read to what it has left (a list); and the positions where one side's
    list is a proper tail of the other's: the same input read further."""
    def read(v):
        if builtin_iterator(v):
            try:
                return list(itertools.islice(v, 100000)), True
            except Exception:
                return v, False
        return v, False
    ra, ca = list(ra), list(ca)
    apart = []
    for i in range(min(len(ra), len(ca))):
        ra[i], r_it = read(ra[i])
        ca[i], c_it = read(ca[i])
        if r_it and c_it and len(ra[i]) != len(ca[i]):
            short, long_ = sorted((ra[i], ca[i]), key=len)
            if same(short, long_[len(long_) - len(short):]):
                apart.append(i)
    return ra, ca, apart


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
        if isinstance(v, type):
            return v.__module__ == mod_name
        return own_function(v, path) is not None

    def codes(v):
        if not isinstance(v, type):
            f = own_function(v, path)
            return [f.__code__] if f is not None else []
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
                if x.co_name != y.co_name or code_diff(x, y, quick=True,
                                                      positions=False)[0]:
                    return True
            if not isinstance(a, type):
                a, b = own_function(a, path), own_function(b, path)
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
                        code_diff(fa.__code__, fb.__code__, quick=True,
                                  positions=False)[0] \
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
    clock_start = time.process_time()
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
        f = own_function(v, path)
        if f is not None:
            litmus_inputs.constants_of(f.__code__, consts)
    cand = _load_side(job["candidate"], path, name,
                      [(m, p, c) for m, p, _, c in also])
    if _PACKAGE[0]:
        _name_side_globals(ref, cand)
        note_apart(ref, cand)
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
                  if not k.startswith("_") and
                  own_function(v, path) is not None]
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

    search = _Search(cmp, functions, budget, max_inputs, clock_start)

    # 1. The inputs the tests, the held-out tests and the user gave: no
    # budget, they are the suite's own.
    for origin, fname, args, kwargs in given:
        if search.try_input(origin, fname, args, kwargs,
                            check_contract=False):
            break
    # Generated inputs may cost the reference at most a few times its
    # slowest given call, and a fifth of the budget: an exponential
    # program stays in the range the tests exercise, and one input cannot
    # spend the whole budget.
    given_s = search.spent()
    search.restart_clock()
    cmp.gen_ref_limit = min(cmp.call_limit, max(0.1, 3.0 * cmp.max_given_s),
                            max(0.1, 0.2 * budget))

    # 2. Values one change away, other combinations of the tests' objects.
    derive = job.get("derive", True) and budget > 0
    if search.witness is None and derive:
        search.derive_in_turns()

    # 3. Inputs hypothesis generates from the same shapes, shrunk by it.
    gen_note = None
    if search.witness is None and hyp is not None and derive:
        gen_note = _generate(hyp, st, search,
                             lambda: search.spent() > 0.9 * budget,
                             int(job.get("max_examples", 300)))
    elif hyp is None and derive:
        gen_note = "hypothesis is not importable (%s): no generated " \
                   "inputs" % hyp_missing

    w = search.witness
    if w is not None and not w.get("shrunk") and not w["timeout"] and \
            w["origin"] not in ("test", "held_out", "inputs"):
        w = _shrink(cmp, functions, w,
                    t_limit=search.spent() + WITNESS_SHRINK_S,
                    spent=search.spent)
    changed = _snapshot_changed(watched)
    if changed:
        _litmus.tamper("changed %s, a part of litmus's input generator"
                       % changed)
    _send_findings(cmp, functions, w, search.outside_witness)
    _litmus.record(json.dumps({
        "type": "summary", "compared": search.compared,
        "skipped": search.skipped, "outside_contract": search.outside,
        "by_origin": search.by_origin, "inputs": len(search.judged),
        "cpu_s": round(given_s + search.spent(), 3),
        "given_cpu_s": round(given_s, 3), "budget_s": budget,
        "contracts": {f: fn.contract.describe()
                      for f, fn in sorted(functions.items())},
        "generator": ("hypothesis %s" % hyp.__version__) if hyp else None,
        "note": gen_note}))


class _Search:
    """One differential search over a candidate's functions: the inputs
    judged so far and their answers, the counts the summary reports, the
    witness found, and the budget's clock (CPU time since start)."""

    def __init__(self, cmp, functions, budget, max_inputs, start):
        self.cmp, self.functions = cmp, functions
        self.budget, self.max_inputs = budget, max_inputs
        self.start = start
        self.judged = {}        # input -> its witness, or None
        self.n_judged = 0       # inputs judged, repeats of one included
        self.compared = self.skipped = self.outside = 0
        self.by_origin = {}
        self.witness = None
        self.outside_witness = None

    def spent(self):
        """CPU seconds spent since the clock's start: on inputs beyond
        the given ones once restart_clock ran (the budget's part)."""
        return time.process_time() - self.start

    def restart_clock(self):
        self.start = time.process_time()

    def try_input(self, origin, fname, args, kwargs, check_contract=True):
        """Compares one input; True when a witness ends the search."""
        if self.compared + self.skipped >= self.max_inputs:
            return False
        key = (fname, _pickle_key(args, kwargs))
        if key in self.judged:
            # The same input again (hypothesis replays its minimal
            # example): the same answer, without running it twice.
            if self.judged[key] is None:
                return False
            self.witness = self.judged[key]
            return True
        self.judged[key] = None
        self.n_judged += 1
        fn = self.functions.get(fname)
        if check_contract and fn is not None and \
                not fn.contract.ok(args, kwargs):
            self.outside += 1
            # A few are run, for the note (not many: on inputs outside
            # its contract a reference often loops until its limit).
            if self.outside_witness is None and \
                    self.outside <= OUTSIDE_TRIED and \
                    self.spent() < 0.5 * self.budget:
                w = self.cmp.judge(fname, args, kwargs, origin)
                if isinstance(w, dict):
                    self.outside_witness = w
            return False
        w = self.cmp.judge(fname, args, kwargs, origin)
        if w == "skip":
            self.skipped += 1
            return False
        self.compared += 1
        self.by_origin[origin] = self.by_origin.get(origin, 0) + 1
        if w is not None:
            self.judged[key] = w
            self.witness = w
            return True
        return False

    def derive_in_turns(self):
        """The given inputs' variants in turn (one of each, then the next
        of each), the smallest given inputs first (by size, not measured
        time: the same order in every run), so that a budget cut short by
        a slow program still reaches every given input.  A turn costs its
        stream one unit per started DERIVE_QUANTUM_S of CPU time, and the
        stream that has spent the fewest units goes next: where every
        call is quicker than that, this is the plain round, and where
        some given inputs' variants are exponential (lcs_length's two
        long strings), the small ones' variants are not starved behind
        them."""
        streams = []
        for fn in self.functions.values():
            order = sorted(range(len(fn.bases)), key=lambda k: (
                litmus_inputs.size_of(fn.bases[k][1]), k))
            for k in order:
                origin, args, kwargs = fn.bases[k]
                streams.append((0, len(streams),
                                _variant_stream(fn, args, kwargs)))
        heapq.heapify(streams)
        while streams and self.witness is None and \
                self.spent() <= 0.6 * self.budget:
            units, k, stream = heapq.heappop(streams)
            item = next(stream, None)
            if item is None:
                continue
            t0 = time.process_time()
            if self.try_input(*item):
                break
            took = time.process_time() - t0
            heapq.heappush(streams, (units + max(1, math.ceil(
                took / DERIVE_QUANTUM_S)), k, stream))


def _send_findings(cmp, functions, w, outside_witness):
    """The records of what the search found: the witness (or the note of
    an input outside the contract that differed), a type difference, a
    slower candidate."""
    if w is not None:
        fn = functions.get(w["function"])
        w["contract"] = fn.contract.describe() if fn else []
        _send_witness(w)
    elif outside_witness is not None:
        ow = outside_witness
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


def _variant_stream(fn, args, kwargs):
    """(origin, function, args, kwargs) of one given input's variants:
    other combinations of its objects, its arguments crossed with the
    tests' other calls', then its values one change away."""
    for dargs in litmus_inputs.object_inputs(args, fn.contract):
        yield "objects", fn.name, dargs, kwargs
    yield from itertools.islice(_crossed(fn, args, kwargs), CROSSED_MAX)
    arg_variants = litmus_inputs.derive(args, fn.shapes, fn.consts)
    yield from litmus_inputs.alternate(
        (("derived", fn.name, dargs, kwargs) for dargs in arg_variants),
        _kwarg_variants(fn, args, kwargs))


def _crossed(fn, args, kwargs):
    """The input with one argument or option taken from another of the
    tests' calls of the function (the step one test gave, with the start
    and stop of another): a fix for the combination the new tests make
    alone leaves the others as they were.  Values the tests gave keep
    these inputs inside what callers pass."""
    for _, oargs, okw in fn.bases:
        for i in range(min(len(args), len(oargs))):
            if not _same_value(oargs[i], args[i]):
                yield "derived", fn.name, \
                    args[:i] + (oargs[i],) + args[i + 1:], kwargs
        for k in sorted(okw):
            if k in fn.params[:len(args)] or \
                    (k in kwargs and _same_value(okw[k], kwargs[k])):
                continue
            yield "derived", fn.name, args, dict(kwargs, **{k: okw[k]})


def _same_value(a, b):
    try:
        return type(a) is type(b) and bool(a == b)
    except Exception:
        return False


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


def _generate(hyp, st, search, out_of_time, max_examples):
    """Random inputs of the tests' shapes, per function; the first
    difference is shrunk by hypothesis.  Returns a note or None."""
    import warnings
    notes = []
    for fn in search.functions.values():
        if search.witness is not None or out_of_time():
            break
        try:
            args_st = _args_strategy(st, fn)
        except Exception as exc:  # a program's object the generator met
            notes.append("%s: no generator (%s)" % (fn.name,
                                                   type(exc).__name__))
            continue
        if args_st is None:
            notes.append("%s: no generator for its argument types" % fn.name)
            continue
        found = []
        check = _checker(fn, found, search, out_of_time)
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
            search.witness = w
    return "; ".join(notes) or None


def _checker(fn, found, search, out_of_time):
    """The body of the hypothesis test of fn: compares one drawn input;
    a difference is kept in found and raised, so that hypothesis shrinks
    it (a patch that does not finish is kept and ends the search: each
    try of it costs its whole limit)."""
    repeats = [0]

    def check(drawn):
        if out_of_time() or (found and found[-1]["timeout"]):
            return
        args, kwargs = drawn
        before = search.witness
        seen = search.n_judged
        search.witness = None
        hit = search.try_input("generated", fn.name, args, kwargs)
        w = search.witness
        search.witness = before
        if hit and w is not None:
            found.append(w)
            if not w["timeout"]:
                raise _Disagree()
        # A small input space: hypothesis keeps drawing inputs already
        # compared; enough of them in a row end the search early.
        repeats[0] = repeats[0] + 1 if search.n_judged == seen else 0
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
        # A fixed value goes to hypothesis held: it hashes what it is
        # given, and a program's object may fail to (a half-built one).
        parts = [v if k == "gen" else st.just(_Held(v)) for k, v in places]

        # Named, not a lambda: hypothesis describes a lambda by reading
        # and parsing its source, on every draw.
        def with_kwargs(a, kwargs=kwargs):
            return tuple(x.value if type(x) is _Held else x
                         for x in a), kwargs
        return st.tuples(*parts).map(with_kwargs)
    # Built once per given input (a flatmap would build them on every
    # draw); hypothesis shrinks towards the first.
    return st.one_of(*[build(i) for i in range(len(per_base))])


class _Held:
    """A value passed through hypothesis untouched."""
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


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
