# The runner's embedded modules imported outside a zygote, for the tests
# of runners/shim.py: a stand-in `_litmus` module, the constants generated
# from the C headers, and codediff, inputs, calls and the shim's steps
# under the names the shim imports them by (litmus_*).
# SPDX-License-Identifier: MIT
import os
import sys
import types

HERE = os.path.dirname(os.path.abspath(__file__))
RUNNERS = os.environ.get(
    'LT_RUNNERS_DIR', os.path.join(HERE, '..', '..', '..', 'runners'))
sys.path.insert(0, RUNNERS)
_litmus = types.ModuleType('_litmus')
sys.modules['_litmus'] = _litmus


def constants_module():
    """litmus_constants as the build generates it from the C headers
    (scripts/py_constants.py), made from the sources beside RUNNERS."""
    root = os.path.join(os.path.abspath(RUNNERS), '..')
    sys.path.insert(0, os.path.join(root, 'scripts'))
    try:
        import py_constants
    finally:
        del sys.path[0]
    mod = types.ModuleType('litmus_constants')
    exec(compile(py_constants.python_module(root), '<litmus constants>',
                 'exec'), mod.__dict__)
    return mod


sys.modules['litmus_constants'] = constants_module()
import codediff  # noqa: E402
import inputs  # noqa: E402
sys.modules['litmus_codediff'] = codediff
sys.modules['litmus_inputs'] = inputs
# Call evaluation's modes, in the order the zygote imports them.
CALLS_PARTS = ('calls_values', 'calls_capture', 'calls_compare',
               'calls_diff', 'calls_cases')
for _part in CALLS_PARTS:
    sys.modules['litmus_' + _part] = __import__(_part)
import calls  # noqa: E402
sys.modules['litmus_calls'] = calls
import probe  # noqa: E402
sys.modules['litmus_probe'] = probe
# The shim's steps, in the order the zygote imports them (zygote.c).
SHIM_PARTS = ('shared', 'subjects', 'apply', 'failures', 'testrunners',
              'child', 'fresh')
for _part in SHIM_PARTS:
    sys.modules['litmus_' + _part] = __import__(_part)
import shared  # noqa: E402,F401
import apply  # noqa: E402,F401
import failures  # noqa: E402,F401
import child  # noqa: E402,F401
import shim  # noqa: E402,F401
