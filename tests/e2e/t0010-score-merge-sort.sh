# Scores a corpus program: text output, stored verdicts, JSON, show.
. "$(dirname "$0")/lib.sh"
score_dir "$CORPUS/merge_sort"
expect_eq "$RC" 0 "exit code"
grep -q "mutation score:" "$WORK/out" || fail "no score line"
total=$(q "$DB" "SELECT count(*) FROM mutants")
done_=$(q "$DB" "SELECT count(*) FROM results")
expect_eq "$done_" "$total" "every mutant has a result"
[ "$total" -gt 10 ] || fail "too few mutants: $total"
pending=$(q "$DB" "SELECT count(*) FROM results WHERE verdict IN ('error','pending')")
expect_eq "$pending" 0 "no error verdicts"
killed=$(q "$DB" "SELECT count(*) FROM results WHERE verdict='killed'")
[ "$killed" -gt 0 ] || fail "nothing killed"
# Every killed mutant names the test that killed it.
nokiller=$(q "$DB" "SELECT count(*) FROM results WHERE verdict='killed' AND (killed_by IS NULL OR killed_by='')")
expect_eq "$nokiller" 0 "killed mutants without a killing test"

# JSON from the same database (a resumed run has nothing left to do).
run_litmus score "$CORPUS/merge_sort" --tests "$CORPUS/merge_sort" --db "$DB" --format json --no-progress
expect_eq "$RC" 0 "json exit code"
/usr/bin/python3 - "$WORK/out" "$total" "$killed" <<'PY' || fail "bad JSON report"
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["schema"] == "litmus.score/2", doc["schema"]
s = doc["summary"]
for k in ("mutants", "killed", "survived", "timeout", "crashed", "memory",
          "no_coverage", "equivalent", "invalid", "error", "score"):
    assert k in s, k
assert s["mutants"] == int(sys.argv[2]) == len(doc["mutants"])
assert s["killed"] == int(sys.argv[3])
det = s["killed"] + s["timeout"] + s["crashed"] + s["memory"]
valid = det + s["survived"] + s["no_coverage"]
assert abs(s["score"] - det / valid) < 1e-9
keys = {"id", "file", "line", "col", "end_line", "end_col", "operator",
        "category", "original", "replacement", "status", "killed_by",
        "duration_ms"}
for m in doc["mutants"]:
    assert keys <= set(m), set(m)
    assert m["category"] in ("statement", "value", "decision")
PY

# show: by full id and by prefix, with a diff and the killing test.
id=$(q "$DB" "SELECT m.id FROM mutants m JOIN results r ON r.mutant_id=m.id WHERE r.verdict='killed' ORDER BY m.id LIMIT 1")
run_litmus show "$id" --db "$DB"
expect_eq "$RC" 0 "show exit code"
grep -q "^verdict: killed, killed by .*test_" "$WORK/out" || fail "show lacks the killing test: $(cat "$WORK/out")"
grep -q '^--- a/' "$WORK/out" || fail "show lacks a diff"
grep -q '^+' "$WORK/out" || fail "show lacks added lines"
run_litmus show "${id:0:8}" --db "$DB"
expect_eq "$RC" 0 "show by prefix"
run_litmus show ffffffffffff --db "$DB"
expect_eq "$RC" 2 "show of an unknown id"
no_leftovers
exit 0
