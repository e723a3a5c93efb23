# litmus dataset select (Algorithm 1) on records from bench/corpus
# programs: every mutant is run again here with /usr/bin/python3 and must
# give the recorded output, differ from the original's, and have the
# recorded line-coverage similarity; --all, reruns, resume from the store,
# and the record format.
. "$(dirname "$0")/lib.sh"
IN=$FIXTURES/dataset/select.jsonl

run_litmus dataset select "$IN" --db "$WORK/a.db" --seed 7 -j 2 \
  --summary "$WORK/sum.json" --no-progress -o "$WORK/sel.jsonl"
expect_eq "$RC" 0 "select: exit code"
grep -q "litmus dataset select: 20 programs" "$WORK/err" ||
  fail "no summary on stderr: $(cat "$WORK/err")"

/usr/bin/python3 - "$IN" "$WORK/sel.jsonl" "$WORK/sum.json" <<'PY' || fail "select records"
import json, sys, types

def run(code, call):
    """The call on the program, with the lines it executes (as litmus'
    tracer: line events of code compiled under the same file name)."""
    mod = types.ModuleType("litmus_case")
    exec(compile(code, "litmus_case.py", "exec"), mod.__dict__)
    hit = set()
    def tracer(frame, event, arg):
        if event == "line" and frame.f_code.co_filename == "litmus_case.py":
            hit.add(frame.f_lineno)
        return tracer
    sys.settrace(tracer)
    try:
        v = eval(call, mod.__dict__)
        if hasattr(type(v), "__next__"):
            v = list(v)
    finally:
        sys.settrace(None)
    return v, hit

def shown(rec_output, value):
    # The rule of docs/datasets.md: a string output is a repr, anything
    # else JSON data.
    return repr(value) if isinstance(rec_output, str) else value

inputs = {json.loads(l)["id"]: json.loads(l) for l in open(sys.argv[1])}
out = [json.loads(l) for l in open(sys.argv[2])]
keys = ["id", "function_name", "code", "input", "output", "is_mutated",
        "original_id", "mutation_info"]
assert out, "no records"
i = 0
pairs = 0
while i < len(out):
    o = out[i]
    assert list(o) == keys, list(o)
    assert o["is_mutated"] is False and o["mutation_info"] is None, o["id"]
    src = inputs[o["id"]]
    for k in ("id", "function_name", "code", "input", "output"):
        assert o[k] == src[k], (o["id"], k)
    assert o["original_id"] == o["id"]
    m = out[i + 1]
    assert list(m) == keys, list(m)
    assert m["is_mutated"] is True and m["original_id"] == o["id"]
    info = m["mutation_info"]
    assert list(info) == ["mutation_id", "coverage_similarity"], info
    assert m["id"] == "%s_%s" % (o["id"], info["mutation_id"])
    assert m["input"] == o["input"] and m["function_name"] == o["function_name"]
    assert m["code"] != o["code"]
    ov, olines = run(o["code"], o["input"])
    mv, mlines = run(m["code"], m["input"])
    assert shown(o["output"], ov) == o["output"], (o["id"], ov)
    assert shown(o["output"], mv) == m["output"], (m["id"], mv, m["output"])
    assert repr(mv) != repr(ov) or type(mv) is not type(ov), m["id"]
    j = len(olines & mlines) / len(olines | mlines) if olines | mlines else 1.0
    assert abs(j - info["coverage_similarity"]) < 1e-9, (m["id"], j, info)
    pairs += 1
    i += 2
assert pairs == 20, pairs
s = json.load(open(sys.argv[3]))
assert s["mode"] == "select" and s["items"] == 40 and s["seed"] == 7, s
assert s["programs"] == 20 and s["verified"] >= 20
assert sum(s["by_operator"].values()) == 20, s["by_operator"]
assert s["runs"] > 500, s["runs"]
PY

# The same command again: everything comes from the store, same output.
cp "$WORK/sel.jsonl" "$WORK/first.jsonl"
run_litmus dataset select "$IN" --db "$WORK/a.db" --seed 7 -j 2 \
  --summary "$WORK/sum2.json" --no-progress -o "$WORK/sel.jsonl"
expect_eq "$RC" 0 "rerun: exit code"
cmp -s "$WORK/first.jsonl" "$WORK/sel.jsonl" || fail "rerun: other output"
/usr/bin/python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
assert s["runs"] == 0 and s["cached"] > 500, s' "$WORK/sum2.json" ||
  fail "rerun ran again"

# --all: every valid mutant, most similar first; the first one is the
# mutant select chose.  Through stdin, its runs from the store of the
# first run (t0304 runs select without a store).
run_litmus dataset select --all --details --db "$WORK/a.db" -j 2 --no-progress \
  < "$IN"
expect_eq "$RC" 0 "--all: exit code"
/usr/bin/python3 - "$WORK/out" "$WORK/first.jsonl" <<'PY' || fail "--all"
import json, sys
out = [json.loads(l) for l in open(sys.argv[1])]
chosen = {json.loads(l)["original_id"]: json.loads(l)["id"]
          for l in open(sys.argv[2]) if json.loads(l)["is_mutated"]}
by = {}
for r in out:
    if r["is_mutated"]:
        by.setdefault(r["original_id"], []).append(r)
assert set(by) == set(chosen)
for oid, ms in by.items():
    assert ms[0]["id"] == chosen[oid], (oid, ms[0]["id"], chosen[oid])
    sims = [m["mutation_info"]["coverage_similarity"] for m in ms]
    assert sims == sorted(sims, reverse=True), (oid, sims)
    info = ms[0]["mutation_info"]
    for k in ("operator", "category", "line", "original", "replacement"):
        assert k in info, info
