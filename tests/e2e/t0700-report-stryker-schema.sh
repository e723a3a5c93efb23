# `score --format stryker` and `report --format stryker`: valid against the
# published mutation-testing-report-schema (Draft 7, python3-jsonschema),
# the same document from both, locations that cut the mutated text out of
# the source, and a broken copy that the same check refuses.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_report.sh"
need_jsonschema
need_npm
score_merge_sort --format stryker
cp "$WORK/score.out" "$WORK/score.json"
report --format stryker
expect_eq "$RC" 0 "report --format stryker"
/usr/bin/python3 - "$WORK/score.json" "$WORK/out" <<'PY' || fail "score and report differ"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
a.pop("performance"); b.pop("performance")
assert a == b
PY
report --format json
cp "$WORK/out" "$WORK/litmus.json"
cat > "$WORK/check.py" <<'PY'
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
doc = json.load(open(sys.argv[2]))
jsonschema.Draft7Validator.check_schema(schema)
errors = sorted(jsonschema.Draft7Validator(schema).iter_errors(doc), key=str)
if errors:
    for e in errors[:5]:
        print("schema:", list(e.absolute_path), e.message)
    sys.exit(1)
if len(sys.argv) < 4:
    sys.exit(0)
ours = json.load(open(sys.argv[3]))
assert doc["schemaVersion"] == "2"
assert doc["framework"]["name"] == "litmus" and doc["framework"]["version"]
assert set(doc["performance"]) >= {"setup", "initialRun", "mutation"}
assert doc["thresholds"] == {"high": 80, "low": 60}, doc["thresholds"]
assert doc["config"]["operators"] == "mutmut", doc["config"]
files = doc["files"]
assert list(files) == ["bench/corpus/merge_sort/merge_sort.py"], list(files)
f = files["bench/corpus/merge_sort/merge_sort.py"]
assert f["language"] == "python"
lines = f["source"].split("\n")
tests = {t["id"] for tf in doc["testFiles"].values() for t in tf["tests"]}
assert all(k.endswith(".py") for k in doc["testFiles"]), list(doc["testFiles"])
assert any("::test_merge_is_stable" in t for t in tests), tests
by_id = {m["id"]: m for m in ours["mutants"]}
assert len(f["mutants"]) == len(by_id) == 40
for m in f["mutants"]:
    o = by_id[m["id"]]
    s, e = m["location"]["start"], m["location"]["end"]
    # 1-based, end exclusive; this source is ASCII, so columns are bytes.
    if s["line"] == e["line"]:
        text = lines[s["line"] - 1][s["column"] - 1:e["column"] - 1]
        assert text == o["original"], (m, o)
    assert s["line"] == o["line"] and s["column"] == o["col"]
    assert m["mutatorName"] == o["operator"]
    assert m["replacement"] == o["replacement"]
    assert m["status"] == {"killed": "Killed", "timeout": "Timeout",
                           "survived": "Survived"}[o["status"]], (m, o)
    for t in m.get("killedBy", []) + m.get("coveredBy", []):
        assert t in tests, t
    if m["status"] == "Killed":
        assert m["killedBy"] == [o["killed_by"]]
        assert m["killedBy"][0] in m["coveredBy"]
    assert m["testsCompleted"] >= 1 and m["duration"] > 0
    if m["status"] == "Survived":
        assert len(m["coveredBy"]) >= m["testsCompleted"] >= 1, m
survivor = [m for m in f["mutants"] if m["status"] == "Survived"]
assert len(survivor) == 1 and survivor[0]["location"]["start"] == {"line": 35, "column": 17}
print("stryker report ok:", len(f["mutants"]), "mutants,", len(tests), "tests")
PY
/usr/bin/python3 "$WORK/check.py" "$STRYKER_SCHEMA" "$WORK/out.stryker" "$WORK/litmus.json" 2>/dev/null && fail "a missing file passed"
/usr/bin/python3 "$WORK/check.py" "$STRYKER_SCHEMA" "$WORK/score.json" "$WORK/litmus.json" || fail "the Stryker report is not what it should be"

# The check can fail: broken copies are refused by the schema.
/usr/bin/python3 - "$WORK/score.json" "$WORK" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
m = next(iter(doc["files"].values()))["mutants"]
bad = json.loads(json.dumps(doc)); next(iter(bad["files"].values()))["mutants"][0]["status"] = "Dead"
json.dump(bad, open(sys.argv[2] + "/bad1.json", "w"))
bad = json.loads(json.dumps(doc)); next(iter(bad["files"].values()))["mutants"][0]["location"]["start"]["column"] = 0
json.dump(bad, open(sys.argv[2] + "/bad2.json", "w"))
bad = json.loads(json.dumps(doc)); del bad["thresholds"]
json.dump(bad, open(sys.argv[2] + "/bad3.json", "w"))
PY
for b in bad1 bad2 bad3; do
  /usr/bin/python3 "$WORK/check.py" "$STRYKER_SCHEMA" "$WORK/$b.json" >"$WORK/$b.log" 2>&1 && fail "$b.json passed the schema"
  grep -q '^schema:' "$WORK/$b.log" || fail "$b.json failed for another reason: $(cat "$WORK/$b.log")"
done
# --fail-under becomes the low threshold.
report --format stryker
(cd "$REPO" && "$LITMUS" score bench/corpus/merge_sort --tests bench/corpus/merge_sort \
   --db "$DB" --no-progress --format stryker --fail-under 90% >"$WORK/t.json" 2>"$WORK/t.err")
expect_eq "$?" 0 "score --fail-under 90%"
/usr/bin/python3 -c 'import json,sys; t=json.load(open(sys.argv[1]))["thresholds"]; assert t == {"high": 90, "low": 90}, t' "$WORK/t.json" || fail "thresholds"
no_leftovers
exit 0
