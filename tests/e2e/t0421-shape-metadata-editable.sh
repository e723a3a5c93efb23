# A package whose tests read importlib.metadata.version(): installed
# editable in a venv (setuptools from Debian, no index), activated, it
# scores with the README's command, the baseline matches the venv's
# pytest, and the version test is among the passing ones.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/shapes.sh"
shape_copy metadata_editable
# (Debian's pip, seen through the system site-packages, installs into the
# venv: no pip of its own, whose ensurepip costs 3 s of CPU.)
(cd "$P" && /usr/bin/python3 -m venv --system-site-packages --without-pip .venv &&
  .venv/bin/python -m pip install -q --no-index --no-build-isolation -e .) \
  >"$WORK/venv.log" 2>&1 || skip "cannot install editable: $(tail -n 3 "$WORK/venv.log")"
VENV=$P/.venv
VIRTUAL_ENV=$VENV PATH=$VENV/bin:$PATH shape_score score src/tally --tests tests
VIRTUAL_ENV=$VENV PATH=$VENV/bin:$PATH shape_check no-note "$VENV/bin/python" tests
o=$(q "$P/.litmus.db" "SELECT outcome FROM tests
      WHERE nodeid = 'tests/test_tally.py::test_version_comes_from_metadata'")
expect_eq "$o" passed "the metadata version test"
# Without the install the metadata is missing: the editable install is
# what the shape exercises.
(unset VIRTUAL_ENV; shape_score score src/tally --tests tests --python /usr/bin/python3
 [ "$RC" = 2 ] || fail "uninstalled: exit $RC, expected 2"
 grep -q "tally" "$WORK/err" || fail "no word of tally: $(cat "$WORK/err")") || exit 1
exit 0
