# litmus patches on the whole patch corpus (bench/corpus/patches): every
# candidate's verdict and reason as expected.json says, the failing tests
# of fails_tests candidates, a witness for every overfitting one, the CSV
# columns, the JSON schema, exit 1 (overfitting patches), and a second
# run served from the store without a single child.  (--timeout-const
# 0.3: the five patches that loop cost their limit each.)
. "$(dirname "$0")/lib.sh"
P=$CORPUS/patches
# The runner side of issue 4 (untrusted runs, call evaluation).
grep -qs calls_main "$REPO/runners/shim.py" || [ -f "$REPO/runners/calls.py" ] ||
  skip "the runner side of litmus patches has not landed"
DB=$WORK/p.db
run_litmus patches --manifest "$P/manifest.json" --patches "$P/patches.jsonl" \
  --timeout-const 0.3 --db "$DB" --csv "$WORK/p.csv" --format json --no-progress -j 2
expect_eq "$RC" 1 "exit code (overfitting patches present)"
[ -s "$WORK/p.csv" ] || fail "no CSV written"
cp "$WORK/out" "$WORK/p.json"
/usr/bin/python3 - "$P" "$WORK/p.json" "$WORK/p.csv" <<'PY' || fail "verdicts differ from expected.json"
import csv, json, os, sys
corpus, jpath, cpath = sys.argv[1:]
doc = json.load(open(jpath))
assert doc["schema"] == "litmus.patches/1", doc["schema"]
rows = list(csv.reader(open(cpath)))
header = ["program", "run_id", "verdict", "reason", "tests_passed",
          "tests_total", "mutation_score", "reference_score", "witness",
          "token_similarity", "ast_similarity", "duration_ms",
          "compared_test", "compared_held_out", "compared_inputs",
          "compared_derived", "compared_objects", "compared_generated",
          "outside_contract"]
assert rows[0] == header, rows[0]
assert all(len(r) == len(header) for r in rows), "CSV rows of another width"
by_csv = {(r[0], r[1]): dict(zip(header, r)) for r in rows[1:]}
by_json = {(p["program"], p["run_id"]): p for p in doc["patches"]}
assert len(by_csv) == len(by_json) == len(rows) - 1 == 77, (len(by_csv), len(by_json))
want_fields = {"program", "run_id", "verdict", "reason", "detail",
               "tests_passed", "tests_total", "failing_tests",
               "mutation_score", "reference_score", "witness",
               "token_similarity", "ast_similarity", "differential",
               "held_out", "mutation", "notes", "duration_ms", "text_sha"}
bad = []
n = 0
for prog in sorted(os.listdir(corpus)):
    e = os.path.join(corpus, prog, "expected.json")
    if not os.path.exists(e):
        continue
    for run, x in json.load(open(e)).items():
        n += 1
        p = by_json.get((prog, run))
        c = by_csv.get((prog, run))
        if p is None or c is None:
            bad.append("%s %s: missing" % (prog, run))
            continue
        missing = want_fields - set(p)
        if missing:
            bad.append("%s %s: JSON lacks %s" % (prog, run, sorted(missing)))
        for src, r in (("json", p), ("csv", c)):
            if (r["verdict"], r["reason"]) != (x["verdict"], x["reason"]):
                bad.append("%s %s (%s): %s/%s, expected %s/%s [%s]" % (
                    prog, run, src, r["verdict"], r["reason"], x["verdict"],
                    x["reason"], p.get("detail")))
        if x["reason"] == "fails_tests" and \
                sorted(p["failing_tests"]) != sorted(x["failing_tests"]):
            bad.append("%s %s: failing tests %s, expected %s" % (
                prog, run, p["failing_tests"], x["failing_tests"]))
        if x["verdict"] == "overfitting":
            w = p["witness"]
            if not w or not w.get("text") or not c["witness"]:
                bad.append("%s %s: no witness" % (prog, run))
            elif "input_repr" in w and (w["reference"] == w["candidate"]):
                bad.append("%s %s: witness outcomes equal" % (prog, run))
        if x["verdict"] in ("correct", "memorized", "overfitting"):
            if p["tests_passed"] != p["tests_total"] or p["tests_total"] == 0:
                bad.append("%s %s: tests %s/%s" % (prog, run, p["tests_passed"], p["tests_total"]))
            if p["mutation_score"] is None or p["reference_score"] is None:
                bad.append("%s %s: no mutation scores" % (prog, run))
            if p["token_similarity"] is None or p["ast_similarity"] is None:
                bad.append("%s %s: no similarities" % (prog, run))
        if x["verdict"] == "memorized" and c["token_similarity"] != "1.0000":
            bad.append("%s %s: token similarity %s" % (prog, run, c["token_similarity"]))
        if x["reason"] == "timeout" and "did not finish during" not in (p["detail"] or ""):
            bad.append("%s %s: timeout detail names no test: %s" % (prog, run, p["detail"]))
        if x["reason"] == "tamper" and not p["detail"]:
            bad.append("%s %s: tamper without detail" % (prog, run))
assert n == 77, n
ov = doc["overall"]
assert (ov["patches"], ov["correct"], ov["overfitting"], ov["memorized"],
        ov["invalid"], ov["error"]) == (77, 12, 12, 12, 41, 0), ov
assert ov["scores_consistent"] is True
for name, s in doc["programs"].items():
    assert s["patches"] == sum(s[v] for v in ("correct", "overfitting", "memorized", "invalid", "error")), name
    assert s["reference_score"] is not None, name
if bad:
    print("\n".join(bad))
    sys.exit(1)
print("77/77 verdicts and reasons as expected")
PY

# The text report: per-program table, overall row, consistency line.
run_litmus patches --manifest "$P/manifest.json" --patches "$P/patches.jsonl" \
  --timeout-const 0.3 --db "$DB" --no-progress -j 2
expect_eq "$RC" 1 "text report exit code"
grep -q '^program .*correct .*overfitting .*memorized' "$WORK/out" || fail "no table header: $(head -5 "$WORK/out")"
grep -q '^gcd  *6  *1  *1  *1  *3  *0' "$WORK/out" || fail "no gcd row: $(cat "$WORK/out")"
grep -q '^overall  *77  *12  *12  *12  *41  *0' "$WORK/out" || fail "no overall row"
grep -q '^score consistency: identical texts got identical' "$WORK/out" || fail "no consistency line"

# A third run, from the store alone: no child at all, the same CSV.
export LITMUS_RUN_LOG=$WORK/runlog
run_litmus patches --manifest "$P/manifest.json" --patches "$P/patches.jsonl" \
  --timeout-const 0.3 --db "$DB" --csv "$WORK/p2.csv" --no-progress -j 2
expect_eq "$RC" 1 "cached run exit code"
[ ! -s "$WORK/runlog" ] || fail "the cached run started children: $(head -3 "$WORK/runlog")"
cut -d, -f1-11 "$WORK/p.csv" > "$WORK/a"
cut -d, -f1-11 "$WORK/p2.csv" > "$WORK/b"
cmp -s "$WORK/a" "$WORK/b" || fail "the cached run's CSV differs: $(diff "$WORK/a" "$WORK/b" | head)"
no_leftovers
exit 0
