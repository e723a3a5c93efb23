#!/usr/bin/python3
"""Self-check of the litmus patch-triage corpus (bench/corpus/patches).

Run with Debian's Python (it has pytest 7.2.1):

    /usr/bin/python3 bench/corpus/patches/check.py [-j N] [program ...]

For every program in manifest.json it copies the program folder (without
patches/ and reference/) to a temp dir and checks that

  * the suite FAILS (or times out) on the buggy version and PASSES on the reference;
  * every candidate listed in expected.json has a file patches/<run_id>.py, an
    entry in patches.jsonl whose text (markdown fences stripped) is that file,
    and parses with ast iff its reason is not `syntax`;
  * every NON-hostile candidate (reason not `timeout`/`tamper`), put in place of
    <name>.py, makes pytest pass (verdict correct/overfitting/memorized) or fail
    (reason fails_tests: exit 1 and exactly the listed failing tests; syntax:
    a collection error; crash: pytest killed by a signal);
  * overfitting candidates return something different from the reference on
    witness_input (both called in a subprocess with a timeout), and the two
    outcomes match the recorded witness_reference / witness_patch;
  * correct and memorized candidates agree with the reference on every input of
    probe_inputs.json; memorized ones have the same token stream as the
    reference (comments and whitespace dropped), correct ones a normalized token
    similarity below 0.95.

Looping and harness-gaming candidates are never executed here.
Prints one line per program and a final `N passed, N failed` line (N counts
checks: buggy, reference and one per candidate; a hostile candidate counts only
if its static checks fail). Exit status 1 if anything failed.
"""
import argparse
import ast
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import tokenize
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
HOSTILE_REASONS = {"timeout", "tamper"}
PASSING_VERDICTS = {"correct", "overfitting", "memorized"}
PYTEST_TIMEOUT = 10.0   # the buggy bitcount loops forever: this bounds it
CALL_TIMEOUT = 10.0
SIMILARITY_LIMIT = 0.95

CALL_SNIPPET = r'''
import importlib.util, json, sys
req = json.loads(sys.stdin.read())
sys.path.insert(0, req["dir"])
spec = importlib.util.spec_from_file_location(req["module"], req["path"])
mod = importlib.util.module_from_spec(spec)
sys.modules[req["module"]] = mod
spec.loader.exec_module(mod)
try:
    value = getattr(mod, req["function"])(*req["args"])
except Exception as exc:
    out = {"exception": type(exc).__name__}
else:
    try:
        out = {"value": json.loads(json.dumps(value)), "type": type(value).__name__}
    except (TypeError, ValueError):
        out = {"repr": repr(value), "type": type(value).__name__}
sys.stdout.write("\n@@RESULT@@" + json.dumps(out))
'''


def strip_fences(text):
    """Remove one surrounding markdown code fence (```python ... ```), if any."""
    lines = text.strip("\n").split("\n")
    if lines and lines[0].startswith("```") and lines[-1].strip() == "```":
        return "\n".join(lines[1:-1]) + "\n"
    return text


