# What the shim's modules share: the statuses they report, read into C by
# scripts/py_constants.py, and the zygote's state, set once by one step
# and read by the others (as `shared.NAME`, so that a step sees the value
# set after it was imported).  A module: its dict is pinned by the guards
# of an untrusted run like the shim's (shim.py, _guard_snapshot).
# SPDX-License-Identifier: MIT
from litmus_constants import RUNNER_PYTEST

# How applying a change went (harness/wire.h, enum lt_apply_status) and
# why the zygote could not start or collect (_litmus.fail; enum
# lt_fail_cause): written here, read into C by scripts/py_constants.py.
APPLY_OK, APPLY_INVALID, APPLY_RAISED, APPLY_EQUIVALENT = 0, 1, 2, 3
FAIL_OTHER, FAIL_UNITTEST_SUITE, FAIL_IMPORT = 0, 1, 2

UNTRUSTED = False  # set in a child running a candidate
SUBJECTS = []  # the files under mutation (subjects.Subject), in INIT's order
PYTEST_SESSION = None  # the zygote's pytest session, once it starts
PRELOAD_GENERATOR = False  # INIT asked for the input generator preloaded
# The user gave --hypothesis-seed (it is then left alone).
USER_HYPOTHESIS_SEED = False
RUNNER = None  # this zygote's runner, set once the tests are collected
RUNNER_KIND = RUNNER_PYTEST  # this zygote's (main)
FRESH_JOB = None  # in a child of the pre-import server: its job
# In a fresh child under pytest: the files (node id parts before "::",
# relative to the rootdir) of the tests it runs; it collects no other.
FRESH_KEEP = None
