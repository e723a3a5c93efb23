#!/usr/bin/env python3
"""A harness without containers, for repository candidates: what a user
runs today to score SWE-bench-style predictions on a machine like this
one, and what `bench/repo_patches_bench.sh` compares litmus with.

For each prediction: a fresh checkout of the instance's repository at its
base commit, the test patch applied, the candidate applied with the SWE-bench
harness's commands (git apply --verbose, then --reject, then patch --fuzz=5),
the test patch's files restored, then one `python -m pytest -rA` process on
the test files of FAIL_TO_PASS and PASS_TO_PASS, whose summary lines give
each test's status (Django's own tree: `tests/runtests.py --settings=
test_sqlite --parallel 1 -v 2` on the test files' labels, whose "... ok"
lines give it, read as the harness reads them).  Resolved: every listed test PASSED or XFAILed (skipped
ones count neither way, missing ones fail), the harness's rule.

    repo_harness.py SET_DIR [--repos DIR] [--only N] [--json OUT]

SET_DIR holds instances.jsonl, predictions.jsonl and env.json (see
bench/repo_patches_bench.sh).  Prints one line per prediction (resolved,
seconds) and writes every result as JSON with --json.
SPDX-License-Identifier: MIT
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

APPLY = (["git", "apply", "--verbose"], ["git", "apply", "--verbose", "--reject"],
         ["patch", "--batch", "--fuzz=5", "-p1", "-i"])
STATUSES = ("PASSED", "FAILED", "ERROR", "SKIPPED", "XFAIL", "XPASS")


def tests_of(field):
    return field if isinstance(field, list) else json.loads(field)


def python_of(env, inst):
    m = env.get(inst["repo"], env.get("*", "/usr/bin/python3"))
    if isinstance(m, dict):
        m = m.get(str(inst.get("version")), m.get("*", "/usr/bin/python3"))
    return os.path.join(m, "bin", "python") if os.path.isdir(m) else m


def clone_dir(repos, repo):
    for name in (repo.replace("/", "__"), repo):
        p = os.path.join(repos, name)
        if os.path.isdir(p):
            return p
    raise SystemExit("no clone of %s in %s" % (repo, repos))


def apply(tree, diff):
    """The harness's cascade; the command that applied it, or None."""
    path = os.path.join(tree, ".git", "candidate.diff")
    with open(path, "w") as f:
        f.write(diff)
    for cmd in APPLY:
        if subprocess.run(cmd + [path], cwd=tree, stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL).returncode == 0:
            return " ".join(cmd[:3])
        subprocess.run(["git", "checkout", "-q", "--", "."], cwd=tree)
        subprocess.run(["git", "clean", "-fdq"], cwd=tree)
    return None


def statuses(output):
    """{node id: status} from pytest -rA's short summary, read as the
    SWE-bench harness reads it: the id is the line's second word, so an id
    with a space in its parameters is cut there (as the instances' lists
    of such tests are)."""
    out = {}
    for line in output.splitlines():
        words = line.split()
        if len(words) >= 2 and words[0] in STATUSES:
            out[words[1]] = words[0]
            # The whole id as well, for lists that keep it whole.
            whole = line.split(" ", 1)[1]
            if words[0] in ("FAILED", "ERROR") and " - " in whole:
                whole = whole.rsplit(" - ", 1)[0]
            out.setdefault(whole.strip(), words[0])
    return out


DJANGO_STATUS = {"ok": "PASSED", "FAIL": "FAILED", "ERROR": "ERROR",
                 "skipped": "SKIPPED", "expected": "XFAIL",
                 "unexpected": "FAILED"}


def django_command(python, labels):
    """Django's own runner as the harness runs it, from the tree's root."""
    return [python, "tests/runtests.py", "--settings=test_sqlite",
            "--parallel", "1", "-v", "2"] + list(labels)


def django_lines(output):
    """(name, status) of each "NAME ... ok" line of Django's runner at
    verbosity 2, as the harness reads them (a documented test's NAME is
    its docstring's line), and the line before it when that one names
    the test ("test_x (app.tests.Class.test_x)"), else None."""
    import re
    named = None
    for line in output.splitlines():
        m = re.match(r"^(.*) \.\.\. (ok|FAIL|ERROR|skipped|expected failure|"
                     r"unexpected success)", line)
        if not m:
            named = line if re.match(r"^\w+ \(.*\)$", line) else None
            continue
        yield m.group(1), DJANGO_STATUS[m.group(2).split()[0]], named
        named = None


def django_statuses(output):
    """{test: status} from Django's runner at verbosity 2 (django_lines):
    a documented test's status is its name's too, and 3.11's long form
    of a name ("test_x (app.tests.Class.test_x)") is kept beside the
    short one."""
    import re
    out = {}
    for printed, status, named in django_lines(output):
        for name in (printed, named):
            if name is None:
                continue
            out[name] = status
            m = re.match(r"^(\w+) \((.*)\.(\w+)\)$", name)
            if m and m.group(3) == m.group(1):
                out.setdefault("%s (%s)" % (m.group(1), m.group(2)), status)
    return out


