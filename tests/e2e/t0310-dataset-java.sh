# litmus dataset faults and rewrite on Java programs (bench/corpus/java):
# every fault compiles and fails a test of its program or changes an
# output, every rewrite compiles and passes every test, checked here by
# javac and JUnit outside litmus (tests/e2e/java/Verify.java); the fault
# line after composed rewrites is where the rewritten fault-free program
# differs; function reordering reorders every class with two or more
# methods (re-parsed by javac here); -j1 = -j2 byte for byte; a run
# killed with SIGKILL and resumed writes the same records.
. "$(dirname "$0")/lib.sh"
command -v javac >/dev/null || skip "no javac (openjdk-17-jdk-headless)"
[ -r /usr/share/java/junit4.jar ] || skip "no JUnit 4 (junit4)"
C=$REPO/bench/corpus/java
CP=/usr/share/java/junit4.jar:/usr/share/java/hamcrest-core.jar
# The checkers' JVMs: one JIT thread, the quick compiler only (short runs).
JOPTS="-XX:TieredStopAtLevel=1 -XX:CICompilerCount=1 -XX:+UseSerialGC"
export PYTHONPATH=$REPO/tests/e2e
mkdir -p "$WORK/in"
# Three programs with tests, two with inputs, three bare methods: enough of
# every shape and quick.
head -n 3 "$C/programs.jsonl" | sed "s|\"path\": \"|\"path\": \"$C/|; s|\"tests\": \"|\"tests\": \"$C/|" > "$WORK/in/p.jsonl"
head -n 2 "$C/inputs.jsonl" | sed "s|\"path\": \"|\"path\": \"$C/|" >> "$WORK/in/p.jsonl"
head -n 3 "$C/methods.jsonl" >> "$WORK/in/p.jsonl"

# verify KIND FILE: writes each record's program into a tree with its
# source root and tests, then runs Verify on all trees in one JVM.
verify() {
  /usr/bin/python3 - "$@" "$WORK" <<'PY' >"$WORK/trees" || fail "trees for $2"
import json, os, shutil, sys
from lib_dataset import records
kind, path, work = sys.argv[1], sys.argv[2], sys.argv[3]
base = os.path.join(work, "v-" + os.path.basename(path))
os.makedirs(base)
for k, r in enumerate(records(path)):
    d = os.path.join(base, str(k))
    code = r["code"]
    if r.get("path"):
        # The source root: the program's folder above its package folders.
        pkg = ""
        for line in open(r["path"]):
            if line.startswith("package "):
                pkg = line.split()[1].rstrip(";")
        root = os.path.dirname(r["path"])
        for _ in pkg.split(".") if pkg else []:
            root = os.path.dirname(root)
        shutil.copytree(root, os.path.join(d, "src"))
        rel = os.path.relpath(r["path"], root)
        open(os.path.join(d, "src", rel), "w").write(code)
    else:
        os.makedirs(os.path.join(d, "src"))
        open(os.path.join(d, "src", "LitmusMethod.java"), "w").write("class LitmusMethod { " + code + "\n}\n")
    if r.get("tests"):
        shutil.copytree(r["tests"], os.path.join(d, "test"))
    print(d)
PY
  timeout 300 java $JOPTS -cp "$CP" "$REPO/tests/e2e/java/Verify.java" $(cat "$WORK/trees") >"$WORK/verify-$1.txt" 2>"$WORK/verify-$1.err" ||
    fail "Verify $1: $(tail -n 5 "$WORK/verify-$1.err")"
}

run_litmus dataset faults "$WORK/in/p.jsonl" --quarter all --seed 1 -j 2 \
  --no-progress --db "$WORK/f.db" --summary "$WORK/fsum.json" -o "$WORK/faults.jsonl"
expect_eq "$RC" 0 "faults: exit code ($(tail -n 3 "$WORK/err"))"
verify faults "$WORK/faults.jsonl"
/usr/bin/python3 - "$WORK/faults.jsonl" "$WORK/verify-faults.txt" <<'PY' || fail "fault records"
import sys
from lib_dataset import *
recs = records(sys.argv[1])
seen = [(l + " ").split(" ", 2) for l in open(sys.argv[2]).read().splitlines()]
assert len(recs) == len(seen) and len(recs) >= 20, (len(recs), len(seen))
by = {"tests": 0, "inputs": 0, "compile": 0}
for r, (d, what, rest) in zip(recs, seen):
    assert r["kind"] in ("OffByOne", "MisplacedReturn", "BooleanLogic", "OperatorSwap"), r
    assert differing_lines(r["original_code"], r["code"]) == [r["fault_line"]], r["id"]
    assert r["code"].split("\n")[r["fault_line"] - 1] == r["faulty_line"], r["id"]
    loc = location(r["fault_line"], n_lines(r["original_code"]))
    assert loc["quarter"] == r["quarter"], (r["id"], loc)
    assert what != "compile-error", (r["id"], rest)
    by[r["verified_by"]] += 1
    w = r["witness"]
    if what == "timeout":
        assert w.get("status") == "timeout", (r["id"], w)
    elif r["verified_by"] == "tests" and w.get("status") is None:
        # The witness test fails on the faulty program, outside litmus.
        assert what == "tests" and w["test"] in rest.strip().split(" ", 2)[2].split(","), (r["id"], w, rest)
    elif r["verified_by"] == "inputs":
        assert w.get("input") or w.get("status"), r["id"]
