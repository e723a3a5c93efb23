# litmus patches on a repository that its user built in place and whose
# tests write temporary projects: the package imports a version module
# that an editable install generated and git ignores, which each
# worktree gets from the clone (a note says so); a test writes a
# conftest.py and a module into its own temporary folder, as pytest's
# pytester and documentation tools' tests do, which is no tampering; a
# candidate that writes a sitecustomize.py there still is.
. "$(dirname "$0")/lib.sh"
R=$WORK/repo
mkdir -p "$R/meter" "$R/tests"
cd "$R" || fail "cd"
git init -q -b main . && git config user.email t@e && git config user.name t
printf 'meter/_version.py\n__pycache__/\n' > .gitignore
cat > meter/__init__.py <<'PY'
from meter._version import version


def scale(x, f):
    return x * f
PY
cat > tests/test_scale.py <<'PY'
import sys

from meter import scale, version


def test_scale():
    assert scale(2, 3) == 6 and version == "1.0.dev1"


def test_temporary_project(tmp_path):
    (tmp_path / "conftest.py").write_text("LEVEL = 1\n")
    (tmp_path / "helper.py").write_text("def twice(x):\n    return 2 * x\n")
    sys.path.insert(0, str(tmp_path))
    try:
        import helper
        assert helper.twice(scale(1, 2)) == 4
    finally:
        sys.path.remove(str(tmp_path))
PY
git add -A && git commit -qm base
# What `pip install -e .` would generate: ignored, not committed.
printf 'version = "1.0.dev1"\n' > meter/_version.py
# Each branch: the fix's body and the test of a missing factor.
branch() { # NAME BODY
  git checkout -q -b "$1" main
  /usr/bin/python3 - "$2" <<'PY'
import sys
p = "meter/__init__.py"
s = open(p).read().replace("    return x * f\n", sys.argv[1])
open(p, "w").write(s)
with open("tests/test_scale.py", "a") as f:
    f.write("\n\ndef test_scale_without_factor():\n"
            "    assert scale(2, None) == 2\n")
PY
  git commit -qam "$1"
}
branch fix '    return x if f is None else x * f
'
branch good '    return x * (1 if f is None else f)
'
branch sneaky '    return x if f is None else x * f


import os as _os, tempfile as _tempfile
with open(_os.path.join(_tempfile.gettempdir(), "sitecustomize.py"), "w") as _f:
    _f.write("")
'
git checkout -q main
cd - >/dev/null || fail "cd back"
run_litmus patches --repo "$R" --base main --reference fix --candidate good \
  --candidate sneaky --db "$WORK/p.db" --no-progress -f json --diff-budget 1 \
  --no-mutation --python /usr/bin/python3
# (exit 1: in the CI form an invalid candidate fails the gate)
expect_eq "$RC" 1 "exit code ($(tail -3 "$WORK/err"))"
grep -q "1 file(s) that git ignores copied from" "$WORK/err" ||
  fail "no note of the copied version module: $(cat "$WORK/err")"
/usr/bin/python3 - "$WORK/out" <<'PY' || fail "verdicts"
import json, sys
rows = {c["model_name_or_path"]: c for c in json.load(open(sys.argv[1]))["candidates"]}
good = rows["good"]
assert good["evidence"]["harness"] == "resolved", good
assert good["verdict"] == "correct", good
s = rows["sneaky"]
assert (s["verdict"], s["reason"]) == ("invalid", "tamper"), s
assert "sitecustomize.py for writing" in s["detail"], s
PY
# An instance whose FAIL_TO_PASS test needs a module this environment
# lacks: the reference fails it here too, so no candidate can be said
# resolved or not; each is an error (environment), as the harness's
# error_ids, never a vacuous "resolved".
mkdir -p "$WORK/repos"
git clone -q "$R" "$WORK/repos/meter__meter" || fail "clone"
cp "$R/meter/_version.py" "$WORK/repos/meter__meter/meter/" || fail "built clone"
/usr/bin/python3 - "$R" "$WORK" <<'PY' || fail "instance"
import json, subprocess, sys
repo, work = sys.argv[1:3]
git = lambda *a: subprocess.run(["git", "-C", repo] + list(a), check=True,
                                capture_output=True, text=True).stdout
base = git("rev-parse", "main").strip()
fix = git("diff", "main", "fix", "--", "meter")
test = """diff --git a/tests/test_extra.py b/tests/test_extra.py
new file mode 100644
--- /dev/null
+++ b/tests/test_extra.py
@@ -0,0 +1,6 @@
+from meter import scale
+
+
+def test_scale_without_factor_by_plugin():
+    import meter_plugin_not_installed  # noqa: F401
+    assert scale(2, None) == 2
"""
inst = {"instance_id": "meter__meter-1", "repo": "meter/meter",
        "base_commit": base, "patch": fix, "test_patch": test,
        "FAIL_TO_PASS": ["tests/test_extra.py::test_scale_without_factor_by_plugin"],
        "PASS_TO_PASS": ["tests/test_scale.py::test_scale"], "version": "1"}
open(work + "/inst.jsonl", "w").write(json.dumps(inst) + "\n")
open(work + "/pred.jsonl", "w").write(json.dumps(
    {"instance_id": "meter__meter-1", "model_name_or_path": "m",
     "model_patch": fix}) + "\n")
PY
run_litmus patches --instances "$WORK/inst.jsonl" --predictions "$WORK/pred.jsonl" \
  --repos "$WORK/repos" --db "$WORK/e.db" --no-progress -f json \
  --worktrees "$WORK/etrees" --no-mutation --no-probes --python /usr/bin/python3 \
  --harness-report "$WORK/harness"
expect_eq "$RC" 3 "exit code of the instance the environment cannot run ($(tail -3 "$WORK/err"))"
/usr/bin/python3 - "$WORK/out" "$WORK/harness" <<'PY' || fail "environment verdict"
import json, os, sys
c, = json.load(open(sys.argv[1]))["candidates"]
assert (c["verdict"], c["reason"]) == ("error", "environment"), c
assert "meter_plugin_not_installed" in c["detail"], c
assert c["evidence"]["harness"] == "error" and not c["evidence"]["resolved"], c
h = sys.argv[2]
reports = [json.load(open(os.path.join(h, f))) for f in os.listdir(h)] \
    if os.path.isdir(h) else [json.load(open(h))]
assert any(r.get("error_ids") == ["meter__meter-1"] for r in reports), reports
PY
