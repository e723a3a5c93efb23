# The interpreter litmus takes the environment from cannot serve: each
# case stops with exit 2 and says why in one line, before any mutant runs.
# (Interpreters of other versions and builds it serves: t0940.)
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
# A stand-in interpreter that answers litmus's probe with the given JSON
# fields (and those of a usable interpreter for the rest).
fake_python() { # name, then JSON fields
  local name=$1; shift
  cat >"$WORK/$name" <<SH
#!/bin/sh
echo '{"version": "3.12", "full_version": "3.12.1", "hexversion": 51118576, "abiflags": "", "libpython": "/usr/lib/libpython3.12.so.1.0", "base_prefix": "/usr", "pytest": true, "where": {}, $*}'
SH
  chmod +x "$WORK/$name"
}
export PYTHONPATH=lib

# 1. A Python older than 3.9: a real one when pyenv has it.
old=""
for py in /root/.pyenv/versions/3.[5-8].*/bin/python3; do
  [ -x "$py" ] && { old=$py; break; }
done
if [ -n "$old" ]; then
  "$old" -m venv --without-pip "$WORK/old" || fail "cannot make a venv with $old"
  shape_score score lib/wordwrap.py --tests tests --python "$WORK/old"
  expect_exit2 "a venv of $old" "$WORK/old/bin/python" "litmus runs tests in Python 3.9 to 3.13"
else
  fake_python python3.8 '"full_version": "3.8.18", "hexversion": 50860784'
  shape_score score lib/wordwrap.py --tests tests --python "$WORK/python3.8"
  expect_exit2 "a 3.8 interpreter" "is Python 3.8.18" "litmus runs tests in Python 3.9 to 3.13"
fi

# 2. No interpreter at all.
shape_score score lib/wordwrap.py --tests tests --python /nonexistent
expect_exit2 "--python /nonexistent" "/nonexistent"

# 3. A Python built without a shared libpython, and a free-threaded one.
fake_python static '"libpython": ""'
shape_score score lib/wordwrap.py --tests tests --python "$WORK/static"
expect_exit2 "a static build" "built without a shared libpython" "--enable-shared"
fake_python nogil '"full_version": "3.13.0", "abiflags": "t"'
shape_score score lib/wordwrap.py --tests tests --python "$WORK/nogil"
expect_exit2 "a free-threaded build" "free-threaded Python 3.13.0"

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
