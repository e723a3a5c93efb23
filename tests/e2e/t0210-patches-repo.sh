# litmus patches on repository candidates (SWE-bench instances and
# predictions, and the CI form): each candidate's "resolved" equals the
# decision of the harness's rules computed with plain pytest
# (tests/fixtures/repo_patches/labels.json), except where litmus refuses
# a faked pass; candidates that break a wider-suite test are overfitting
# with that test as witness, others are caught by differential execution
# against the reference; hostile candidates are invalid; the report,
# CSV and harness reports agree with the store; the same command again
# starts no child.
. "$(dirname "$0")/lib.sh"
FIX=$(cd "$(dirname "$0")/../fixtures/repo_patches" && pwd)
bash "$FIX/make_repos.sh" "$WORK/rp" >/dev/null || fail "make_repos.sh"
R=$WORK/rp
DB=$WORK/repo.db
args=(patches --instances "$R/instances.jsonl" --predictions "$R/predictions.jsonl"
      --repos "$R/repos" --env "$R/env.json" --no-progress -j 2
      --diff-budget 0.4 --no-mutation --no-probes --timeout 3
      --worktrees "$WORK/trees")
# (the mutation layer is checked in t0214, the probes in t0214 and t0215)
run_litmus "${args[@]}" --db "$DB" -f json --csv "$WORK/out.csv" \
  --harness-report "$WORK/harness"
# Exit 1: some candidates are overfitting (the CI gate).
expect_eq "$RC" 1 "exit code ($(tail -3 "$WORK/err"))"
python3 - "$WORK/out" "$FIX/labels.json" "$WORK/harness" <<'PY' || fail "verdicts against the labels"
import json, os, sys
doc = json.load(open(sys.argv[1]))
labels = json.load(open(sys.argv[2]))
rows = {(c["instance_id"], c["model_name_or_path"][len("fixture-"):]): c
        for c in doc["candidates"]}
# Where litmus differs from plain pytest on purpose: faked passes are
# never resolved.
refused = {"hostile-fake-report", "hostile-pytest-monkeypatch", "edits-conftest"}
bad = []
flagged = []
differential = 0
for inst, cands in labels.items():
    for k, lab in cands.items():
        c = rows[(inst, k)]
        resolved = c["evidence"]["harness"] == "resolved"
        want = lab["resolved"]
        if lab["kind"] in refused:
            want = False
        if resolved != want:
            bad.append("%s %s: resolved %s, harness %s" % (inst, k, resolved, want))
        if lab["kind"] == "overfit-wider-suite" and c["verdict"] != "overfitting":
            bad.append("%s %s: %s, not overfitting" % (inst, k, c["verdict"]))
        if lab["kind"] == "overfit-wider-suite":
            w = c["evidence"].get("witness", {}).get("test", "")
            if "::" not in w:
                bad.append("%s %s: no witness test" % (inst, k))
        if lab["label"] == "correct" and c["verdict"] not in ("correct", "memorized") and \
                lab["kind"] != "apply-3way-only":
            flagged.append("%s %s: correct labelled %s (%s)" % (inst, k, c["verdict"], c["detail"]))
        if lab["label"] == "overfitting" and c["reason"] == "differs_from_reference":
            differential += 1
            if not c["evidence"].get("witness"):
                bad.append("%s %s: differs_from_reference without a witness" % (inst, k))
        if lab["kind"].startswith("hostile") and c["verdict"] == "invalid" and \
                c["reason"] not in ("tamper", "timeout", "fails_tests", "crash"):
            bad.append("%s %s: hostile with reason %s" % (inst, k, c["reason"]))
        if lab["kind"] in ("does-not-apply",) and c["reason"] != "does_not_apply":
            bad.append("%s %s: %s" % (inst, k, c["reason"]))
        if lab["kind"] == "empty" and c["reason"] != "empty_patch":
            bad.append("%s %s: empty gave %s" % (inst, k, c["reason"]))
# Differential execution catches overfitting patches the suites miss;
# its known false alarms here: a -0.0 the reference formats as "-0", and
# a yes/no setting read as True where the reference keeps 1 (equal for
# the tests' ==).
if differential < 4:
    bad.append("differential execution caught %d overfitting patches" % differential)
if len(flagged) > 2:
    bad.extend(flagged)
