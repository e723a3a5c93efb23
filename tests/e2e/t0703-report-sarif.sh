# --format sarif: valid against the SARIF 2.1.0 schema, a rule per verdict
# kind, the survivor a warning and no_coverage a note, repository-relative
# URIs and 1-based regions.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_report.sh"
need_jsonschema
need_npm
every_verdict
report --format json
cp "$WORK/out" "$WORK/litmus.json"
report --format sarif
expect_eq "$RC" 0 "report --format sarif"
cat > "$WORK/check.py" <<'PY'
import json, sys, jsonschema
schema, doc = (json.load(open(p)) for p in sys.argv[1:3])
v = jsonschema.Draft4Validator(schema)
errors = list(v.iter_errors(doc))
for e in errors[:5]:
    print("schema:", list(e.absolute_path), e.message)
if errors:
    sys.exit(1)
if len(sys.argv) < 4:
    sys.exit(0)
ours = json.load(open(sys.argv[3]))
assert doc["version"] == "2.1.0"
run, = doc["runs"]
rules = run["tool"]["driver"]["rules"]
ids = [r["id"] for r in rules]
assert sorted(ids) == sorted("litmus/" + k for k in ("survived", "no_coverage", "killed", "timeout", "crashed", "memory", "equivalent", "invalid", "error")), ids
assert run["originalUriBaseIds"]["SRCROOT"]["uri"].startswith("file:///")
assert run["originalUriBaseIds"]["SRCROOT"]["uri"].endswith("/")
by_id = {m["id"]: m for m in ours["mutants"]}
want = {m["id"]: m for m in ours["mutants"] if m["status"] in ("survived", "no_coverage")}
got = {}
for r in run["results"]:
    mid = r["partialFingerprints"]["litmusMutantId/v1"]
    m = by_id[mid]
    got[mid] = r
    assert r["level"] == {"survived": "warning", "no_coverage": "note"}[m["status"]], r
    assert ids[r["ruleIndex"]] == r["ruleId"] == "litmus/" + m["status"]
    loc = r["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"] == {"uri": "bench/corpus/merge_sort/merge_sort.py", "uriBaseId": "SRCROOT"}, loc
    reg = loc["region"]
    assert reg["startLine"] == m["line"] and reg["startColumn"] == m["col"], (reg, m)
    assert reg["endLine"] == m["end_line"] and reg["endColumn"] == m["end_col"], (reg, m)
    assert reg["snippet"]["text"] == m["original"]
assert set(got) == set(want), (set(got), set(want))
s = [r for r in run["results"] if r["level"] == "warning"]
assert len(s) == 1 and s[0]["locations"][0]["physicalLocation"]["region"]["startLine"] == 35
print("sarif ok:", len(run["results"]), "results")
PY
/usr/bin/python3 "$WORK/check.py" "$SARIF_SCHEMA" "$WORK/out" "$WORK/litmus.json" || fail "SARIF"
# The check can fail: a broken copy is refused by the schema.
/usr/bin/python3 - "$WORK/out" "$WORK/bad.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["runs"][0]["results"][0]["level"] = "severe"
d["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] = 0
json.dump(d, open(sys.argv[2], "w"))
PY
/usr/bin/python3 "$WORK/check.py" "$SARIF_SCHEMA" "$WORK/bad.json" >"$WORK/bad.log" 2>&1 && fail "a broken SARIF file passed"
grep -q '^schema:' "$WORK/bad.log" || fail "failed for another reason: $(cat "$WORK/bad.log")"
exit 0
