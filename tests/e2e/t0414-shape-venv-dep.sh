# Tests that import a dependency installed only in the project's venv:
# litmus scores them with the venv activated, and again with the venv
# merely present as ./.venv; both baselines match the venv's pytest, and
# Debian's interpreter alone cannot import the dependency.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/shapes.sh"
shape_copy venv_dep
# (Debian's pip, seen through the system site-packages, installs into the
# venv: no pip of its own, whose ensurepip costs 3 s of CPU.)
(cd "$P" && /usr/bin/python3 -m venv --system-site-packages --without-pip .venv &&
  .venv/bin/python -m pip install -q --no-index --no-build-isolation ./dep) \
  >"$WORK/venv.log" 2>&1 || skip "cannot build the venv: $(tail -n 3 "$WORK/venv.log")"
/usr/bin/python3 -c 'import tinymoney' 2>/dev/null &&
  fail "tinymoney is importable without the venv: the shape is wrong"
VENV=$P/.venv

# 1. Activated, as `. .venv/bin/activate` would leave the environment.
VIRTUAL_ENV=$VENV PATH=$VENV/bin:$PATH shape_score score budget.py --tests tests
VIRTUAL_ENV=$VENV PATH=$VENV/bin:$PATH shape_check no-note "$VENV/bin/python" tests

# 2. Not activated: ./.venv is found.
(unset VIRTUAL_ENV; shape_score score budget.py --tests tests
 shape_check no-note "$VENV/bin/python" tests) || exit 1

# 3. The venv is what made it work: with --python naming Debian's
# interpreter the dependency is missing and the baseline cannot start.
shape_score score budget.py --tests tests --python /usr/bin/python3
[ "$RC" = 2 ] || fail "with Debian's python: exit $RC, expected 2"
grep -q tinymoney "$WORK/err" || fail "no word of tinymoney: $(cat "$WORK/err")"
exit 0
