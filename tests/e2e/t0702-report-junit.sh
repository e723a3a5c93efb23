# --format junit: parsed strictly (xml.etree), one testcase per mutant,
# counts that add up, the survivor a failure carrying its diff, and the
# no_coverage / timeout policies.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_report.sh"
every_verdict
cat > "$WORK/check.py" <<'PY'
import json, sys
import xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
ours = json.load(open(sys.argv[2]))
nc, to = sys.argv[3], sys.argv[4]  # expected element for no_coverage, timeout
assert root.tag == "testsuites", root.tag
suites = list(root)
assert [s.tag for s in suites] == ["testsuite"], suites
suite = suites[0]
cases = suite.findall("testcase")
assert len(cases) == len(ours["mutants"]) == int(suite.get("tests")) == int(root.get("tests"))
count = {"failure": 0, "error": 0, "skipped": 0}
by_id = {m["id"]: m for m in ours["mutants"]}
want = {"killed": None, "crashed": None, "memory": None, "survived": "failure",
        "no_coverage": None if nc == "ignore" else nc,
        "timeout": None if to == "ignore" else to,
        "equivalent": "skipped", "invalid": "skipped", "error": "error"}
names = set()
for c in cases:
    assert set(c.attrib) == {"classname", "name", "file", "line", "time"}, c.attrib
    assert c.get("classname") == "bench.corpus.merge_sort.merge_sort"
    assert c.get("file") == "bench/corpus/merge_sort/merge_sort.py"
    float(c.get("time")); int(c.get("line"))
    assert c.get("name") not in names; names.add(c.get("name"))
    m = by_id[c.get("name").split()[0]]
    assert int(c.get("line")) == m["line"]
    kids = list(c)
    assert len(kids) <= 1, kids
    tag = kids[0].tag if kids else None
    assert tag == want[m["status"]], (m["status"], tag)
    if tag:
        count[tag] += 1
        assert kids[0].get("message", "").startswith(m["status"] + ":"), kids[0].attrib
    if tag in ("failure", "error"):
        assert kids[0].get("type") == m["status"]
        diff = kids[0].text
        assert diff.startswith("--- a/bench/corpus/merge_sort/merge_sort.py\n+++ b/"), diff
        if m["status"] == "survived":
            assert "\n-    while width < n:\n+    while width <= n:\n" in diff, diff
for k, n in count.items():
    assert int(suite.get(k + "s" if k != "skipped" else k)) == n, (k, n, suite.attrib)
    assert int(root.get(k + "s" if k != "skipped" else k)) == n, (k, n)
props = {p.get("name"): p.get("value") for p in suite.find("properties")}
assert abs(float(props["mutation_score"]) - ours["summary"]["score"]) < 1e-4
print("junit ok:", count)
PY
report --format json
cp "$WORK/out" "$WORK/litmus.json"
report --format junit
expect_eq "$RC" 0 "report --format junit"
/usr/bin/python3 "$WORK/check.py" "$WORK/out" "$WORK/litmus.json" failure ignore || fail "junit (default policies)"
report --format junit --junit-no-coverage skipped --junit-timeout failure
expect_eq "$RC" 0 "junit with policies"
/usr/bin/python3 "$WORK/check.py" "$WORK/out" "$WORK/litmus.json" skipped failure || fail "junit (skipped, failure)"
report --format junit --junit-no-coverage ignore --junit-timeout error
/usr/bin/python3 "$WORK/check.py" "$WORK/out" "$WORK/litmus.json" ignore error || fail "junit (ignore, error)"
# The checker fails on a policy it was not given.
/usr/bin/python3 "$WORK/check.py" "$WORK/out" "$WORK/litmus.json" failure ignore >/dev/null 2>&1 && fail "the checker accepts anything"
report --format junit --junit-timeout sometimes
expect_eq "$RC" 2 "bad policy"
grep -q "ignore, skipped, error or failure" "$WORK/err" || fail "bad policy message: $(cat "$WORK/err")"
# Text that XML cannot carry: control characters and markup in a detail.
id=$(q "$DB" "SELECT mutant_id FROM results WHERE verdict = 'survived'")
q "$DB" "UPDATE results SET detail = 'x <y> & \"z\"' || char(1) || char(27) || ' ]]>' WHERE mutant_id = '$id'"
report --format junit
/usr/bin/python3 -c 'import sys, xml.etree.ElementTree as ET; r = ET.parse(sys.argv[1]).getroot(); f = [f for f in r.iter("failure") if f.get("type") == "survived"][0]; assert "x <y> & \"z\"" in f.get("message"), f.get("message")' "$WORK/out" || fail "escaping"
exit 0
