# litmus dataset rewrite on bench/corpus programs: every variant passes
# the program's whole test suite (pytest here) or gives the same outputs;
# a fault from `litmus dataset faults` is carried through the rewrites and
# its recorded line is where the fault is (checked against the same
# rewrites of the fault-free program); --vocab and --no-verify.
. "$(dirname "$0")/lib.sh"
IN=$FIXTURES/dataset/programs.jsonl
export PYTHONPATH=$REPO/tests/e2e:$REPO/operators

run_litmus dataset rewrite "$IN" --ops c,v,d,r --strength 2 --variants 3 \
  --seed 5 -j 2 --no-progress --db "$WORK/r.db" --summary "$WORK/sum.json" \
  -o "$WORK/rw.jsonl"
expect_eq "$RC" 0 "rewrite: exit code ($(tail -n 3 "$WORK/err"))"
/usr/bin/python3 - "$WORK/rw.jsonl" "$WORK/py" <<'PY' || fail "rewrite records"
import os, sys
from lib_dataset import *
recs = records(sys.argv[1])
work = sys.argv[2]
os.makedirs(work)
assert len(recs) >= 12, len(recs)
ran = 0
for r in recs:
    assert r["ops"] == "c,v,d,r" and r["strength"] == 2, r
    assert r["applied"], r["id"]
    total = n_lines(r["code"])
    for a in r["applied"]:
        assert a["op"] in "dcvr", a
        loc = location(a["line"], total)
        assert (loc["quarter"], loc["third"]) == (a["quarter"], a["third"]), (r["id"], a)
        assert abs(loc["fraction"] - a["fraction"]) < 1e-9
    if r["verified_by"] == "tests":
        # The whole suite passes on the variant (pytest on a copy costs
        # half a second: 7 of them, every one with LT_E2E_FULL=1).
        if ran < 7 or os.environ.get("LT_E2E_FULL") == "1":
            assert pytest_on(work, r["path"], r["tests"], r["code"]) == 0, r["id"]
            ran += 1
    else:
        assert r["verified_by"] == "inputs"
        orig = open(r["path"]).read()
        for call in r["inputs"]:
            assert evaluate(orig, call) == evaluate(r["code"], call), (r["id"], call)
assert ran >= 6, ran
PY

# faults -> rewrite: the fault line follows the rewrites.
run_litmus dataset faults "$IN" --quarter all --seed 2 -j 2 --no-progress \
  --db "$WORK/r.db" -o "$WORK/faults.jsonl"
expect_eq "$RC" 0 "faults: exit code ($(tail -n 3 "$WORK/err"))"
run_litmus dataset rewrite "$WORK/faults.jsonl" --ops c,v,d --strength 3 \
  --variants 2 --seed 9 -j 2 --no-progress --db "$WORK/r.db" \
  --summary "$WORK/sum2.json" -o "$WORK/frw.jsonl"
expect_eq "$RC" 0 "rewrite of faults: exit code ($(tail -n 3 "$WORK/err"))"
/usr/bin/python3 - "$WORK/faults.jsonl" "$WORK/frw.jsonl" "$WORK/sum2.json" "$WORK/py2" <<'PY' || fail "fault lines"
import json, os, sys
from lib_dataset import *
import dataset as D
faults = {r["id"]: r for r in records(sys.argv[1])}
recs = records(sys.argv[2])
summary = json.load(open(sys.argv[3]))
work = sys.argv[4]
os.makedirs(work)
assert len(recs) >= 20, len(recs)
ran = 0
for r in recs:
    f = faults[r["original_id"]]
    assert r["kind"] == f["kind"] and r["fault_checked"] is True, r["id"]
    # The same rewrites of the fault-free program differ from the
    # variant on the recorded line alone.
    clean = D.Rewriter(f["original_code"]).variant(r["ops"], r["strength"],
                                                   r["quarter"], r["seed"])
    assert differing_lines(clean["source"], r["code"]) == [r["fault_line"]], r["id"]
    # ... and that line is the faulty line, renames aside.
    got = r["code"].split("\n")[r["fault_line"] - 1].strip()
    assert got != clean["source"].split("\n")[r["fault_line"] - 1].strip()
    # The fault still shows: the witness test of the fault fails.
    w = f["witness"]
    if r["verified_by"] == "tests" and w.get("status") is None and ran < 5:
        assert pytest_on(work, r["path"], r["tests"], r["code"], w["test"]) != 0, r["id"]
        ran += 1
    elif r["verified_by"] == "inputs":
        assert evaluate(r["code"], w["input"]) == evaluate(f["code"], w["input"]), r["id"]
assert ran >= 4, ran
assert summary.get("dropped", {}).get("fault_line_check", 0) == 0, summary
PY

# A vocabulary written by someone else: its names and comments are used.
cat > "$WORK/vocab.json" <<'EOF'
{"names": ["quantum_flux", "banana_count"], "comments": ["this sorts the moon"], "dead_code": ["zz_unused = 1"]}
EOF
run_litmus dataset rewrite "$IN" --ops c,v,d --strength 1 --variants 2 \
  --vocab "$WORK/vocab.json" -j 2 --no-progress --db "$WORK/r.db"
expect_eq "$RC" 0 "vocab: exit code ($(tail -n 3 "$WORK/err"))"
grep -q "quantum_flux\|banana_count" "$WORK/out" || fail "vocab names unused"
grep -q "this sorts the moon" "$WORK/out" || fail "vocab comments unused"
grep -q "zz_unused = 1" "$WORK/out" || fail "vocab dead code unused"
echo '{"names": ["print"]}' > "$WORK/badvocab.json"
run_litmus dataset rewrite "$IN" --vocab "$WORK/badvocab.json" --no-db
expect_eq "$RC" 2 "bad vocab: exit code"
grep -q "print" "$WORK/err" || fail "bad vocab message: $(cat "$WORK/err")"

# Generation only.
run_litmus dataset rewrite "$IN" --no-verify --variants 50 --strength 2 \
  --no-progress
expect_eq "$RC" 0 "--no-verify: exit code ($(tail -n 3 "$WORK/err"))"
expect_eq "$(wc -l < "$WORK/out")" 250 "--no-verify: variants"
grep -q '"verified_by": null' "$WORK/out" || fail "--no-verify records say verified"
no_leftovers
exit 0