def django_labels(files):
    """Django's labels of test files: tests/app/tests.py -> app.tests."""
    out = []
    for f in files:
        if f.startswith("tests/") and f.endswith(".py"):
            out.append(f[len("tests/"):-3].replace("/", "."))
    return sorted(set(out))


def status_of(st, test):
    if test in st:
        return st[test]
    # A bare test name, as sympy's runner prints them.
    hits = [v for k, v in st.items() if k.rsplit("::", 1)[-1] == test]
    return hits[0] if hits else None


def judge(inst, pred, repos, env, work):
    t0 = time.time()
    tree = os.path.join(work, "t")
    subprocess.run(["git", "clone", "-q", "--shared", "--no-checkout",
                    clone_dir(repos, inst["repo"]), tree], check=True)
    subprocess.run(["git", "-c", "advice.detachedHead=false", "checkout",
                    "-q", inst["base_commit"]], cwd=tree, check=True)
    how = apply(tree, pred["model_patch"] or "") if (pred["model_patch"] or
                                                      "").strip() else None
    result = {"instance_id": inst["instance_id"],
              "model_name_or_path": pred["model_name_or_path"],
              "applied_with": how}
    if how is None:
        result.update(resolved=False, seconds=time.time() - t0)
        return result
    # The test patch last, over whatever the candidate did to its files.
    test_files = []
    for line in inst["test_patch"].splitlines():
        if line.startswith("+++ b/"):
            test_files.append(line[6:].strip())
    subprocess.run(["git", "checkout", "-q", "HEAD", "--"] +
                   [f for f in test_files if os.path.exists(
                       os.path.join(tree, f))], cwd=tree,
                   stderr=subprocess.DEVNULL)
    tp = os.path.join(tree, ".git", "test.diff")
    with open(tp, "w") as f:
        f.write(inst["test_patch"])
    subprocess.run(["git", "apply", tp], cwd=tree, check=False)
    f2p, p2p = tests_of(inst["FAIL_TO_PASS"]), tests_of(inst["PASS_TO_PASS"])
    files = sorted({t.split("::")[0] for t in f2p + p2p if "::" in t} |
                   {f for f in test_files if f.endswith(".py")})
    envv = dict(os.environ)
    src = os.path.join(tree, "src")
    envv["PYTHONPATH"] = src if os.path.isdir(src) else tree
    if os.path.isfile(os.path.join(tree, "tests", "runtests.py")) and \
            os.path.isfile(os.path.join(tree, "django", "__init__.py")):
        run = subprocess.run(django_command(python_of(env, inst),
                                            django_labels(files)), cwd=tree,
                             env=envv, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True,
                             errors="replace", timeout=1800)
        st = django_statuses(run.stdout)
    else:
        run = subprocess.run([python_of(env, inst), "-m", "pytest", "-rA",
                              "-p", "no:cacheprovider"] + files, cwd=tree,
                             env=envv, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True,
                             errors="replace", timeout=1800)
        st = statuses(run.stdout)
    failing = [t for t in f2p + p2p
               if status_of(st, t) in (None, "FAILED", "ERROR")]
    result.update(resolved=not failing, failing=failing[:20],
                  seconds=time.time() - t0)
    return result


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("set_dir")
    ap.add_argument("--repos")
    ap.add_argument("--only", type=int, default=0,
                    help="the first N predictions only")
    ap.add_argument("--predictions", help="another predictions file")
    ap.add_argument("--json")
    a = ap.parse_args()
    s = a.set_dir
    repos = a.repos or os.path.join(os.path.dirname(os.path.abspath(s)),
                                    "repos")
    insts = {}
    for line in open(os.path.join(s, "instances.jsonl")):
        if line.strip():
            r = json.loads(line)
            insts[r["instance_id"]] = r
    env = json.load(open(os.path.join(s, "env.json")))
    preds = [json.loads(l) for l in
             open(a.predictions or os.path.join(s, "predictions.jsonl"))
             if l.strip()]
    if a.only:
        preds = preds[:a.only]
    results = []
    for p in preds:
        work = tempfile.mkdtemp(prefix="litmus-harness-")
        try:
            r = judge(insts[p["instance_id"]], p, repos, env, work)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        results.append(r)
        print("%s %s %s %.2f s" % (r["instance_id"], r["model_name_or_path"],
                                   "resolved" if r["resolved"] else
                                   "unresolved", r["seconds"]), flush=True)
    if a.json:
        json.dump(results, open(a.json, "w"), indent=1)


if __name__ == "__main__":
    sys.exit(main())