assert sum(len(v) for v in by.values()) > 40
PY

# Input errors: one line, naming FILE:LINE, exit 2.
printf '%s\n' "$(head -n 1 "$IN")" '{"id": 2, "code": "def f(:\n", "input": "f()"}' > "$WORK/bad1.jsonl"
run_litmus dataset select "$WORK/bad1.jsonl" --no-db
expect_eq "$RC" 2 "unparsable code: exit code"
grep -q "bad1.jsonl:2: id 2: the code does not parse" "$WORK/err" || fail "unparsable code: $(cat "$WORK/err")"
printf '{"id": 1, "code": "def f():\\n    return 1\\n", "input": "f()"}\n{"id": 2,\n' > "$WORK/bad2.jsonl"
run_litmus dataset select "$WORK/bad2.jsonl" --no-db
expect_eq "$RC" 2 "bad JSON: exit code"
grep -q "bad2.jsonl:2: not a JSON object" "$WORK/err" || fail "bad JSON: $(cat "$WORK/err")"
printf '{"code": "def f():\\n    return 1\\n", "input": "f()"}\n' > "$WORK/bad3.jsonl"
run_litmus dataset select "$WORK/bad3.jsonl" --no-db
expect_eq "$RC" 2 "no id: exit code"
grep -q 'bad3.jsonl:1: missing "id"' "$WORK/err" || fail "no id: $(cat "$WORK/err")"
printf '{"id": "c", "function_name": "f", "code": "def f(x):\\n    return x + 1\\n", "input": "f(1,,)", "output": "2"}\n' > "$WORK/bad4.jsonl"
run_litmus dataset select "$WORK/bad4.jsonl" --no-db
expect_eq "$RC" 2 "bad call expression: exit code"
grep -q "bad4.jsonl:1: id c: input 'f(1,,)' is not a Python expression" "$WORK/err" ||
  fail "bad call expression: $(cat "$WORK/err")"
expect_eq "$(grep -c . "$WORK/err")" 1 "bad call expression: one line"
run_litmus dataset select "$IN" --per-cell 2 --no-db
expect_eq "$RC" 2 "option of another mode: exit code"
run_litmus dataset select "$IN" --operators nosuchop --no-db
expect_eq "$RC" 2 "unknown operator: exit code"

# A record whose output disagrees with the code: a warning naming it; a
# record whose original raises is skipped.
cat > "$WORK/warn.jsonl" <<'EOF'
{"id": "w", "function_name": "f", "code": "def f(x):\n    if x > 2:\n        return x * 2\n    return x + 1\n", "input": "f(5)", "output": "11"}
{"id": "r", "function_name": "g", "code": "def g(x):\n    return 10 // x\n", "input": "g(0)", "output": "0"}
EOF
run_litmus dataset select "$WORK/warn.jsonl" --no-db --no-progress
expect_eq "$RC" 0 "warnings: exit code"
grep -q "warn.jsonl:1: id w: the original computes 10, the record's output is \"11\"" "$WORK/err" ||
  fail "no disagreement warning: $(cat "$WORK/err")"
grep -q "warn.jsonl:2: id r: the original raises" "$WORK/err" || fail "no raise warning: $(cat "$WORK/err")"
expect_eq "$(grep -c '"original_id": "w"' "$WORK/out")" 2 "warned record still paired"
expect_eq "$(grep -c '"original_id": "r"' "$WORK/out")" 0 "failing record skipped"

# A program with a class, a generator (its values listed), and an empty
# program (skipped: the function is not defined).
cat > "$WORK/mine.jsonl" <<'EOF'
{"id": "cls", "function_name": "run", "code": "class Counter:\n    def __init__(self, start):\n        self.n = start\n\n    def add(self, k):\n        self.n += k\n        return self\n\n\ndef run(a, b):\n    c = Counter(a)\n    c.add(b)\n    c.add(1)\n    return c.n\n", "input": "run(2, 3)", "output": "6"}
{"id": "gen", "function_name": "g", "code": "def g(n):\n    for i in range(n):\n        yield i * 2\n", "input": "g(3)", "output": "[0, 2, 4]"}
{"id": "empty", "function_name": "f", "code": "", "input": "f(1)", "output": "2"}
EOF
run_litmus dataset select "$WORK/mine.jsonl" --no-db --no-progress -j 2
expect_eq "$RC" 0 "class/generator/empty: exit code"
grep -q "mine.jsonl:3: id empty: the original raises on its input" "$WORK/err" ||
  fail "empty program: $(cat "$WORK/err")"
/usr/bin/python3 - "$WORK/out" <<'PY' || fail "class/generator records"
import json, sys
out = [json.loads(l) for l in open(sys.argv[1])]
assert [r["original_id"] for r in out] == ["cls", "cls", "gen", "gen"], out
for o, m in ((out[0], out[1]), (out[2], out[3])):
    assert m["is_mutated"] and m["output"] != o["output"], m
    ns = {}
    exec(m["code"], ns)
    v = eval(m["input"], ns)
    v = list(v) if hasattr(type(v), "__next__") else v
    assert repr(v) == m["output"], (m["id"], v, m["output"])
PY

# Help.
run_litmus dataset --help
expect_eq "$RC" 0 "dataset --help"
grep -q "select" "$WORK/out" || fail "dataset --help text"
run_litmus dataset select --help
expect_eq "$RC" 0 "select --help"
grep -q -- "--all" "$WORK/out" || fail "select --help text"
no_leftovers
exit 0
