# litmus dataset faults on bench/corpus programs: one fault per program
# and quarter, on the recorded line alone (checked against the original
# code here), in the recorded quarter, changing behaviour (pytest on the
# faulty copy, or the outputs recomputed); --kinds and --quarter filter.
. "$(dirname "$0")/lib.sh"
IN=$FIXTURES/dataset/programs.jsonl
export PYTHONPATH=$REPO/tests/e2e

run_litmus dataset faults "$IN" --quarter all --seed 1 -j 2 --no-progress \
  --db "$WORK/f.db" --summary "$WORK/sum.json" -o "$WORK/faults.jsonl"
expect_eq "$RC" 0 "faults: exit code"
cp "$WORK/faults.jsonl" "$WORK/faults-all.jsonl"

check() { # FILE [KIND] [QUARTER]
  /usr/bin/python3 - "$@" "$WORK/py" <<'PY'
import os, sys
from lib_dataset import *
path, kind, quarter, work = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
os.makedirs(work, exist_ok=True)
recs = records(path)
assert recs, "no faults"
per = {}
ran = 0
LIMIT = 10**6 if os.environ.get("LT_E2E_FULL") == "1" else 6
for r in recs:
    assert r["kind"] in ("OffByOne", "MisplacedReturn", "BooleanLogic",
                         "OperatorSwap"), r["kind"]
    if kind != "-":
        assert r["kind"] == kind, (r["id"], r["kind"])
    # The fault is on the recorded line, and only there.
    assert differing_lines(r["original_code"], r["code"]) == [r["fault_line"]], r["id"]
    lines = r["code"].split("\n")
    assert lines[r["fault_line"] - 1] == r["faulty_line"], r["id"]
    assert r["original_code"].split("\n")[r["fault_line"] - 1] == r["original_line"]
    loc = location(r["fault_line"], n_lines(r["original_code"]))
    assert loc["quarter"] == r["quarter"], (r["id"], loc, r["quarter"])
    assert abs(loc["fraction"] - r["fraction"]) < 1e-9, r["id"]
    if quarter != "-":
        assert r["quarter"] == int(quarter), r["id"]
    per[(r["original_id"], r["quarter"])] = per.get((r["original_id"], r["quarter"]), 0) + 1
    compile(r["code"], "faulty.py", "exec")
    w = r["witness"]
    if r["verified_by"] == "inputs" and w.get("status") == "timeout":
        # A loaded machine: the mutant ran out of time on an input
        # (a witness of its own, with no value to compare).
        pass
    elif r["verified_by"] == "inputs":
        a = evaluate(r["original_code"], w["input"])
        b = evaluate(r["code"], w["input"])
        assert a != b, (r["id"], a, b)
    elif w.get("status") is None:
        # pytest on a copy costs half a second: a sample (every one with
        # LT_E2E_FULL=1).
        if ran < LIMIT:
            assert pytest_on(work, r["path"], r["tests"], r["code"], w["test"]) != 0, r["id"]
            ran += 1
    else:
        assert w["status"] in ("timeout", "crashed", "raised"), w
assert max(per.values()) == 1, per
print(len(recs))
PY
}
n=$(check "$WORK/faults.jsonl" - -) || fail "faults records"
[ "$n" -ge 15 ] || fail "only $n faults"
grep -q '"by_location": {.*"quarter 1".*"quarter 4"' "$WORK/sum.json" ||
  grep -q '"by_location": {.*"quarter 4".*"quarter 1"' "$WORK/sum.json" ||
  fail "summary by location: $(cat "$WORK/sum.json")"

# Filters: one kind, one quarter (from the store: no new runs needed for
# faults already verified).
run_litmus dataset faults "$IN" --quarter 3 --kinds OperatorSwap --seed 1 \
  -j 2 --no-progress --db "$WORK/f.db" -o "$WORK/faults.jsonl"
expect_eq "$RC" 0 "filtered: exit code"
check "$WORK/faults.jsonl" OperatorSwap 3 >/dev/null || fail "filtered records"

# Two per program, anywhere.
run_litmus dataset faults "$IN" --per-program 2 --seed 1 -j 2 --no-progress \
  --db "$WORK/f.db" -o "$WORK/two.jsonl"
expect_eq "$RC" 0 "per-program: exit code"
/usr/bin/python3 -c '
import json, sys, collections
c = collections.Counter(json.loads(l)["original_id"] for l in open(sys.argv[1]))
assert set(c.values()) == {2} and len(c) == 5, c' "$WORK/two.jsonl" || fail "--per-program 2"

run_litmus dataset faults "$IN" --kinds OffByTwo --no-db
expect_eq "$RC" 2 "bad kind: exit code"
grep -q "unknown fault kind 'OffByTwo'" "$WORK/err" || fail "bad kind: $(cat "$WORK/err")"
run_litmus dataset faults "$IN" --quarter 5 --no-db
expect_eq "$RC" 2 "bad quarter: exit code"
no_leftovers
exit 0
