#!/bin/sh
# Compile and run every Java corpus program with its JUnit 4 tests, check the
# record files, and compile every method-only record wrapped in a class.
# Exit status 1 if anything fails.
set -u
here=$(cd "$(dirname "$0")" && pwd)
JUNIT=${JUNIT:-/usr/share/java/junit4.jar}
HAMCREST=${HAMCREST:-/usr/share/java/hamcrest-core.jar}
CP="$JUNIT:$HAMCREST"
out=$(mktemp -d /tmp/litmus-java-corpus.XXXXXX)
trap 'rm -rf "$out"' EXIT
pass=0
fail=0

for dir in "$here"/*/; do
    name=$(basename "$dir")
    [ -d "$dir/src" ] && [ -d "$dir/test" ] || continue
    cls="$out/$name"
    mkdir -p "$cls"
    tests=$(cd "$dir/test" && find . -name '*Test.java' | sed 's|^\./||' | sort)
    if ! (cd "$dir" && javac -nowarn -d "$cls" -cp "$CP" -sourcepath src:test $(for t in $tests; do printf 'test/%s ' "$t"; done)) >"$out/$name.log" 2>&1; then
        echo "FAIL $name (compile)"; sed -n 1,20p "$out/$name.log"; fail=$((fail + 1)); continue
    fi
    names=$(for t in $tests; do printf '%s ' "$(echo "${t%.java}" | tr / .)"; done)
    if java -cp "$cls:$CP" org.junit.runner.JUnitCore $names >"$out/$name.log" 2>&1; then
        echo "ok   $name $(grep -E '^OK' "$out/$name.log")"; pass=$((pass + 1))
    else
        echo "FAIL $name"; sed -n 1,30p "$out/$name.log"; fail=$((fail + 1))
    fi
done

# Record files: every path and tests root must exist.
python3 - "$here" <<'PY' || fail=$((fail + 1))
import json, os, sys
here = sys.argv[1]
bad = 0
for fn in ("programs.jsonl", "inputs.jsonl"):
    for line in open(os.path.join(here, fn)):
        r = json.loads(line)
        for key in ("path", "tests"):
            if key in r and not os.path.exists(os.path.join(here, r[key])):
                print("FAIL %s: %s %s missing" % (fn, r["id"], r[key])); bad += 1
        if fn == "inputs.jsonl" and not (3 <= len(r["inputs"]) <= 6):
            print("FAIL inputs.jsonl: %s has %d inputs" % (r["id"], len(r["inputs"]))); bad += 1
print("ok   records" if not bad else "FAIL records")
sys.exit(1 if bad else 0)
PY

# inputs.jsonl: run every call through a generated harness in the program's package.
python3 - "$here" "$out" "$CP" <<'PY' || fail=$((fail + 1))
import json, os, subprocess, sys
here, out, cp = sys.argv[1:4]
bad = 0
for line in open(os.path.join(here, "inputs.jsonl")):
    r = json.loads(line)
    path = os.path.join(here, r["path"])
    root = path[: path.index("/src/") + len("/src")]
    pkg = os.path.dirname(os.path.relpath(path, root)).replace("/", ".")
    work = os.path.join(out, "inputs-" + r["id"])
    hdir = os.path.join(work, "h", *pkg.split(".")) if pkg else os.path.join(work, "h")
    os.makedirs(hdir, exist_ok=True)
    body = "".join("        System.out.println(java.util.Objects.toString(%s));\n" % c
                   if True else "" for c in r["inputs"])
    src = ("package %s;\n" % pkg if pkg else "") + \
        "public class LitmusHarness {\n    public static void main(String[] a) {\n" + body + "    }\n}\n"
    with open(os.path.join(hdir, "LitmusHarness.java"), "w") as f:
        f.write(src)
    cls = os.path.join(work, "classes")
    c = subprocess.run(["javac", "-nowarn", "-d", cls, "-sourcepath", root + ":" + os.path.join(work, "h"),
                        os.path.join(hdir, "LitmusHarness.java")], capture_output=True, text=True)
    main = (pkg + "." if pkg else "") + "LitmusHarness"
    runr = c.returncode == 0 and subprocess.run(["java", "-cp", cls, main], capture_output=True, text=True)
    if c.returncode != 0 or runr.returncode != 0:
        print("FAIL inputs %s" % r["id"]); print((c.stderr if c.returncode else runr.stderr)[:800]); bad += 1
    else:
        print("ok   inputs %s: %s" % (r["id"], " | ".join(runr.stdout.splitlines())))
sys.exit(1 if bad else 0)
PY

# methods.jsonl: each method wrapped as `class LitmusMethod { <code>\n}` must compile.
python3 - "$here" "$out" <<'PY' || fail=$((fail + 1))
import json, os, subprocess, sys
here, out = sys.argv[1:3]
bad = n = 0
for line in open(os.path.join(here, "methods.jsonl")):
    r = json.loads(line)
    n += 1
    d = os.path.join(out, "methods", r["id"])
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "LitmusMethod.java"), "w") as f:
        f.write("class LitmusMethod { " + r["code"] + "\n}")
    c = subprocess.run(["javac", "-nowarn", "-d", d, os.path.join(d, "LitmusMethod.java")],
                       capture_output=True, text=True)
    if c.returncode != 0:
        print("FAIL method %s" % r["id"]); print(c.stderr[:800]); bad += 1
print("ok   methods: %d compile" % n if not bad else "FAIL methods: %d of %d" % (bad, n))
sys.exit(1 if bad else 0)
PY

[ "$fail" -eq 0 ] && echo "$pass programs passed, all checks ok" || echo "$pass programs passed, $fail failed"
[ "$fail" -eq 0 ]
