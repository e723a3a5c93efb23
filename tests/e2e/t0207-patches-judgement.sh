# litmus patches on the miss classes of careful human judgement
# (tests/fixtures/patch_judgement): a graph search patched for the tested
# start/goal pairs only (another pair of the test's objects), a flattening
# generator that drops None elements, a condition wrong only on a zero
# element, an in-place reversal that goes wrong on longer lists (the list
# after the call), a correct rewrite that differs only on repeated elements
# of a list documented and tested as distinct (outside the contract: a note,
# never a witness), and a correct but much slower patch (a note; overfitting
# with --slower-is-overfitting).  Every witness is shown with the contract it
# satisfies.
. "$(dirname "$0")/lib.sh"
F=$REPO/tests/fixtures/patch_judgement
/usr/bin/python3 -c "import hypothesis" 2>/dev/null ||
  skip "python3-hypothesis is not installed"
run_litmus patches --manifest "$F/manifest.json" --patches "$F/candidates" \
  --db "$WORK/a.db" --csv "$WORK/a.csv" --format json --no-progress -j 2 \
  --no-mutation --diff-budget 3
expect_eq "$RC" 1 "exit code (overfitting patches present)"
cp "$WORK/out" "$WORK/a.json"
/usr/bin/python3 - "$F/expected.json" "$WORK/a.json" "$WORK/a.csv" <<'PY' || fail "verdicts or evidence differ"
import csv, json, sys
want = json.load(open(sys.argv[1]))
doc = json.load(open(sys.argv[2]))
got = {(p["program"], p["run_id"]): p for p in doc["patches"]}
bad = []
for prog, runs in want.items():
    for run, x in runs.items():
        p = got[(prog, run)]
        if p["verdict"] != x["verdict"]:
            bad.append("%s %s: %s (%s), expected %s: %s" % (
                prog, run, p["verdict"], p["reason"], x["verdict"], p["detail"]))
        if p["verdict"] == "overfitting":
            w = p["witness"]
            # The evidence a reviewer needs: both outcomes, the input, the
            # contract it satisfies.
            for k in ("input_repr", "reference", "candidate", "contract"):
                if k not in w:
                    bad.append("%s %s: witness lacks %s" % (prog, run, k))
assert not bad, "\n".join(bad)
w = got[("reach", "overfit")]["witness"]
# Another pair of the test's own objects, shown as a graph.
assert w["origin"] == "objects", w
assert "successors=" in w["input_repr"] and "#1" in w["input_repr"], w["input_repr"]
assert "the objects form no cycle" in w["contract"], w["contract"]
w = got[("flat", "drops_none")]["witness"]
assert "None" in w["input_repr"], w
w = got[("perm", "zero")]["witness"]
assert 0 in w["input"][0], w
assert "argument 1 has distinct elements" in w["contract"], w["contract"]
assert len(set(w["input"][0])) == len(w["input"][0]), w
w = got[("inplace", "overfit")]["witness"]
assert "arguments_after" in w, w
# Outside the contract: a note on a correct verdict.
p = got[("perm", "correct_distinct")]
assert any("only outside the contract" in n and "distinct" in n for n in p["notes"]), p["notes"]
d = p["differential"]
assert d["outside_contract"] > 0 and d["by_origin"].get("generated", 0) > 0, d
assert d["contracts"]["next_perm"], d
# The slow patch: a note naming the ratio.
p = got[("squares", "slow")]
assert any(n.startswith("slower:") for n in p["notes"]), p["notes"]
assert p["differential"]["slower"]["ratio"] >= 10, p["differential"]
# The CSV counts the inputs per origin.
rows = {(r["program"], r["run_id"]): r for r in csv.DictReader(open(sys.argv[3]))}
r = rows[("reach", "correct")]
assert int(r["compared_test"]) > 0 and int(r["compared_objects"]) > 0, r
PY

# With --slower-is-overfitting the slow patch is overfitting, reason slower.
mkdir -p "$WORK/slow/squares"
cp "$F/candidates/squares/slow.py" "$WORK/slow/squares/"
/usr/bin/python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))
json.dump({"squares": {k: sys.argv[2] + "/" + v for k, v in m["squares"].items()}}, open(sys.argv[3], "w"))
' "$F/manifest.json" "$F" "$WORK/slow/manifest.json"
run_litmus patches --manifest "$WORK/slow/manifest.json" --patches "$WORK/slow" \
  --db "$WORK/b.db" --format json --no-progress -j 2 --no-mutation \
  --diff-budget 2 --slower-is-overfitting 5
expect_eq "$RC" 1 "exit code with --slower-is-overfitting"
/usr/bin/python3 - "$WORK/out" <<'PY' || fail "slow patch not overfitting"
import json, sys
p = json.load(open(sys.argv[1]))["patches"][0]
assert (p["verdict"], p["reason"]) == ("overfitting", "slower"), (p["verdict"], p["reason"], p["detail"])
assert "slower-is-overfitting 5" in p["detail"], p["detail"]
PY

# A user's precondition replaces the inferred contract: one that admits
# repeated elements makes the rewrite that differs on them overfitting.
P=$WORK/pre
mkdir -p "$P/candidates"
cp -r "$F/perm" "$P/perm"
cp "$F/candidates/perm/correct_distinct.py" "$P/candidates/"
cat > "$P/pre.py" <<'PRE'
def litmus_precondition_next_perm(perm):
    return isinstance(perm, list) and all(type(x) is int for x in perm)
PRE
run_litmus patches --buggy "$P/perm/perm.py" --tests "$P/perm/test_perm.py" \
  --reference "$P/perm/reference/perm.py" --patches "$P/candidates" \
  --precondition "$P/pre.py" --no-mutation --db "$WORK/c.db" --format json \
  --no-progress -j 2
expect_eq "$RC" 1 "exit code with a precondition admitting repeated elements"
/usr/bin/python3 - "$WORK/out" <<'PY' || fail "the precondition was not used"
import json, sys
p = json.load(open(sys.argv[1]))["patches"][0]
assert (p["verdict"], p["reason"]) == ("overfitting", "differs_from_reference"), p
w = p["witness"]
assert w["contract"] == ["the user's litmus_precondition"], w
assert len(set(w["input"][0])) < len(w["input"][0]), w
PY
# A precondition that does not compile, or defines nothing, is refused.
printf 'def litmus_precondition(x:\n' > "$P/bad.py"
run_litmus patches --buggy "$P/perm/perm.py" --tests "$P/perm/test_perm.py" \
  --reference "$P/perm/reference/perm.py" --patches "$P/candidates" \
  --precondition "$P/bad.py" --db "$WORK/d.db" --no-progress
expect_eq "$RC" 2 "exit code for a precondition that does not compile"
grep -q "bad.py: the precondition file does not compile" "$WORK/err" ||
  fail "no message for the bad precondition: $(cat "$WORK/err")"
printf 'def check(x):\n    return True\n' > "$P/none.py"
run_litmus patches --buggy "$P/perm/perm.py" --tests "$P/perm/test_perm.py" \
  --reference "$P/perm/reference/perm.py" --patches "$P/candidates" \
  --precondition "$P/none.py" --db "$WORK/e.db" --no-progress
expect_eq "$RC" 2 "exit code for a precondition file without the function"
grep -q "defines no litmus_precondition" "$WORK/err" ||
  fail "no message for the missing function: $(cat "$WORK/err")"
echo "ok"