assert all(by.values()), by
print(by, file=sys.stderr)
PY
grep -q '"java": {"compile_ms"' "$WORK/fsum.json" || fail "summary has no Java figures: $(cat "$WORK/fsum.json")"

# Rewrites of the faults: every one compiles and passes the tests that
# passed on its input; the fault line is where the same rewrites of the
# fault-free program differ.
run_litmus dataset rewrite "$WORK/faults.jsonl" --ops c,v,d,r --strength 2 \
  --seed 3 -j 2 --no-progress --db "$WORK/f.db" -o "$WORK/frw.jsonl"
expect_eq "$RC" 0 "rewrite of faults: exit code ($(tail -n 3 "$WORK/err"))"
/usr/bin/python3 - "$WORK/faults.jsonl" > "$WORK/clean.jsonl" <<'PY'
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    c = {"id": r["id"], "code": r["original_code"]}
    if r.get("path"): c["path"] = r["path"]
    print(json.dumps(c))
PY
run_litmus dataset rewrite "$WORK/clean.jsonl" --lang java --ops c,v,d,r \
  --strength 2 --seed 3 --no-verify --no-progress -o "$WORK/clean-rw.jsonl"
expect_eq "$RC" 0 "clean rewrites: exit code ($(tail -n 3 "$WORK/err"))"
/usr/bin/python3 - "$WORK/frw.jsonl" "$WORK/clean-rw.jsonl" <<'PY' || fail "fault lines"
import sys
from lib_dataset import *
recs = records(sys.argv[1])
clean = {r["original_id"] if "original_id" in r else r["id"]: r for r in records(sys.argv[2])}
assert len(recs) >= 15, len(recs)
for r in recs:
    c = clean[r["original_id"]]
    assert r["fault_checked"] is True, r["id"]
    assert differing_lines(c["code"], r["code"]) == [r["fault_line"]], (r["id"], r["fault_line"])
PY

# Every rewrite compiles and keeps its input's test outcomes: the tests
# that fail on it (outside litmus) are those that fail on its faulty
# input, and no other.
# (Rewrites of faults that loop are left out: their tests would loop.)
/usr/bin/python3 - "$WORK/faults.jsonl" "$WORK/verify-faults.txt" "$WORK/frw.jsonl" > "$WORK/frw-ok.jsonl" <<'PY'
import json, sys
from lib_dataset import records
looping = {r["id"] for r, l in zip(records(sys.argv[1]), open(sys.argv[2]))
           if l.split()[1] == "timeout"}
for r in records(sys.argv[3]):
    if r["original_id"] not in looping:
        print(json.dumps(r))
PY
verify rewrites "$WORK/frw-ok.jsonl"
/usr/bin/python3 - "$WORK/faults.jsonl" "$WORK/verify-faults.txt" "$WORK/frw-ok.jsonl" "$WORK/verify-rewrites.txt" <<'PY' || fail "rewrite records"
import sys
from lib_dataset import *
def outcomes(recs, path):
    seen = [(l + " ").split(" ", 2) for l in open(path).read().splitlines()]
    assert len(recs) == len(seen), (len(recs), len(seen))
    return {r["id"]: (what, rest.strip()) for r, (d, what, rest) in zip(recs, seen)}
faults = outcomes(records(sys.argv[1]), sys.argv[2])
recs = records(sys.argv[3])
rw = outcomes(recs, sys.argv[4])
assert len(recs) >= 12, len(recs)
ran = 0
for r in recs:
    what, rest = rw[r["id"]]
    assert what != "compile-error", (r["id"], rest)
    fwhat, frest = faults[r["original_id"]]
    if r["verified_by"] == "tests" and fwhat == "tests":
        assert (what, rest) == (fwhat, frest), (r["id"], rest, frest)
        ran += 1
assert ran >= 5, ran
PY

