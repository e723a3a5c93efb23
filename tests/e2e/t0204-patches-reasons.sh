# litmus patches: the reasons the corpus of bench/corpus/patches does not
# produce, on small programs written here: a patch the suite checks less
# well than the reference (weak_where_reference_is_not, or a note with
# --mutation-gap-note), a suite weak on both (a note, the patch correct),
# a patch identical to the buggy file (unchanged), one that cannot be
# imported (import_error), a program with a class, an empty patch, and
# markdown fences after prose.
. "$(dirname "$0")/lib.sh"
grep -qs calls_main "$REPO/runners/shim.py" || [ -f "$REPO/runners/calls.py" ] ||
  skip "the runner side of litmus patches has not landed"

verdicts() { # JSON -> "run_id verdict reason" lines
  /usr/bin/python3 -c '
import json, sys
for p in json.load(open(sys.argv[1]))["patches"]:
    print(p["run_id"], p["verdict"], p["reason"])' "$1"
}
want() { # RUN VERDICT REASON
  grep -qx "$1 $2 $3" "$WORK/v" || fail "$1: expected $2/$3, got: $(grep "^$1 " "$WORK/v")"
}

# 1. inc: the reference scores 100%; a patch padded with code the tests
# cannot see scores far below the threshold.  The gap decides only where
# differential testing is thin (here --diff-budget 0: the tests' inputs
# alone); where many derived inputs agree, it is a note.
D=$WORK/inc
mkdir -p "$D/p"
printf 'def inc(x):\n    return x - 1\n' > "$D/inc.py"
printf 'def inc(x):\n    return x + 1\n' > "$D/ref.py"
printf 'from inc import inc\n\n\ndef test_one():\n    assert inc(1) == 2\n\n\ndef test_five():\n    assert inc(5) == 6\n' > "$D/test_inc.py"
cat > "$D/p/weak.py" <<'EOF'
def inc(x):
    debug = x * 7 + 3 - 1
    if debug > 10 ** 9 + 7:
        debug = debug // 2 - 1
    return x + 1
EOF
cp "$D/inc.py" "$D/p/same.py"
printf 'import no_such_module_here\n\n\ndef inc(x):\n    return x + 1\n' > "$D/p/noimport.py"
run_litmus patches --buggy "$D/inc.py" --tests "$D/test_inc.py" \
  --reference "$D/ref.py" --patches "$D/p" --db "$WORK/inc.db" \
  --format json --no-progress -j 2 --diff-budget 0
expect_eq "$RC" 1 "inc: exit code ($(cat "$WORK/err"))"
verdicts "$WORK/out" > "$WORK/v"
want weak overfitting weak_where_reference_is_not
want same invalid unchanged
want noimport invalid import_error
/usr/bin/python3 - "$WORK/out" <<'PY' || fail "inc evidence"
import json, sys
got = {p["run_id"]: p for p in json.load(open(sys.argv[1]))["patches"]}
w = got["weak"]
assert w["mutation_score"] < 0.6 <= w["reference_score"], w
assert w["tests_passed"] == w["tests_total"] == 2, w
assert "below the threshold" in w["detail"], w["detail"]
assert "no_such_module_here" in got["noimport"]["detail"], got["noimport"]
PY
# With --mutation-gap-note the gap is only a note: the differential test
# found no difference, so the patch is correct.
run_litmus patches --buggy "$D/inc.py" --tests "$D/test_inc.py" \
  --reference "$D/ref.py" --patches "$D/p" --db "$WORK/inc.db" \
  --format json --no-progress -j 2 --mutation-gap-note --diff-budget 0
verdicts "$WORK/out" > "$WORK/v"
want weak correct passes
grep -q 'the suite checks this patch less well than the reference' "$WORK/out" ||
  fail "--mutation-gap-note: no note"
# The default budget: derived and generated inputs agree, the gap is a note.
run_litmus patches --buggy "$D/inc.py" --tests "$D/test_inc.py" \
  --reference "$D/ref.py" --patches "$D/p" --db "$WORK/inc2.db" \
  --format json --no-progress -j 2
verdicts "$WORK/out" > "$WORK/v"
want weak correct passes
grep -q 'the suite checks this patch less well than the reference' "$WORK/out" ||
  fail "default budget: no note of the mutation gap"

