# The interpreter litmus takes the environment from cannot serve: each
# case stops with exit 2 and says why, before any mutant runs.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/shapes.sh"
shape_copy pythonpath_env
expect_exit2() { # what, then grep -F patterns the message must hold
  local what=$1; shift
  [ "$RC" = 2 ] || fail "$what: exit $RC, expected 2: $(cat "$WORK/err")"
  for pat in "$@"; do
    grep -qF -- "$pat" "$WORK/err" || fail "$what: no '$pat' in: $(cat "$WORK/err")"
  done
  [ ! -s "$P/.litmus.db" ] || [ "$(q "$P/.litmus.db" "SELECT count(*) FROM results")" = 0 ] ||
    fail "$what: results were stored"
}
embedded=$(/usr/bin/python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')

# 1. A fake interpreter that answers litmus's probe as a Python 3.12.
cat >"$WORK/python3.12" <<'SH'
#!/bin/sh
echo '{"version": "3.12", "full_version": "3.12.1", "base_prefix": "/usr", "pytest": true, "where": {}}'
SH
chmod +x "$WORK/python3.12"
export PYTHONPATH=lib
shape_score score lib/wordwrap.py --tests tests --python "$WORK/python3.12"
expect_exit2 "a 3.12 interpreter" "$WORK/python3.12" "is Python 3.12.1" "embeds Python $embedded"

# 2. No interpreter at all.
shape_score score lib/wordwrap.py --tests tests --python /nonexistent
expect_exit2 "--python /nonexistent" "/nonexistent"

# 3. A venv made from another build of the same version.
other=""
for py in /root/.pyenv/versions/*/bin/python3; do
  [ -x "$py" ] || continue
  [ "$("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null)" = "$embedded" ] &&
    { other=$py; break; }
done
if [ -n "$other" ]; then
  "$other" -m venv --without-pip "$WORK/otherbuild" || fail "cannot make a venv with $other"
  shape_score score lib/wordwrap.py --tests tests --python "$WORK/otherbuild"
  base=$("$other" -c 'import os, sys; print(os.path.realpath(sys.base_prefix))')
  expect_exit2 "a venv of $other" "built in $base" "$WORK/otherbuild/bin/python"
else
  # No second build here: a stand-in that answers the probe as one.
  cat >"$WORK/otherbuild.py" <<SH
#!/bin/sh
echo '{"version": "$embedded", "full_version": "$embedded.99", "base_prefix": "/opt/python-other", "pytest": true, "where": {}}'
SH
  chmod +x "$WORK/otherbuild.py"
  shape_score score lib/wordwrap.py --tests tests --python "$WORK/otherbuild.py"
  expect_exit2 "another build" "built in /opt/python-other" "do not load into the other"
fi

# 4. The tests import a copy of the subject from the venv's site-packages.
/usr/bin/python3 -m venv --without-pip --system-site-packages "$WORK/shadow" ||
  fail "cannot make a venv"
site=$("$WORK/shadow/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
cp "$P/lib/wordwrap.py" "$site/wordwrap.py"
(unset PYTHONPATH
 shape_score score lib/wordwrap.py --tests tests --python "$WORK/shadow"
 expect_exit2 "a shadowed subject" "lib/wordwrap.py is not the file the tests import" \
   "$site/wordwrap.py") || exit 1

# 5. A venv without the system's packages has no pytest.
/usr/bin/python3 -m venv --without-pip "$WORK/bare" || fail "cannot make a venv"
grep -q "include-system-site-packages = false" "$WORK/bare/pyvenv.cfg" ||
  fail "the bare venv includes the system's packages"
shape_score score lib/wordwrap.py --tests tests --python "$WORK/bare"
expect_exit2 "a venv without pytest" "$WORK/bare/bin/python" "cannot import pytest"

exit 0
