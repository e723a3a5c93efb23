# litmus patches on repository candidates, the probe layer (the CI form
# on a package written here): the changed function reads the app that a
# `with` block of the test serves, so a call of it replayed apart from
# its test only raises, on both sides; the probes observe it where the
# tests call it.  The fix makes make_response take a list too.  A
# right alternative is correct; a candidate that takes lists of two or
# more items only is overfitting, with the probes' witness: the test's
# call with a shorter list, made in a child of the test's own process.
# A candidate that leaves the reference's file alone and special-cases
# two-item lists in the converter it calls (a module the reference never
# changes) is judged by the probes too: overfitting, the same witness.
. "$(dirname "$0")/lib.sh"
R=$WORK/repo
mkdir -p "$R/pkg" "$R/tests"
cd "$R" || fail "cd"
git init -q -b main . && git config user.email t@e && git config user.name t
: > pkg/__init__.py
cat > pkg/app.py <<'PY'
import threading

_serving = threading.local()


class App:
    """The application a view runs in: `with app:` serves it."""

    def __init__(self, name):
        self.name = name

    def __enter__(self):
        _serving.app = self
        return self

    def __exit__(self, *exc):
        del _serving.app


def make_response(rv):
    """A view's return value made into a response of the app served."""
    app = _serving.app  # only inside `with app:`
    if isinstance(rv, str):
        return app.name + ":text:" + rv
    return app.name + ":" + convert(rv)
PY
sed -i '1a from pkg.convert import convert' pkg/app.py
cat > pkg/convert.py <<'PY'
def convert(rv):
    """Any other value a view returns, as text."""
    raise TypeError("a view returned %s" % type(rv).__name__)
PY
cat > tests/test_app.py <<'PY'
from pkg.app import App, make_response


def test_text():
    with App("a"):
        assert make_response("hi") == "a:text:hi"
PY
git add -A && git commit -qm base
git checkout -qb tests-only
cat >> tests/test_app.py <<'PY'


def test_list():
    with App("b"):
        assert make_response(["x", "y"]) == "b:list:x,y"
PY
git commit -qam "tests"
# branch NAME CONDITION: a branch off tests-only whose make_response
# joins a list when CONDITION holds.
branch() {
  git checkout -q -b "$1" tests-only
  /usr/bin/python3 - "$2" <<'PY'
import sys
old = '    return app.name + ":" + convert(rv)'
s = open("pkg/app.py").read()
new = ('    if %s:\n        return app.name + ":list:" + ",".join(rv)\n'
       % sys.argv[1]) + old
open("pkg/app.py", "w").write(s.replace(old, new))
PY
  git commit -qam "$1"
}
branch fix 'isinstance(rv, list)'
branch good 'type(rv) is list or isinstance(rv, list)'
branch two-or-more 'isinstance(rv, list) and len(rv) >= 2'
git checkout -q -b elsewhere tests-only
cat > pkg/convert.py <<'PY'
def convert(rv):
    """Any other value a view returns, as text."""
    if isinstance(rv, list) and len(rv) == 2:
        return "list:" + ",".join(rv)
    raise TypeError("a view returned %s" % type(rv).__name__)
PY
git commit -qam elsewhere
git checkout -q main
cd - >/dev/null || fail "cd back"
run_litmus patches --repo "$R" --base main --reference fix --candidate good \
  --candidate two-or-more --candidate elsewhere --db "$WORK/p.db" --no-progress -f json \
  --diff-budget 1 --python /usr/bin/python3 --no-mutation
expect_eq "$RC" 1 "exit code ($(tail -3 "$WORK/err"))"
/usr/bin/python3 - "$WORK/out" <<'PY' || fail "verdicts"
import json, sys
rows = {c["model_name_or_path"]: c for c in json.load(open(sys.argv[1]))["candidates"]}
for name in ("good", "two-or-more"):
    assert rows[name]["evidence"]["harness"] == "resolved", (name, rows[name])
    d = rows[name]["evidence"]["differential"]
    assert d["status"] != "witness", (name, d)  # nothing replayable
good = rows["good"]
assert good["verdict"] == "correct", good
assert good["evidence"]["probe"]["status"] == "same", good
assert good["evidence"]["probe"]["compared"] >= 4, good
assert "probed calls in its tests" in good["detail"], good
c = rows["two-or-more"]
assert (c["verdict"], c["reason"]) == ("overfitting", "differs_from_reference"), c
p = c["evidence"]["probe"]
assert p["status"] == "witness" and p["unstable"] == 0, p
w = p["witness"]
assert w["function"] == "make_response", w
assert w["test"] == "tests/test_app.py::test_list", w
assert w["input"].startswith("argument 1 = ["), w
assert "the result: reference" in c["detail"] or "raises" in c["detail"], c
# Only in a module the reference leaves alone: the probes still judge it.
e = rows["elsewhere"]
assert e["evidence"]["harness"] == "resolved", e
assert "differential" not in e["evidence"], e
assert (e["verdict"], e["reason"]) == ("overfitting", "differs_from_reference"), e
w = e["evidence"]["probe"]["witness"]
assert w["function"] == "make_response" and w["input"].startswith("argument 1 = ["), w
PY