# 2. g: one test, a weak suite for the reference too; the restructured
# patch is correct, and the weak suite is said, not held against it.
D=$WORK/g
mkdir -p "$D/p"
printf 'def g(x):\n    if x > 10:\n        return x * 2\n    return x - 1\n' > "$D/g.py"
printf 'def g(x):\n    if x > 10:\n        return x * 2\n    return x + 1\n' > "$D/ref.py"
printf 'from g import g\n\n\ndef test_small():\n    assert g(1) == 2\n' > "$D/test_g.py"
printf 'def g(value):\n    return value * 2 if value > 10 else value + 1\n' > "$D/p/run1.py"
run_litmus patches --buggy "$D/g.py" --tests "$D/test_g.py" \
  --reference "$D/ref.py" --patches "$D/p" --db "$WORK/g.db" \
  --format json --no-progress -j 2
expect_eq "$RC" 0 "g: exit code ($(cat "$WORK/err"))"
/usr/bin/python3 - "$WORK/out" <<'PY' || fail "weak suite"
import json, sys
p = json.load(open(sys.argv[1]))["patches"][0]
assert (p["verdict"], p["reason"]) == ("correct", "passes"), p
assert p["mutation_score"] < 0.6 and p["reference_score"] < 0.6, p
assert any(n.startswith("suite is weak") for n in p["notes"]), p["notes"]
assert "says nothing against the patch" in p["detail"], p["detail"]
PY

# 3. A program with a class; patches in JSON Lines, some fenced after
# prose, one empty, one raising.
D=$WORK/stack
mkdir -p "$D"
cat > "$D/stack.py" <<'EOF'
class Stack:
    def __init__(self):
        self.items = []

    def push(self, x):
        self.items.append(x)

    def pop(self):
        return self.items.pop(0)


def top_of(xs):
    s = Stack()
    for x in xs:
        s.push(x)
    return s.pop()
EOF
sed 's/pop(0)/pop()/' "$D/stack.py" > "$D/ref.py"
cat > "$D/test_stack.py" <<'EOF'
from stack import Stack, top_of


def test_push_pop():
    s = Stack()
    s.push(1)
    s.push(2)
    assert s.pop() == 2


def test_top_of():
    assert top_of([1, 2, 3]) == 3
EOF
/usr/bin/python3 - "$D" <<'PY'
import json, os, sys
d = sys.argv[1]
ref = open(os.path.join(d, "ref.py")).read()
over = ref.replace("        return self.items.pop()\n",
                   "        if len(self.items) == 2:\n            return 2\n"
                   "        return self.items.pop()\n")
raising = ref.replace("        return self.items.pop()\n",
                      "        raise ValueError('empty')\n")
rows = [
    ("fenced", "Here is the fixed file:\n\n```\n" + ref + "```\n\nIt pops the last item.\n"),
    ("fenced_py", "```py\n" + ref + "\nTICKS = '```'\n```"),
    ("overfit", "Fix:\n```python\n" + over + "```\n"),
    ("raising", raising),
    ("empty", ""),
    ("prose", "I am sorry, I cannot fix this program.\n"),
]
with open(os.path.join(d, "patches.jsonl"), "w") as f:
    for rid, t in rows:
        f.write(json.dumps({"run_id": rid, "patch_text": t}) + "\n")
PY
run_litmus patches --buggy "$D/stack.py" --tests "$D/test_stack.py" \
  --reference "$D/ref.py" --patches "$D/patches.jsonl" --db "$WORK/s.db" \
  --format json --no-progress -j 2 --no-mutation
expect_eq "$RC" 1 "stack: exit code ($(cat "$WORK/err"))"
verdicts "$WORK/out" > "$WORK/v"
want fenced memorized identical_to_reference
want fenced_py correct passes
want overfit overfitting differs_from_reference
want raising invalid fails_tests
want prose invalid syntax
grep -q '^empty invalid ' "$WORK/v" || fail "empty patch: $(grep '^empty' "$WORK/v")"
/usr/bin/python3 - "$WORK/out" <<'PY' || fail "stack evidence"
import json, sys
got = {p["run_id"]: p for p in json.load(open(sys.argv[1]))["patches"]}
assert got["fenced"]["token_similarity"] == 1.0, got["fenced"]
w = got["overfit"]["witness"]
assert w and w.get("text") and w["reference"] != w["candidate"], w
assert sorted(got["raising"]["failing_tests"]) == [
    "test_stack.py::test_push_pop", "test_stack.py::test_top_of"], got["raising"]
assert "ValueError" in got["raising"]["detail"], got["raising"]["detail"]
PY
no_leftovers
exit 0