# The harness's report per model agrees with the rows.
for name in os.listdir(sys.argv[3]):
    rep = json.load(open(os.path.join(sys.argv[3], name)))
    model = name[:-len(".litmus.json")]
    mine = sorted(c["instance_id"] for c in doc["candidates"]
                  if c["model_name_or_path"] == model and c["evidence"]["harness"] == "resolved")
    if sorted(rep["resolved_ids"]) != mine:
        bad.append("harness report of %s: %s != %s" % (model, rep["resolved_ids"], mine))
    if rep["submitted_instances"] != rep["completed_instances"] + rep["empty_patch_instances"] + rep["error_instances"]:
        bad.append("harness report of %s does not add up" % model)
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
expect_eq "$(($(wc -l < "$WORK/out.csv") - 1))" "$(wc -l < "$R/predictions.jsonl")" "CSV rows"
# The wider suite's witness names the test in the text report too.
run_litmus "${args[@]}" --db "$DB"
expect_eq "$RC" 1 "text report exit code"
grep -q "fails_wider_suite" "$WORK/out" || fail "text report lacks fails_wider_suite"
grep -q "left out: tests/conftest.py (config)" "$WORK/out" || fail "edited conftest not reported"
# The same command again takes every result from the store.
LITMUS_RUN_LOG=$WORK/runlog run_litmus "${args[@]}" --db "$DB"
[ ! -s "$WORK/runlog" ] || fail "the second run started runs: $(head -3 "$WORK/runlog")"
# The CI form: a pull request's revisions on the repository at hand.
# Its progress lines (a log's, every 0.05 s here) say what is under way
# before the first verdict, and the last one that every candidate is
# decided (a run no verdict waits for may still be ending then).
LITMUS_PROGRESS_INTERVAL=0.05 run_litmus patches --repo "$R/ci-repo" --base main \
  --reference fix --candidate cand-good --candidate cand-breaks --db "$WORK/ci.db" \
  -f json --diff-budget 0.4 --no-mutation --no-probes
expect_eq "$RC" 1 "CI form exit code ($(tail -3 "$WORK/err"))"
grep -q "^litmus: 0/2 patches, 0/1 instances set up, [0-9]* of [1-9][0-9]* runs done" \
  "$WORK/err" || fail "no progress line before the first verdict: $(cat "$WORK/err")"
last=$(grep "instances set up" "$WORK/err" | tail -n 1)
case $last in
  "litmus: 2/2 patches, 1/1 instances set up, "*" runs done; "*) ;;
  *) fail "the last progress line is not the end: $last" ;;
esac
python3 - "$WORK/out" <<'PY' || fail "CI form verdicts"
import json, sys
rows = {c["model_name_or_path"]: c for c in json.load(open(sys.argv[1]))["candidates"]}
assert rows["cand-good"]["verdict"] == "correct", rows["cand-good"]
assert rows["cand-breaks"]["verdict"] == "overfitting", rows["cand-breaks"]
assert rows["cand-breaks"]["reason"] == "fails_wider_suite", rows["cand-breaks"]
# Three wider tests execute textkit/numbers.py; only test_report_line runs
# the function the candidates change: the others run the same code with
# either fix and are not repeated.
for k in ("cand-good", "cand-breaks"):
    assert rows[k]["evidence"]["wider"]["tests"] == 1, rows[k]["evidence"]
PY

# An instance whose FAIL_TO_PASS is empty: as in the harness, its
# PASS_TO_PASS alone decides (the gold fix resolves it), and no
# environment error is made of the empty list.
python3 - "$R/instances.jsonl" "$R/predictions.jsonl" "$WORK/np" <<'PY'
import json, os, sys
os.makedirs(sys.argv[3], exist_ok=True)
inst = json.loads(open(sys.argv[1]).readline())
inst["FAIL_TO_PASS"] = []
open(os.path.join(sys.argv[3], "i.jsonl"), "w").write(json.dumps(inst) + "\n")
gold = {"instance_id": inst["instance_id"], "model_name_or_path": "gold",
        "model_patch": inst["patch"]}
open(os.path.join(sys.argv[3], "p.jsonl"), "w").write(json.dumps(gold) + "\n")
PY
run_litmus patches --instances "$WORK/np/i.jsonl" --predictions "$WORK/np/p.jsonl" \
  --repos "$R/repos" --env "$R/env.json" --no-progress --diff-budget 0.4 \
  --no-mutation --no-probes --timeout 3 --worktrees "$WORK/trees" \
  --db "$WORK/np.db" -f json
expect_eq "$RC" 0 "empty FAIL_TO_PASS: exit code ($(tail -3 "$WORK/err"))"
python3 - "$WORK/out" <<'PY' || fail "empty FAIL_TO_PASS: $(cat "$WORK/out")"
import json, sys
(c,) = json.load(open(sys.argv[1]))["candidates"]
assert c["evidence"]["harness"] == "resolved", c
assert c["evidence"]["decided_by"] == "instance lists", c["evidence"]
PY