def run(cmd, cwd, timeout, stdin_text=None):
    """Run cmd in its own session; return (returncode or None on timeout, output)."""
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", PYTHONHASHSEED="0")
    env.pop("PYTHONPATH", None)
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, start_new_session=True)
    try:
        out, _ = proc.communicate(stdin_text, timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        return None, out
    return proc.returncode, out


def run_pytest(folder, name, timeout=PYTEST_TIMEOUT):
    return run([PYTHON, "-m", "pytest", "-q", "-rf", "-p", "no:cacheprovider",
                "test_%s.py" % name], folder, timeout)


def failed_ids(output):
    ids = []
    for line in output.splitlines():
        if line.startswith("FAILED "):
            ids.append(line[len("FAILED "):].split(" - ")[0].strip())
    return sorted(ids)


def stage(program_dir, name, module_text, tmp_root):
    """Copy the program folder (no patches/, reference/) into tmp_root; install module_text."""
    dest = tempfile.mkdtemp(prefix=name + "-", dir=tmp_root)
    for entry in os.listdir(program_dir):
        src = os.path.join(program_dir, entry)
        if os.path.isfile(src) and entry != "expected.json":
            shutil.copy(src, os.path.join(dest, entry))
    with open(os.path.join(dest, name + ".py"), "w") as f:
        f.write(module_text)
    return dest


def call_function(module_text, name, function, args, tmp_root, timeout=CALL_TIMEOUT):
    """Call function(*args) from module_text in a fresh interpreter; a comparable outcome."""
    folder = tempfile.mkdtemp(prefix=name + "-call-", dir=tmp_root)
    path = os.path.join(folder, name + ".py")
    with open(path, "w") as f:
        f.write(module_text)
    req = json.dumps({"dir": folder, "module": name, "path": path,
                      "function": function, "args": args})
    rc, out = run([PYTHON, "-c", CALL_SNIPPET], folder, timeout, stdin_text=req)
    if rc is None:
        return {"timeout": True}
    if "@@RESULT@@" not in out:
        return {"crash": rc}
    return json.loads(out.rsplit("@@RESULT@@", 1)[1])


def tokens(text):
    """Python tokens with comments, blank lines and whitespace dropped; layout tokens by type."""
    out = []
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type in (tokenize.COMMENT, tokenize.NL, tokenize.ENCODING, tokenize.ENDMARKER):
            continue
        if tok.type in (tokenize.INDENT, tokenize.DEDENT, tokenize.NEWLINE):
            out.append((tok.type, ""))
        else:
            out.append((tok.type, tok.string))
    return out


def token_similarity(a, b):
    ta, tb = tokens(a), tokens(b)
    if not ta and not tb:
        return 1.0
    prev = list(range(len(tb) + 1))
    for i, x in enumerate(ta, 1):
        cur = [i]
        for j, y in enumerate(tb, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x != y)))
        prev = cur
    return 1.0 - prev[-1] / max(len(ta), len(tb))


def load_jsonl(path):
    entries = {}
    with open(path) as f:
        for line in f:
            if line.strip():
                row = json.loads(line)
                entries[(row["program"], row["run_id"])] = row["patch_text"]
    return entries


def read(path):
    with open(path) as f:
        return f.read()


