# litmus patches, the single-file layer's comparison, contract and derived
# inputs (tests/fixtures/patch_single): a result equal to the reference's
# under the tests' == but of another type (3.0 for 3) is a note, not a
# witness; the sign of the weights of (weight, value) pairs is kept
# position by position, so a patch that differs only on a weight of 0 is
# correct with an outside-the-contract note; a text exactly as long as
# its width is a derived input (the relation step); a patch that no longer
# imports the modules the buggy file imported (heapq, operator, which
# litmus's own modules import too) is not taken for a tamper.
. "$(dirname "$0")/lib.sh"
F=$REPO/tests/fixtures/patch_single
/usr/bin/python3 -c "import hypothesis" 2>/dev/null ||
  skip "python3-hypothesis is not installed"
run_litmus patches --manifest "$F/manifest.json" --patches "$F/candidates" \
  --db "$WORK/a.db" --format json --no-progress -j 2 --no-mutation \
  --diff-budget 3
expect_eq "$RC" 1 "exit code (an overfitting patch present)"
/usr/bin/python3 - "$F/expected.json" "$WORK/out" <<'PY' || fail "verdicts or evidence differ"
import json, sys
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
assert not bad, "\n".join(bad)
# A type difference alone: a note and the evidence's type_difference.
p = got[("mean", "as_float")]
assert any(n.startswith("differs from the reference only in type: int 3 vs "
                        "float 3.0") for n in p["notes"]), p["notes"]
td = p["differential"]["type_difference"]
assert td["reference"]["type"] == "int" and td["candidate"]["type"] == "float", td
# The weights' rule, position by position.
p = got[("pack", "skips_zero")]
rules = p["differential"]["contracts"]["best_value"]
assert "field 1 of the elements of argument 2 > 0" in rules, rules
assert not any("field 2" in r for r in rules), rules
# The boundary: a derived text as long as its width.
w = got[("fit", "cuts_at_width")]["witness"]
assert w["origin"] == "derived", w
assert len(w["input"][0]) == w["input"][1], w
PY
