# A project whose .venv is a symbolic link to a venv outside it, behind a
# second link (a versioned environment and a "current" link to it, as
# pyenv-virtualenv makes them): found by itself as ./.venv, or named with
# --python through the link, the venv's own package imports inside the
# sandbox's view as it does outside, and the view says which link it
# made.  A package linked into the venv's site-packages from elsewhere
# (flit install --symlink, environments made of links) imports too, and
# so does one an editable install's import finder maps to a directory
# outside (setuptools' PEP 660 finder, here a hand-made one of its
# shape).  A .venv link whose venv is gone stops the run with that
# cause.  Where pyenv's 3.11 is on PATH, a venv whose python links to it
# scores the same way.  No pip: the dependency is copied into
# site-packages.  The first run is checked against the venv's pytest,
# the others by their stored outcomes (all four pass, a mutant killed).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/shapes.sh"
shape_copy venv_dep
ENV=$WORK/envs/budget-1
LINK=$WORK/links/budget

# make_env PYTHON: a venv of PYTHON at $ENV with tinymoney in its
# site-packages, reached as $LINK and as the project's .venv.
make_env() {
  rm -rf "$ENV" "$LINK" "$P/.venv"
  mkdir -p "$WORK/envs" "$WORK/links"
  "$1" -m venv --system-site-packages --without-pip "$ENV" \
    >"$WORK/venv.log" 2>&1 || return 1
  SITE=$("$ENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])') || return 1
  cp -r "$P/dep/tinymoney" "$SITE/" && ln -s "$ENV" "$LINK" &&
    ln -s "$LINK" "$P/.venv"
}

# light_check WHAT: the last run scored with its four tests passing.
light_check() {
  local db=$P/.litmus.db
  [ "$RC" = 0 ] || fail "$1: litmus exited $RC: $(tail -n 5 "$WORK/err")"
  expect_eq "$(q "$db" "SELECT count(*) FROM tests WHERE outcome = 'passed'")" \
    4 "$1: the baseline's passing tests"
  [ "$(q "$db" "SELECT count(*) FROM results WHERE verdict = 'killed'")" -gt 0 ] ||
    fail "$1: no mutant killed"
}

# score_linked [WHAT]: the run with ./.venv found by itself (checked
# against the venv's pytest without WHAT, else light_check WHAT), and the
# link the view made.
score_linked() {
  (unset VIRTUAL_ENV; shape_score score budget.py --tests tests --no-progress
   if [ $# = 0 ]; then shape_check no-note "$P/.venv/bin/python" tests
   else light_check "$1"; fi) || exit 1
  q "$P/.litmus.db" "SELECT value FROM meta WHERE key = 'sandbox_view'" |
    grep -qxF "link $LINK -> $ENV" ||
    fail "the view did not make $LINK: $(q "$P/.litmus.db" \
      "SELECT value FROM meta WHERE key = 'sandbox_view'" | grep -v '^read /etc')"
}

make_env /usr/bin/python3 || skip "cannot make a venv: $(tail -n 3 "$WORK/venv.log")"
/usr/bin/python3 -c 'import tinymoney' 2>/dev/null &&
  fail "tinymoney is importable without the venv: the shape is wrong"

# 1. ./.venv -> $LINK -> $ENV.
score_linked

# 2. --python through the link, from outside the project.
rm "$P/.venv"
(unset VIRTUAL_ENV; shape_score score budget.py --tests tests --no-progress \
   --python "$LINK/bin/python"
 light_check "--python through a link") || exit 1
ln -s "$LINK" "$P/.venv"

# 3. The package itself a link from site-packages to a directory outside.
mkdir -p "$WORK/src"
mv "$SITE/tinymoney" "$WORK/src/tinymoney"
ln -s "$WORK/src/tinymoney" "$SITE/tinymoney"
score_linked "a package linked into site-packages"

# 4. An editable install's finder maps the package to that directory.
rm "$SITE/tinymoney"
echo "import __editable___tinymoney_finder; __editable___tinymoney_finder.install()" \
  >"$SITE/__editable__.tinymoney-1.0.pth"
cat >"$SITE/__editable___tinymoney_finder.py" <<PYCODE
import importlib.util
import sys

MAPPING = {"tinymoney": "$WORK/src/tinymoney"}
NAMESPACES = {}


class Finder:
    @classmethod
    def find_spec(cls, name, path=None, target=None):
        where = MAPPING.get(name)
        if where is None:
            return None
        return importlib.util.spec_from_file_location(
            name, where + "/__init__.py", submodule_search_locations=[where])


def install():
    sys.meta_path.append(Finder)
PYCODE
"$P/.venv/bin/python" -c 'import tinymoney' ||
  fail "the hand-made editable finder does not import tinymoney"
score_linked "an editable finder's package"

# 5. A .venv link whose venv is gone: a one-line cause, not the system's
# interpreter failing later on a missing package.
mv "$ENV" "$ENV.gone"
(unset VIRTUAL_ENV; shape_score score budget.py --tests tests --no-progress
 [ "$RC" = 2 ] || fail "dangling .venv: exit $RC, expected 2"
 grep -qF "./.venv is a symbolic link to $LINK, which cannot be reached" "$WORK/err" ||
   fail "dangling .venv: $(cat "$WORK/err")") || exit 1
mv "$ENV.gone" "$ENV"

# 6. The venv's python a link to pyenv's interpreter (python3 on PATH),
# when it is another build of the system's 3.11 (Debian's pytest then
# serves it through the system site-packages' .pth below).
PY=$(command -v python3)
PY=$("$PY" -c 'import sys; print(sys.executable)' 2>/dev/null)
case $PY in
  /usr/bin/*|"") exit 0 ;;
esac
"$PY" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))' || exit 0
make_env "$PY" || fail "cannot make a venv of $PY: $(tail -n 3 "$WORK/venv.log")"
"$P/.venv/bin/python" -c 'import pytest' 2>/dev/null ||
  echo /usr/lib/python3/dist-packages >"$SITE/debian-pytest.pth"
score_linked "pyenv's python"
exit 0
