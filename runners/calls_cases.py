# Evaluation of call expressions on a program (calls.py's third mode,
# cases_main: datasets).  Compiled into the litmus binary as
# litmus_calls_cases.  SPDX-License-Identifier: MIT
import json
import time
import types

import _litmus
from litmus_calls_values import _as_json, _force, _short_repr, _timed


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