# Function reordering alone: every class with two or more methods,
# constructors or nested classes has them in another order (javac's
# parser, in Members.java, reads both).
run_litmus dataset rewrite "$WORK/in/p.jsonl" --ops r --seed 7 --no-verify \
  --no-progress -o "$WORK/ro.jsonl"
expect_eq "$RC" 0 "reorder: exit code"
/usr/bin/python3 - "$WORK/ro.jsonl" "$WORK/ro" <<'PY' > "$WORK/ro.list" || fail "reorder trees"
import json, os, sys
from lib_dataset import records
os.makedirs(sys.argv[2])
for k, r in enumerate(records(sys.argv[1])):
    src = open(r["path"]).read() if r.get("path") else None
    orig = r.get("original_code") or src
    a, b = os.path.join(sys.argv[2], "%d-a.java" % k), os.path.join(sys.argv[2], "%d-b.java" % k)
    wrap = (lambda t: "class LitmusMethod { " + t + "\n}\n") if not r.get("path") else (lambda t: t)
    open(a, "w").write(wrap(orig)); open(b, "w").write(wrap(r["code"]))
    print(a, b)
PY
java $JOPTS "$REPO/tests/e2e/java/Members.java" $(cat "$WORK/ro.list") > "$WORK/members.txt" 2>&1 ||
  fail "Members: $(tail -n 5 "$WORK/members.txt")"
grep -q "^reordered " "$WORK/members.txt" || fail "no class was reordered: $(cat "$WORK/members.txt")"
if grep "^same " "$WORK/members.txt"; then fail "a class kept its order"; fi

# The rewrite of the faults again with one worker (-j1), killed with
# SIGKILL mid-run, then resumed: the records of the uninterrupted -j2 run
# above, byte for byte (-j1 = -j2, and nothing lost to the kill).
"$LITMUS" dataset rewrite "$WORK/faults.jsonl" --ops c,v,d,r --strength 2 \
  --seed 3 -j 1 --no-progress --db "$WORK/k.db" -o "$WORK/k.jsonl" \
  >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 100); do
  [ "$(stat -c %s "$WORK/k.db-wal" 2>/dev/null || echo 0)" -gt 20000 ] && break
  sleep 0.1
done
kill -9 $pid 2>/dev/null || echo "note: the run ended before the kill" >&2
wait $pid 2>/dev/null
run_litmus dataset rewrite "$WORK/faults.jsonl" --ops c,v,d,r --strength 2 \
  --seed 3 -j 1 --no-progress --db "$WORK/k.db" -o "$WORK/k.jsonl" \
  --summary "$WORK/ksum.json"
expect_eq "$RC" 0 "resumed: exit code ($(tail -n 3 "$WORK/err"))"
cmp -s "$WORK/k.jsonl" "$WORK/frw.jsonl" || fail "the resumed -j1 run differs from the -j2 run"
/usr/bin/python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
assert s["cached"] > 0, s' "$WORK/ksum.json" || fail "the resumed run reused nothing: $(cat "$WORK/ksum.json")"

# An output that is not a file (a fifo, /dev/null) is written in place,
# not replaced by a renamed file.
mkfifo "$WORK/fifo"
cat "$WORK/fifo" > "$WORK/from-fifo" &
run_litmus dataset rewrite "$WORK/in/p.jsonl" --ops c --no-verify \
  --no-progress -o "$WORK/fifo"
expect_eq "$RC" 0 "fifo: exit code"
wait
[ -p "$WORK/fifo" ] || fail "the fifo was replaced"
[ -s "$WORK/from-fifo" ] || fail "nothing came through the fifo"

# Bad input: a Java program that does not parse, a call that is not an
# expression, Java in typed.
printf '{"id": "x", "code": "class A { void f( { }"}\n' > "$WORK/bad.jsonl"
run_litmus dataset faults "$WORK/bad.jsonl" --lang java --no-db
expect_eq "$RC" 2 "unparsable: exit code"
grep -q "bad.jsonl:1: id x: the code does not parse" "$WORK/err" || fail "unparsable: $(cat "$WORK/err")"
printf '{"id": "y", "code": "class A { static int f() { return 1; } }", "inputs": ["A.f(,)"]}\n' > "$WORK/bad2.jsonl"
run_litmus dataset faults "$WORK/bad2.jsonl" --lang java --no-db
expect_eq "$RC" 2 "bad call: exit code"
grep -q "is not a Java expression" "$WORK/err" || fail "bad call: $(cat "$WORK/err")"
run_litmus dataset typed "$WORK/in/p.jsonl" --no-db
expect_eq "$RC" 2 "typed: exit code"
grep -q "Java programs go to faults and rewrite" "$WORK/err" || fail "typed: $(cat "$WORK/err")"
no_leftovers
exit 0
