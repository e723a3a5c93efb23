# litmus dataset typed on bench/corpus programs (tests and inputs): K
# mutants per (type, third), each changing behaviour with its witness
# re-checked here (pytest on the mutant, or the outputs recomputed), the
# location and the diff right, and the seed deciding the choice.
. "$(dirname "$0")/lib.sh"
IN=$FIXTURES/dataset/programs.jsonl
export PYTHONPATH=$REPO/tests/e2e

run_litmus dataset typed "$IN" --per-cell 2 --seed 3 -j 2 --no-progress \
  --db "$WORK/t.db" --summary "$WORK/sum.json" -o "$WORK/typed.jsonl"
expect_eq "$RC" 0 "typed: exit code"

/usr/bin/python3 - "$WORK/typed.jsonl" "$WORK/sum.json" "$WORK/py" <<'PY' || fail "typed records"
import subprocess, sys, tempfile, os, json
from lib_dataset import *
# pytest on a copy costs half a second: a sample, all with LT_E2E_FULL=1.
LIMIT = 10**6 if os.environ.get("LT_E2E_FULL") == "1" else 4
recs = records(sys.argv[1])
s = json.load(open(sys.argv[2]))
work = sys.argv[3]
os.makedirs(work)
assert len(recs) == s["items"] > 40, (len(recs), s["items"])
cells = {}
codes = {}
checked_tests = 0
for r in recs:
    assert r["type"] in ("statement", "value", "decision"), r["id"]
    key = (r["original_id"], r["type"], r["third"])
    cells[key] = cells.get(key, 0) + 1
    # K distinct mutants per cell.
    assert r["code"] not in codes.setdefault(key, set()), r["id"]
    codes[key].add(r["code"])
    assert r["id"] == "%s_%s_%s_%d" % (key + (cells[key],)), r["id"]
    assert r["code"] != r["original_code"]
    loc = location(r["line"], n_lines(r["original_code"]))
    assert loc["third"] == r["third"], (r["id"], loc, r["third"])
    assert abs(loc["fraction"] - r["fraction"]) < 1e-9
    # The diff turns the original into the mutant.
    with tempfile.TemporaryDirectory() as d:
        name = "%s.py" % r["original_id"]
        open(os.path.join(d, name), "w").write(r["original_code"])
        p = subprocess.run(["patch", "-s", "-p1", "-d", d], input=r["diff"],
                           text=True, capture_output=True)
        assert p.returncode == 0, (r["id"], p.stdout, p.stderr)
        assert open(os.path.join(d, name)).read() == r["code"], r["id"]
    w = r["witness"]
    assert w, r["id"]
    if r["verified_by"] == "inputs" and w.get("status") == "timeout":
        # A loaded machine: the mutant ran out of time on an input
        # (a witness of its own, with no value to compare).
        pass
    elif r["verified_by"] == "inputs":
        a = evaluate(r["original_code"], w["input"])
        b = evaluate(r["code"], w["input"])
        assert a != b, (r["id"], a, b)
        assert a[1] == w["original"]["repr"] or a[0] == "raised", (a, w)
    else:
        assert r["verified_by"] == "tests"
        if "test" in w and w.get("status") is None and checked_tests < LIMIT:
            # The witness test fails on the mutant and passes on the
            # original.
            assert pytest_on(work, r["path"], r["tests"], r["code"],
                             w["test"]) != 0, r["id"]
            assert pytest_on(work, r["path"], r["tests"],
                             r["original_code"], w["test"]) == 0, r["id"]
            checked_tests += 1
assert max(cells.values()) <= 2, cells
assert checked_tests >= min(LIMIT, 6), checked_tests
# Statement, value and decision mutants in all three thirds.
assert set(s["by_category"]) == {"statement", "value", "decision"}, s
assert set(s["by_location"]) == {"first", "middle", "last"}, s
PY

# The seed decides: the same seed gives the same records (from the store
# or not), another seed other choices.  Each program's choices depend on
# the seed and that program alone, so these runs take two of the
# programs (one verified by its tests, one by its inputs): their records
# must be exactly those of the whole run.
dataset_subset "$WORK/two.jsonl" merge_sort fast_power
/usr/bin/python3 - "$WORK/typed.jsonl" "$WORK/two-ref.jsonl" <<'PY'
import json, sys
whole, ref = sys.argv[1:]
with open(ref, "w") as out:
    out.writelines(l for l in open(whole)
                   if json.loads(l)["original_id"] in ("merge_sort", "fast_power"))
PY
[ -s "$WORK/two-ref.jsonl" ] || fail "no records of merge_sort and fast_power"
run_litmus dataset typed "$WORK/two.jsonl" --per-cell 2 --seed 3 -j 2 --no-progress \
  --no-db -o "$WORK/again.jsonl"
expect_eq "$RC" 0 "same seed: exit code"
cmp -s "$WORK/two-ref.jsonl" "$WORK/again.jsonl" ||
  fail "same seed, other output: $(diff "$WORK/two-ref.jsonl" "$WORK/again.jsonl" | head -c 600)"
run_litmus dataset typed "$WORK/two.jsonl" --per-cell 2 --seed 4 -j 2 --no-progress \
  --db "$WORK/t.db" -o "$WORK/other.jsonl"
expect_eq "$RC" 0 "other seed: exit code"
cmp -s "$WORK/again.jsonl" "$WORK/other.jsonl" && fail "another seed, same output"

# One program file on the command line with --tests.
# (quicksort, like merge_sort above: no mutant of it loops until a
# timeout, as bitcount's do)
run_litmus dataset typed "$CORPUS/quicksort/quicksort.py" --tests "$CORPUS/quicksort" \
  --no-db -j 2 --no-progress
expect_eq "$RC" 0 "program file: exit code"
/usr/bin/python3 -c '
import json, sys
rs = [json.loads(l) for l in open(sys.argv[1])]
assert rs and all(r["original_id"] == "quicksort" for r in rs), rs[:1]
assert len(rs) <= 9' "$WORK/out" || fail "program file records"

# Input errors.
printf '{"id": "x", "code": "def f(:\\n", "inputs": ["f()"]}\n' > "$WORK/bad.jsonl"
run_litmus dataset typed "$WORK/bad.jsonl" --no-db
expect_eq "$RC" 2 "unparsable program: exit code"
grep -q "bad.jsonl:1: id x:" "$WORK/err" || fail "unparsable program: $(cat "$WORK/err")"
printf '{"id": "y", "code": "def f():\\n    return 1\\n"}\n' > "$WORK/bad2.jsonl"
run_litmus dataset typed "$WORK/bad2.jsonl" --no-db
expect_eq "$RC" 2 "nothing to verify: exit code"
grep -q "bad2.jsonl:1: nothing to verify with" "$WORK/err" || fail "nothing to verify: $(cat "$WORK/err")"
no_leftovers
exit 0