def check_program(name, info, jsonl, tmp_root):
    """Return (passed, failed, skipped, problems, seconds) for one program."""
    t0 = time.time()
    passed = failed = skipped = 0
    problems = []
    program_dir = os.path.dirname(os.path.join(HERE, info["buggy"]))
    function = info["function"]
    buggy = read(os.path.join(HERE, info["buggy"]))
    reference = read(os.path.join(HERE, info["reference"]))
    expected = json.loads(read(os.path.join(program_dir, "expected.json")))
    probe_path = os.path.join(program_dir, "probe_inputs.json")
    probes = json.loads(read(probe_path)) if os.path.exists(probe_path) else []

    def verdict(ok, what):
        nonlocal passed, failed
        if ok:
            passed += 1
        else:
            failed += 1
            problems.append(what)

    rc, out = run_pytest(stage(program_dir, name, buggy, tmp_root), name)
    verdict(rc != 0, "buggy version passes the suite")
    rc, out = run_pytest(stage(program_dir, name, reference, tmp_root), name)
    verdict(rc == 0, "reference fails the suite (rc=%s):\n%s" % (rc, out[-1500:]))

    ref_outcomes = {}
    for run_id, exp in sorted(expected.items()):
        errs = []
        path = os.path.join(program_dir, "patches", run_id + ".py")
        if not os.path.exists(path):
            verdict(False, "%s: no file %s" % (run_id, path))
            continue
        text = read(path)
        if (name, run_id) not in jsonl:
            errs.append("missing from patches.jsonl")
        elif strip_fences(jsonl[(name, run_id)]) != text:
            errs.append("patches.jsonl text differs from the file")
        try:
            ast.parse(text)
            parses = True
        except SyntaxError:
            parses = False
        if parses == (exp["reason"] == "syntax"):
            errs.append("parses=%s but reason=%s" % (parses, exp["reason"]))
        if exp["reason"] in HOSTILE_REASONS:
            if errs:
                verdict(False, "%s (%s): %s" % (run_id, exp["kind"], "; ".join(errs)))
            else:
                skipped += 1
            continue

        rc, out = run_pytest(stage(program_dir, name, text, tmp_root), name)
        if exp["verdict"] in PASSING_VERDICTS:
            if rc != 0:
                errs.append("expected the suite to pass, rc=%s\n%s" % (rc, out[-1500:]))
        elif exp["reason"] == "fails_tests":
            if rc != 1:
                errs.append("expected test failures (rc 1), rc=%s" % rc)
            elif "failing_tests" in exp and failed_ids(out) != sorted(exp["failing_tests"]):
                errs.append("failing tests %s != expected %s" % (failed_ids(out), exp["failing_tests"]))
        elif exp["reason"] == "syntax":
            if rc in (0, None):
                errs.append("syntax error did not fail the run, rc=%s" % rc)
        elif exp["reason"] == "crash":
            if rc is None or rc >= 0:
                errs.append("expected pytest to die from a signal, rc=%s" % rc)
        else:
            errs.append("unknown reason %r" % exp["reason"])

        if exp["verdict"] == "overfitting":
            args = exp.get("witness_input")
            if not isinstance(args, list):
                errs.append("overfitting without a witness_input argument list")
            else:
                ref_out = call_function(reference, name, function, args, tmp_root)
                pat_out = call_function(text, name, function, args, tmp_root)
                if ref_out == pat_out:
                    errs.append("patch and reference agree on witness %r: %r" % (args, ref_out))
                if "witness_reference" in exp and ref_out != exp["witness_reference"]:
                    errs.append("reference on witness gave %r, recorded %r" % (ref_out, exp["witness_reference"]))
                if "witness_patch" in exp and pat_out != exp["witness_patch"]:
                    errs.append("patch on witness gave %r, recorded %r" % (pat_out, exp["witness_patch"]))
        if exp["verdict"] in ("correct", "memorized"):
            for args in probes:
                key = json.dumps(args)
                if key not in ref_outcomes:
                    ref_outcomes[key] = call_function(reference, name, function, args, tmp_root)
                got = call_function(text, name, function, args, tmp_root)
                if got != ref_outcomes[key]:
                    errs.append("differs from the reference on probe %s: %r vs %r" % (key, got, ref_outcomes[key]))
                    break
            sim = token_similarity(text, reference)
            if exp["verdict"] == "memorized" and sim != 1.0:
                errs.append("memorized but token similarity %.3f" % sim)
            if exp["verdict"] == "correct" and sim >= SIMILARITY_LIMIT:
                errs.append("correct but token similarity %.3f >= %.2f" % (sim, SIMILARITY_LIMIT))
        verdict(not errs, "%s (%s): %s" % (run_id, exp["kind"], "; ".join(errs)))
    return passed, failed, skipped, problems, time.time() - t0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("programs", nargs="*", help="programs to check (default: all)")
    parser.add_argument("-j", "--jobs", type=int, default=min(8, os.cpu_count() or 1))
    opts = parser.parse_args()

    manifest = json.loads(read(os.path.join(HERE, "manifest.json")))
    jsonl = load_jsonl(os.path.join(HERE, "patches.jsonl"))
    names = opts.programs or sorted(manifest)
    total_pass = total_fail = 0
    extra = set(p for p, _ in jsonl) - set(manifest)
    with tempfile.TemporaryDirectory(prefix="litmus-patches-check-") as tmp_root:
        with ThreadPoolExecutor(max_workers=max(1, opts.jobs)) as pool:
            futures = [(n, pool.submit(check_program, n, manifest[n], jsonl, tmp_root))
                       for n in names]
            for name, fut in futures:
                try:
                    p, f, s, problems, secs = fut.result()
                except Exception as exc:  # a broken program folder
                    p, f, s, problems, secs = 0, 1, 0, ["checker error: %r" % exc], 0.0
                total_pass += p
                total_fail += f
                status = "ok" if not f else "FAIL"
                print("%-22s %-4s %2d passed, %d failed, %d hostile not run (%.1fs)"
                      % (name, status, p, f, s, secs))
                for problem in problems:
                    print("    - " + problem.replace("\n", "\n      "))
    if extra:
        total_fail += 1
        print("patches.jsonl has programs missing from manifest.json: %s" % sorted(extra))
    print("%d passed, %d failed" % (total_pass, total_fail))
    return 1 if total_fail else 0


if __name__ == "__main__":
    sys.exit(main())
