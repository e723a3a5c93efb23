# --fail-on-new-survivors: exit 0 while every survivor is accepted in the
# baseline, 1 once one is not; --write-survivors writes it and keeps the
# reasons given; bad baselines are exit 2.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_report.sh"
every_verdict   # one survivor and one no_coverage mutant
B=$WORK/survivors.json
report --write-survivors "$B" --reason "equivalent by review: width == n merges nothing more"
expect_eq "$RC" 0 "write the baseline"
grep -q "wrote 2 survivors to $B" "$WORK/err" || fail "write message: $(cat "$WORK/err")"
/usr/bin/python3 - "$B" <<'PY' || fail "baseline content: $(cat "$B")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "litmus.survivors/1"
s = d["survivors"]
assert len(s) == 2 and {e["verdict"] for e in s} == {"survived", "no_coverage"}
for e in s:
    assert len(e["id"]) == 16 and e["reason"].startswith("equivalent by review")
    assert e["file"] == "bench/corpus/merge_sort/merge_sort.py"
PY
report --fail-on-new-survivors "$B"
expect_eq "$RC" 0 "every survivor accepted"
grep -q "every survivor (2) is in the baseline" "$WORK/err" || fail "gate message: $(cat "$WORK/err")"
# The same gate from `litmus score`, with a machine format on stdout.
(cd "$REPO" && "$LITMUS" score bench/corpus/merge_sort --tests bench/corpus/merge_sort \
   --db "$DB" --no-progress --format sarif --fail-on-new-survivors "$B" >"$WORK/s.out" 2>"$WORK/s.err")
expect_eq "$?" 0 "score gate, all accepted"
/usr/bin/python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$WORK/s.out" || fail "stdout is not only SARIF"

# Remove the survivor from the baseline: exit 1, and it is named.
sid=$(q "$DB" "SELECT mutant_id FROM results WHERE verdict = 'survived'")
/usr/bin/python3 - "$B" "$sid" "$WORK/less.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["survivors"] = [e for e in d["survivors"] if e["id"] != sys.argv[2]]
json.dump(d, open(sys.argv[3], "w"))
PY
report --fail-on-new-survivors "$WORK/less.json"
expect_eq "$RC" 1 "a survivor not in the baseline"
grep -q "1 survivor not in the baseline" "$WORK/err" || fail "gate message: $(cat "$WORK/err")"
grep -q "  $sid  bench/corpus/merge_sort/merge_sort.py:35:17" "$WORK/err" || fail "the new survivor is not named: $(cat "$WORK/err")"
(cd "$REPO" && "$LITMUS" score bench/corpus/merge_sort --tests bench/corpus/merge_sort \
   --db "$DB" --no-progress --fail-on-new-survivors "$WORK/less.json" >"$WORK/s.out" 2>"$WORK/s.err")
expect_eq "$?" 1 "score gate, one new"

# Rewriting keeps the reasons of entries already there; new ones get the
# reason given now, stale ones go.
/usr/bin/python3 - "$WORK/less.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["survivors"][0]["reason"] = "kept reason"
d["survivors"].append({"id": "0123456789abcdef", "reason": "stale"})
json.dump(d, open(sys.argv[1], "w"))
PY
report --fail-on-new-survivors "$WORK/less.json"
grep -q "1 accepted survivor of .* no longer survives" "$WORK/err" || fail "stale entry not reported: $(cat "$WORK/err")"
report --write-survivors "$WORK/less.json" --reason "new one"
expect_eq "$RC" 0 "rewrite"
/usr/bin/python3 - "$WORK/less.json" "$sid" <<'PY' || fail "merged baseline: $(cat "$WORK/less.json")"
import json, sys
s = json.load(open(sys.argv[1]))["survivors"]
r = {e["id"]: e["reason"] for e in s}
assert len(r) == 2 and "0123456789abcdef" not in r, r
assert r[sys.argv[2]] == "new one", r
assert "kept reason" in r.values(), r
PY

# Bad baselines: not JSON, no reason, a bad id, another schema.
echo '{' > "$WORK/b1.json"
echo '{"schema": "litmus.survivors/1", "survivors": [{"id": "'"$sid"'"}]}' > "$WORK/b2.json"
echo '{"schema": "litmus.survivors/1", "survivors": [{"id": "xyz", "reason": "r"}]}' > "$WORK/b3.json"
echo '{"schema": "other/1", "survivors": []}' > "$WORK/b4.json"
for b in b1 b2 b3 b4; do
  report --fail-on-new-survivors "$WORK/$b.json"
  expect_eq "$RC" 2 "bad baseline $b"
done
grep -q 'accepted with a "reason"' <(report --fail-on-new-survivors "$WORK/b2.json"; cat "$WORK/err") || fail "no-reason message"
report --fail-on-new-survivors "$WORK/missing.json"
expect_eq "$RC" 2 "missing baseline"
exit 0
