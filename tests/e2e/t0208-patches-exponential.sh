# litmus patches on an exponential program (tests/fixtures/patch_exponential:
# a plain-recursion edit distance whose suite takes about a tenth of a second on
# the reference) with ten candidates: correct rewrites (memoised, tables,
# from the other end, a slower recursion), a copy of the fix, and
# overfitting ones.  Every candidate gets its verdict, each within the
# budgets, none near a minute; the slower correct ones are notes, not
# "does not finish".  (The mutation layer's budget on an exponential
# program is t0206's.)
. "$(dirname "$0")/lib.sh"
F=$REPO/tests/fixtures/patch_exponential
/usr/bin/python3 -c "import hypothesis" 2>/dev/null ||
  skip "python3-hypothesis is not installed"
# Two seconds of differential CPU a candidate: with one, a machine whose
# CPU time a heavy load stretches (slow page faults) missed two
# overfitting patches of the four.
budget=2
start=$(date +%s)
run_litmus patches --buggy "$F/edit_distance.py" \
  --tests "$F/test_edit_distance.py" \
  --reference "$F/reference/edit_distance.py" --patches "$F/candidates" \
  --db "$WORK/a.db" --format json --no-progress -j 2 \
  --diff-budget $budget --no-mutation
expect_eq "$RC" 1 "exit code (overfitting patches present)"
elapsed=$(( $(date +%s) - start ))
/usr/bin/python3 - "$F/expected.json" "$WORK/out" "$budget" <<'PY' || fail "verdicts or budgets"
import json, sys
want = json.load(open(sys.argv[1]))
doc = json.load(open(sys.argv[2]))
got = {p["run_id"]: p for p in doc["patches"]}
budget = float(sys.argv[3])
assert set(got) == set(want) and len(got) >= 10, sorted(got)
bad = []
missed = []
for run, verdict in sorted(want.items()):
    p = got[run]
    # A small budget may miss an overfitting patch on a slow program (the
    # trade the budget makes); it must never blame a correct one, and
    # every candidate gets a verdict.
    if verdict == "overfitting" and p["verdict"] == "correct":
        missed.append(run)
    elif p["verdict"] != verdict:
        bad.append("%s: %s/%s, expected %s: %s" % (run, p["verdict"],
                   p["reason"], verdict, p["detail"]))
    # Child time of this candidate: layer 1, the differential run, its
    # mutants.  Far under a minute, whatever the machine's load.
    if p["duration_ms"] > 45000:
        bad.append("%s: %.1f s of child time" % (run, p["duration_ms"] / 1000))
    d = p["differential"] or {}
    # The budget, and one input's overshoot (a fifth of it for the
    # reference, five times that for a slow patch, confirmed once).
    beyond = d.get("cpu_s", 0) - d.get("given_cpu_s", 0)
    if beyond > budget + 2 * (5 * budget / 5 + 1):
        bad.append("%s: differential run %.1f s CPU beyond the given inputs"
                   % (run, beyond))
assert len(missed) <= 1, "missed with --diff-budget %g: %s" % (budget, missed)
assert not bad, "\n".join(bad)
print("overfitting patches missed within the budget: %s" % (missed or "none"))
# The slow but correct recursion is a note, never "does not finish".
for run in ("no_shortcut", "from_the_end"):
    assert got[run]["verdict"] == "correct", got[run]
PY
echo "whole triage: ${elapsed} s"
