# litmus patches --mutation-budget: on an exponential program whose
# mutants' estimate is over a small budget, a sample of the mutants runs
# (the patches' and the reference's), the JSON says so with a 95%
# interval, the verdict's detail states it, and a second run on a fresh
# database samples the same mutants to the same score.
. "$(dirname "$0")/lib.sh"
grep -qs calls_main "$REPO/runners/shim.py" || [ -f "$REPO/runners/calls.py" ] ||
  skip "the runner side of litmus patches has not landed"
P=$WORK/prog
mkdir -p "$P/ref" "$P/patches"
# Naive recursive edit distance: exponential in the strings' lengths.
cat > "$P/edit.py" <<'PY'
def edit(a, b):
    if not a:
        return len(b)
    if not b:
        return len(a)
    if a[0] == b[0]:
        return 1 + edit(a[1:], b[1:])
    return 1 + min(edit(a[1:], b), edit(a, b[1:]), edit(a[1:], b[1:]))
PY
cat > "$P/ref/edit.py" <<'PY'
def edit(a, b):
    if not a:
        return len(b)
    if not b:
        return len(a)
    if a[0] == b[0]:
        return edit(a[1:], b[1:])
    return 1 + min(edit(a[1:], b), edit(a, b[1:]), edit(a[1:], b[1:]))
PY
cat > "$P/patches/layout.py" <<'PY'
def edit(a, b):
    if len(a) == 0:
        return len(b)
    if len(b) == 0:
        return len(a)
    if a[0] == b[0]:
        return edit(a[1:], b[1:])
    delete = edit(a[1:], b)
    insert = edit(a, b[1:])
    replace = edit(a[1:], b[1:])
    return 1 + min(delete, insert, replace)
PY
cat > "$P/patches/swap.py" <<'PY'
def edit(a, b):
    if not a or not b:
        return len(a) + len(b)
    if a[-1] == b[-1]:
        return edit(a[:-1], b[:-1])
    return 1 + min(edit(a[:-1], b), edit(a, b[:-1]), edit(a[:-1], b[:-1]))
PY
cat > "$P/test_edit.py" <<'PY'
import pytest
from edit import edit


@pytest.mark.parametrize("a,b,want", [
    ("", "", 0), ("abc", "", 3), ("", "ab", 2), ("abc", "abd", 1),
    ("kitten", "sitting", 3), ("flaw", "lawn", 2),
    ("intention", "execution", 5), ("sunday", "saturday", 3),
])
def test_edit(a, b, want):
    assert edit(a, b) == want
PY

triage() { # db budget
  run_litmus patches --buggy "$P/edit.py" --tests "$P/test_edit.py" \
    --reference "$P/ref/edit.py" --patches "$P/patches" --db "$1" \
    --format json --no-progress --jobs 2 --mutation-budget "$2" \
    --diff-budget 0.3
  expect_eq "$RC" 0 "exit code ($1, budget $2): $(tail -3 "$WORK/err")"
  cp "$WORK/out" "$1-$2.json"
}
# A budget below what the least sample costs: the least sample (4) runs,
# whatever the machine's speed, so the two runs must agree exactly.
triage "$WORK/a.db" 0.05
triage "$WORK/b.db" 0.05
/usr/bin/python3 - "$WORK/a.db-0.05.json" "$WORK/b.db-0.05.json" <<'PY' || fail "sampled mutation scores"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
assert a["settings"]["mutation_budget"] == 0.05, a["settings"]
def muts(doc):
    out = {p["run_id"]: p["mutation"] for p in doc["patches"]}
    out["reference"] = doc["programs"]["edit"]["reference_mutation"]
    return out
ma, mb = muts(a), muts(b)
assert set(ma) == {"layout", "swap", "reference"}, sorted(ma)
for run, m in ma.items():
    # Over the budget: a sample, stated with its size and interval.
    assert m["sampled"] is True and m["mutants_run"] == 4, (run, m)
    assert 4 < m["mutants_total"] <= m["mutants"], (run, m)
    assert m["score_low"] <= m["score"] <= m["score_high"], (run, m)
    assert m["score_high"] - m["score_low"] > 0.3, (run, m)
    assert m["budget_s"] == 0.05 and m["timing_run"] is True, (run, m)
    # The same sample on a fresh database: the same score.
    n = mb[run]
    assert (m["mutants_run"], m["mutants_total"], m["score"], m["counts"]) == \
        (n["mutants_run"], n["mutants_total"], n["score"], n["counts"]), (run, m, n)
for p in a["patches"]:
    assert p["verdict"] == "correct", p
    m = p["mutation"]
    want = "mutation score %.1f%% (sampled 4 of %d mutants, 95%% interval " \
        "%.1f-%.1f%%)" % (m["score"] * 100, m["mutants_total"],
                          m["score_low"] * 100, m["score_high"] * 100)
    assert want in p["detail"], (want, p["detail"])
PY
# The mutants run are the sample's, the same in both stores.
ran() {
  q "$1" "SELECT group_concat(text_sha || ':' || mutant_id || ':' || verdict) FROM (SELECT * FROM candidate_mutants WHERE verdict NOT IN ('equivalent', 'invalid', 'no_coverage') ORDER BY text_sha, mutant_id)"
}
expect_eq "$(ran "$WORK/a.db")" "$(ran "$WORK/b.db")" "mutants run in the two stores"
n_before=$(q "$WORK/a.db" "SELECT count(*) FROM candidate_mutants")

# A larger budget on the same store: the sample grows from the stored
# one (which is not run again), and the score is decided anew.
LITMUS_RUN_LOG=$WORK/run.log triage "$WORK/a.db" 5
grep -q " l1 \| diff \| ref " "$WORK/run.log" && fail "layers ran again: $(cat "$WORK/run.log")"
/usr/bin/python3 - "$WORK/a.db-0.05.json" "$WORK/a.db-5.json" <<'PY' || fail "a larger budget"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
for pa, pb in zip(a["patches"], b["patches"]):
    ma, mb = pa["mutation"], pb["mutation"]
    assert mb["budget_s"] == 5 and mb["mutants_run"] > ma["mutants_run"], (ma, mb)
PY
n_after=$(q "$WORK/a.db" "SELECT count(*) FROM candidate_mutants")
[ "$n_after" -gt "$n_before" ] || fail "no more mutants ran ($n_before, $n_after)"

# No budget (0): every mutant runs, and no interval is given.
triage "$WORK/a.db" 0
/usr/bin/python3 - "$WORK/a.db-0.json" <<'PY' || fail "every mutant without a budget"
import json, sys
doc = json.load(open(sys.argv[1]))
for p in doc["patches"]:
    m = p["mutation"]
    assert m["sampled"] is False and m["mutants_run"] == m["mutants_total"], m
    assert "score_low" not in m and "sampled" not in p["detail"], p
PY
no_leftovers
exit 0
