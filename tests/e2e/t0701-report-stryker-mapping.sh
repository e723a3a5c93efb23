# The Stryker status of every litmus verdict (docs/reports.md), with the
# reasons that keep what Stryker's vocabulary merges; and UTF-16 columns
# on a line with non-ASCII text before the mutant.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_report.sh"
need_jsonschema
need_npm
every_verdict
report --format stryker
expect_eq "$RC" 0 "report --format stryker"
cp "$WORK/out" "$WORK/s.json"
report --format json
/usr/bin/python3 - "$STRYKER_SCHEMA" "$WORK/s.json" "$WORK/out" <<'PY' || fail "status mapping"
import json, sys, jsonschema
schema, doc, ours = (json.load(open(p)) for p in sys.argv[1:])
jsonschema.Draft7Validator(schema).validate(doc)
want = {"killed": "Killed", "crashed": "Killed", "memory": "Killed",
        "timeout": "Timeout", "survived": "Survived",
        "no_coverage": "NoCoverage", "equivalent": "Ignored",
        "invalid": "CompileError", "error": "RuntimeError"}
by_id = {m["id"]: m for m in ours["mutants"]}
seen = set()
for m in next(iter(doc["files"].values()))["mutants"]:
    v = by_id[m["id"]]["status"]
    seen.add(v)
    assert m["status"] == want[v], (v, m["status"])
    r = m.get("statusReason", "")
    if v == "crashed": assert r == "crashed: signal 11 (SIGSEGV)", r
    if v == "memory": assert r == "memory: MemoryError", r
    if v == "equivalent": assert r.startswith("equivalent: compiles to the same code"), r
    if v == "error": assert r == "error: sandbox: seccomp refused", r
    if v == "invalid": assert r == "SyntaxError: invalid syntax", r
    if v == "no_coverage": assert m["coveredBy"] == [] and "killedBy" not in m, m
assert seen == set(want), seen
# The score the elements compute from the statuses is litmus's.
ms = next(iter(doc["files"].values()))["mutants"]
det = sum(m["status"] in ("Killed", "Timeout") for m in ms)
valid = det + sum(m["status"] in ("Survived", "NoCoverage") for m in ms)
assert abs(det / valid - ours["summary"]["score"]) < 1e-12, (det, valid, ours["summary"])
print("every verdict mapped; score", det / valid)
PY

# UTF-16 columns: "é" is 2 bytes and 1 unit, the clef 4 bytes and 2 units.
mkdir -p "$WORK/proj"
cat >"$WORK/proj/uni.py" <<'PY'
def tag(n):
    s = "é𝄞"; return s if n > 0 else ""
PY
cat >"$WORK/proj/test_uni.py" <<'PY'
from uni import tag


def test_tag():
    assert tag(1) == "é𝄞"
PY
(cd "$WORK/proj" && "$LITMUS" score uni.py --tests test_uni.py --db "$WORK/uni.db" \
   --no-progress --format stryker >"$WORK/uni.json" 2>"$WORK/uni.err") ||
  fail "score uni.py: $(cat "$WORK/uni.err")"
/usr/bin/python3 - "$STRYKER_SCHEMA" "$WORK/uni.json" <<'PY' || fail "UTF-16 columns"
import json, sys, jsonschema
schema, doc = (json.load(open(p)) for p in sys.argv[1:])
jsonschema.Draft7Validator(schema).validate(doc)
f = doc["files"]["uni.py"]
lines = f["source"].split("\n")
n = 0
for m in f["mutants"]:
    s, e = m["location"]["start"], m["location"]["end"]
    if s["line"] != 2 or e["line"] != 2:
        continue
    u = lines[1].encode("utf-16-le")
    text = u[2 * (s["column"] - 1):2 * (e["column"] - 1)].decode("utf-16-le")
    n += text == ">"  # byte columns would cut 3 units further right
    assert text.strip() and lines[1].count(text) >= 1, (text, m)
assert n >= 1, f["mutants"]
print("UTF-16 columns ok")
PY
no_leftovers
exit 0
