# The runner's embedded modules imported outside a zygote, for the tests
# of runners/shim.py: a stand-in `_litmus` module, and codediff, inputs
# and calls under the names the shim imports them by (litmus_*).
# SPDX-License-Identifier: MIT
import os
import sys
import types

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.environ.get(
    'LT_RUNNERS_DIR', os.path.join(HERE, '..', '..', '..', 'runners')))
_litmus = types.ModuleType('_litmus')
sys.modules['_litmus'] = _litmus
import codediff  # noqa: E402
import inputs  # noqa: E402
sys.modules['litmus_codediff'] = codediff
sys.modules['litmus_inputs'] = inputs
import calls  # noqa: E402
sys.modules['litmus_calls'] = calls
import probe  # noqa: E402
sys.modules['litmus_probe'] = probe
import shim  # noqa: E402,F401
