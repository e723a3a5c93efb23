# litmus patches on repository candidates, differential execution of a
# class's methods and of a fix that changes two modules (the CI form on
# a package written here): the fix makes Store.update take pairs as well
# as a dict and normalises keys in a helper module.  A right alternative
# is correct; a candidate that takes lists only (not tuples or
# iterators) and one that leaves the helper half fixed are overfitting,
# with a witness on Store's methods, though both pass every test.  The
# correct one also gets the mutation layer: mutants of the lines it adds,
# run with the instance's tests, beside the reference's.
. "$(dirname "$0")/lib.sh"
R=$WORK/repo
mkdir -p "$R/shelf" "$R/tests"
cd "$R" || fail "cd"
git init -q -b main . && git config user.email t@e && git config user.name t
: > shelf/__init__.py
cat > shelf/keys.py <<'PY'
from contextlib import contextmanager


def norm(key):
    """The key a store files a value under."""
    return key


@contextmanager
def quiet():
    """A decorated helper the tests import: re-executing this module
    rebinds the tests' name to the new one, which is no tampering."""
    yield
PY
cat > shelf/store.py <<'PY'
from shelf.keys import norm


class Store:
    """Values by key; keys compare after norm()."""

    def __init__(self):
        self.items = {}

    def put(self, key, value):
        self.items[norm(key)] = value

    def get(self, key, default=None):
        return self.items.get(norm(key), default)

    def update(self, pairs):
        for key, value in pairs.items():
            self.put(key, value)
PY
cat > tests/test_store.py <<'PY'
from shelf.store import Store


def test_put_get():
    s = Store()
    s.put("x", 1)
    assert s.get("x") == 1 and s.get("y", 0) == 0
PY
# Tests inside the package (as sympy keeps them): the wider suite, and a
# module that re-executing keys.py rebinds.
mkdir -p shelf/tests
: > shelf/tests/__init__.py
cat > shelf/tests/test_keys.py <<'PY'
from shelf.keys import norm, quiet


def test_norm_in_quiet():
    with quiet():
        assert norm("k") == "k"
PY
git add -A && git commit -qm base
git checkout -qb tests-only
cat >> tests/test_store.py <<'PY'


def test_update_pairs_and_case():
    s = Store()
    s.update([("A", 1), ("b", 2)])
    s.update({"C": 3})
    assert (s.get("a"), s.get("B"), s.get("c")) == (1, 2, 3)
PY
git commit -qam "tests"
# branch NAME NORM UPDATE: a branch off tests-only whose norm() returns
# NORM and whose update() body is UPDATE.
branch() {
  git checkout -q -b "$1" tests-only
  /usr/bin/python3 - "$2" "$3" <<'PY'
import sys
norm, body = sys.argv[1], sys.argv[2]
k = open("shelf/keys.py").read().replace("return key", "return " + norm)
open("shelf/keys.py", "w").write(k)
old = "        for key, value in pairs.items():\n            self.put(key, value)\n"
s = open("shelf/store.py").read()
assert old in s
open("shelf/store.py", "w").write(s.replace(old, "".join(
    "        " + line + "\n" for line in body.split("\n"))))
PY
  git commit -qam "$1"
}
dict_or_pairs='if isinstance(pairs, dict):
    pairs = pairs.items()
for key, value in pairs:
    self.put(key, value)'
branch fix 'key.strip().lower()' "$dict_or_pairs"
branch good 'key.lower().strip()' 'items = pairs.items() if hasattr(pairs, "items") else pairs
for key, value in items:
    self.put(key, value)'
# Lists only: a tuple of pairs or an iterator of them still fails.
branch lists-only 'key.strip().lower()' 'if isinstance(pairs, list):
    pairs = dict(pairs)
for key, value in pairs.items():
    self.put(key, value)'
# The helper lowers the case but keeps blanks: " A" is not "a".
branch no-strip 'key.lower()' "$dict_or_pairs"
git checkout -q main
cd - >/dev/null || fail "cd back"
run_litmus patches --repo "$R" --base main --reference fix --candidate good \
  --candidate lists-only --candidate no-strip --db "$WORK/p.db" --no-progress \
  -f json --diff-budget 2 --python /usr/bin/python3
expect_eq "$RC" 1 "exit code ($(tail -3 "$WORK/err"))"
/usr/bin/python3 - "$WORK/out" <<'PY' || fail "verdicts"
import json, sys
rows = {c["model_name_or_path"]: c for c in json.load(open(sys.argv[1]))["candidates"]}
for name in ("good", "lists-only", "no-strip"):
    assert rows[name]["evidence"]["harness"] == "resolved", (name, rows[name])
assert rows["good"]["verdict"] == "correct", rows["good"]
for name in ("lists-only", "no-strip"):
    c = rows[name]
    assert (c["verdict"], c["reason"]) == ("overfitting", "differs_from_reference"), (name, c)
    w = c["evidence"]["differential"]["witness"]
    assert w["function"].startswith("Store."), (name, w)
m = rows["good"]["evidence"]["mutation"]
for side in ("candidate", "reference"):
    s = m[side]
    assert s["sampled"] >= 1 and s["score"] is not None, (side, m)
    assert s["killed"] + s["survived"] + s["errors"] == s["sampled"], (side, m)
assert "mutants of its changed lines" in rows["good"]["detail"], rows["good"]
for name in ("lists-only", "no-strip"):
    assert "mutation" not in rows[name]["evidence"], rows[name]
PY
# The same command again takes every result, mutants included, from the
# store.
LITMUS_RUN_LOG=$WORK/runlog run_litmus patches --repo "$R" --base main \
  --reference fix --candidate good --candidate lists-only --candidate no-strip \
  --db "$WORK/p.db" --no-progress -f json --diff-budget 2 --python /usr/bin/python3
expect_eq "$RC" 1 "exit code of the second run"
[ ! -s "$WORK/runlog" ] || fail "the second run started runs: $(head -3 "$WORK/runlog")"
