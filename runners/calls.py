# Call evaluation in a litmus child: capture of the calls tests make into
# the subject, differential testing of a candidate against a reference
# fix, and evaluation of call expressions on a program (datasets).  Runs
# in the embedded interpreter of a zygote, imported once before the
# zygote forks; everything here runs in a sandboxed child.  Results leave
# through `_litmus` frames only.  Its modes and what they share are
# modules of their own, imported in this order: calls_values,
# calls_capture, calls_compare, calls_diff, calls_cases.
# SPDX-License-Identifier: MIT
import json
import sys

# The names probe.py and the shim reach through litmus_calls, and those
# the unit tests read (tests/unit/runners/test_calls.py).
from litmus_calls_values import (  # noqa: F401
    _PACKAGE, _short_repr, _timed, builtin_iterator, own_function,
    raise_statement_frame, without_addresses)
from litmus_calls_capture import (  # noqa: F401
    _NOT_CAPTURED, _captured, _dumps, _per_function, install_capture)
from litmus_calls_compare import compare, same  # noqa: F401
from litmus_calls_diff import (  # noqa: F401
    _affected, _load, diff_main, preload_generator)
from litmus_calls_cases import cases_main
# What a captured call's pickle names by reference: named from this module
# as before its modes were files of their own, so that a capture's bytes
# (and what fits under the caps of a job) stay what they were.
from litmus_calls_capture import (  # noqa: F401
    _Receiver, _fill_container, _new_container, _rebuild_function,
    _rebuild_plain, _side_class)
for _pickled in (_Receiver, _fill_container, _new_container,
                 _rebuild_function, _rebuild_plain, _side_class):
    _pickled.__module__ = __name__


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
