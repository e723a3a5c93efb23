#!/usr/bin/env python3
"""The repository development set: labelled candidate patches on public
projects' bug fixes, kept as a recipe that holds none of the projects'
code.

Each project's `SPEC.json` names the fix commits of the project's public
history, which files of each commit are the test patch, the instance's
FAIL_TO_PASS and PASS_TO_PASS, and the candidates: our own edits, written
as line ranges of the base commit's files (checked by the SHA-1 of the
lines they replace) with the text we put there, each with its label,
written by reasoning, and the harness's decision computed with plain
pytest (bench/repo_harness.py).  `build` turns a spec and a clone of the
project into the SWE-bench files bench/repo_patches_bench.sh reads.

    devset.py encode --clone DIR --base SHA DIFF   # a diff -> its edits (JSON)
    devset.py build SPEC.json --repos DIR --out SET_DIR
    devset.py check SPEC.json --repos DIR --out SET_DIR   # build, then the
                                                   # harness's decisions
                                                   # against the spec's

A clone is `git clone https://github.com/OWNER/NAME DIR/OWNER__NAME`.
SPDX-License-Identifier: MIT
"""
import argparse
import difflib
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def git(clone, *args, check=True):
    run = subprocess.run(["git", "-C", clone] + list(args),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if check and run.returncode:
        raise SystemExit("git %s: %s" % (" ".join(args),
                                         run.stderr.decode(errors="replace")))
    return run.stdout.decode("utf-8", errors="surrogateescape")


def lines_sha(lines):
    return hashlib.sha1("".join(lines).encode("utf-8", "surrogateescape")
                        ).hexdigest()[:12]


def show(clone, rev, path):
    """The text of path at rev, or None when it does not exist there."""
    run = subprocess.run(["git", "-C", clone, "show", "%s:%s" % (rev, path)],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    if run.returncode:
        return None
    return run.stdout.decode("utf-8", errors="surrogateescape")


# ---- encode: a unified diff -> edits on the base's lines ----

HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


def parse_diff(text):
    """[(old path or None, new path or None, [hunk lines...] per hunk)]."""
    files = []
    cur = None
    lines = text.splitlines(keepends=True)
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("--- ") and i + 1 < len(lines) and \
                lines[i + 1].startswith("+++ "):
            old = line[4:].split("\t")[0].strip()
            new = lines[i + 1][4:].split("\t")[0].strip()
            cur = {"old": None if old == "/dev/null" else old[2:],
                   "new": None if new == "/dev/null" else new[2:],
                   "hunks": []}
            files.append(cur)
            i += 2
            continue
        m = HUNK.match(line)
        if m and cur is not None:
            hunk = {"old_start": int(m.group(1)), "lines": []}
            cur["hunks"].append(hunk)
            i += 1
            while i < len(lines) and lines[i][:1] in (" ", "-", "+", "\\"):
                if lines[i].startswith("--- ") and i + 1 < len(lines) and \
                        lines[i + 1].startswith("+++ "):
                    break
                if lines[i].startswith("\\"):
                    # "\ No newline at end of file": the line before has none.
                    prev = hunk["lines"][-1]
                    hunk["lines"][-1] = (prev[0], prev[1].rstrip("\n"))
                else:
                    hunk["lines"].append((lines[i][0], lines[i][1:]))
                i += 1
            continue
        i += 1
    return files


def encode(clone, base, diff_text):
    """The edits of a diff at base: [{file, from, to, sha, text}] (lines
    from..to of the base, 1-based, replaced by text; to = from - 1 inserts
    before line from), with `pre` edits where the diff's context is not the
    base's (a diff written against another text: it will not apply), and
    {file, new: text} / {file, delete: true} for whole files."""
    out = []
    for f in parse_diff(diff_text):
        if f["old"] is None:
            text = "".join(t for h in f["hunks"] for k, t in h["lines"]
                           if k == "+")
            out.append({"file": f["new"], "new": text})
            continue
        if f["new"] is None:
            out.append({"file": f["old"], "delete": True})
            continue
        if f["old"] != f["new"]:
            raise SystemExit("renames are not encoded: %s" % f["old"])
        base_text = show(clone, base, f["old"])
        if base_text is None:
            raise SystemExit("%s does not exist at %s" % (f["old"], base))
        base_lines = base_text.splitlines(keepends=True)
        for h in f["hunks"]:
            old_lines = [t for k, t in h["lines"] if k in (" ", "-")]
            start = h["old_start"] if old_lines else h["old_start"] + 1
            have = base_lines[start - 1:start - 1 + len(old_lines)]
            if have != old_lines:
                out.append({"file": f["old"], "pre": True, "from": start,
                            "to": start + len(old_lines) - 1,
                            "sha": lines_sha(have), "text": "".join(old_lines)})
            line_no = start
            k = 0
            hl = h["lines"]
            while k < len(hl):
                if hl[k][0] == " ":
                    line_no += 1
                    k += 1
                    continue
                minus, plus = [], []
                while k < len(hl) and hl[k][0] in ("-", "+"):
                    (minus if hl[k][0] == "-" else plus).append(hl[k][1])
                    k += 1
                out.append({"file": f["old"], "from": line_no,
                            "to": line_no + len(minus) - 1,
                            "sha": lines_sha(minus), "text": "".join(plus)})
                line_no += len(minus)
    return out


# ---- build: edits -> a candidate diff ----

def apply_edits(lines, edits, what):
    """lines with edits applied (each at the lines of the given text)."""
    lines = list(lines)
    for e in sorted(edits, key=lambda e: -e["from"]):
        old = lines[e["from"] - 1:e["to"]]
        if lines_sha(old) != e["sha"]:
            raise SystemExit("%s: %s lines %d-%d are not the ones the spec "
                             "names (another commit?)" % (what, e["file"],
                                                          e["from"], e["to"]))
        lines[e["from"] - 1:e["to"]] = e["text"].splitlines(keepends=True)
    return lines


def unified(path, a_lines, b_lines, new=False, delete=False):
    out = ["diff --git a/%s b/%s\n" % (path, path)]
    if new:
        out.append("new file mode 100644\n")
    if delete:
        out.append("deleted file mode 100644\n")
    body = list(difflib.unified_diff(
        a_lines, b_lines, "/dev/null" if new else "a/" + path,
        "/dev/null" if delete else "b/" + path, n=3))
    if not body:
        return ""
    for line in body:
        out.append(line if line.endswith("\n") else
                   line + "\n\\ No newline at end of file\n")
    # difflib writes "--- a/x\n" with a trailing tab-less date: fine for git.
    return "".join(out)


def candidate_diff(clone, base, edits, what):
    by_file = {}
    for e in edits:
        by_file.setdefault(e["file"], []).append(e)
    parts = []
    for path in sorted(by_file):
        es = by_file[path]
        if any("new" in e for e in es):
            parts.append(unified(path, [], es[0]["new"].splitlines(
                keepends=True), new=True))
            continue
        text = show(clone, base, path)
        if text is None:
            raise SystemExit("%s: %s does not exist at the base" % (what, path))
        base_lines = text.splitlines(keepends=True)
        if any(e.get("delete") for e in es):
            parts.append(unified(path, base_lines, [], delete=True))
            continue
        old = apply_edits(base_lines, [e for e in es if e.get("pre")], what)
        new = apply_edits(old, [e for e in es if not e.get("pre")], what)
        parts.append(unified(path, old, new))
    return "".join(parts)


def is_test_path(spec, path):
    return any(re.search(p, path) for p in
               spec.get("test_paths", [r"(^|/)tests?/", r"(^|/)test_[^/]*\.py$",
                                       r"_test\.py$", r"(^|/)conftest\.py$"]))


def clone_of(repos, repo):
    for name in (repo.replace("/", "__"), repo):
        p = os.path.join(repos, name)
        if os.path.isdir(p):
            return p
    raise SystemExit("no clone of %s in %s (git clone https://github.com/%s "
                     "%s/%s)" % (repo, repos, repo, repos,
                                 repo.replace("/", "__")))


def build(spec_path, repos, out):
    spec = json.load(open(spec_path))
    repo = spec["repo"]
    clone = clone_of(repos, repo)
    os.makedirs(out, exist_ok=True)
    insts, preds, labels = [], [], []
    for inst in spec["instances"]:
        iid = inst["instance_id"]
        fix = inst["fix_commit"]
        base = inst.get("base_commit") or git(clone, "rev-parse",
                                              fix + "^").strip()
        changed = [p for p in git(clone, "diff", "--name-only", base,
                                  fix).splitlines() if p]
        tests = [p for p in changed if is_test_path(spec, p)]
        src = [p for p in changed if p not in tests and
               not re.search(spec.get("skip_paths", r"^(CHANGES|docs/)"), p)]
        patch = git(clone, "diff", "--no-color", base, fix, "--", *src) \
            if src else ""
        test_patch = git(clone, "diff", "--no-color", base, fix, "--",
                         *tests) if tests else ""
        if not patch or not test_patch:
            raise SystemExit("%s: the commit has no %s" % (
                iid, "source change" if not patch else "test change"))
        insts.append({"repo": repo, "instance_id": iid, "base_commit": base,
                      "patch": patch, "test_patch": test_patch,
                      "problem_statement": inst.get("problem_statement", ""),
                      "hints_text": "", "created_at": inst.get("created_at", ""),
                      "version": inst.get("version", spec.get("version", "*")),
                      "FAIL_TO_PASS": inst["FAIL_TO_PASS"],
                      "PASS_TO_PASS": inst["PASS_TO_PASS"],
                      "environment_setup_commit": base})
        for c in inst["candidates"]:
            what = "%s %s" % (iid, c["name"])
            model = c.get("model", "devset-" + c["name"])
            preds.append({"instance_id": iid, "model_name_or_path": model,
                          "model_patch": candidate_diff(clone, base,
                                                        c["edits"], what)})
            labels.append({"instance_id": iid, "model_name_or_path": model,
                           "label": c["label"], "kind": c.get("kind", ""),
                           "resolved": c["resolved"], "why": c.get("why", "")})
    for name, rows in (("instances", insts), ("predictions", preds),
                       ("labels", labels)):
        with open(os.path.join(out, name + ".jsonl"), "w") as f:
            for r in rows:
                f.write(json.dumps(r) + "\n")
    env = spec.get("env", {"*": "/usr/bin/python3"})
    with open(os.path.join(out, "env.json"), "w") as f:
        json.dump({repo: env}, f, indent=2)
        f.write("\n")
    print("%s: %d instances, %d candidates (%s)" % (
        os.path.basename(out), len(insts), len(preds), ", ".join(
            "%d %s" % (sum(l["label"] == k for l in labels), k)
            for k in ("correct", "overfitting", "invalid"))))


def check(spec_path, repos, out):
    """Builds the set, then runs the harness without containers on every
    candidate and compares its decisions with the spec's."""
    build(spec_path, repos, out)
    res = os.path.join(out, "harness.json")
    subprocess.run([sys.executable, os.path.join(HERE, "..", "repo_harness.py"),
                    out, "--repos", repos, "--json", res],
                   stdout=subprocess.DEVNULL, check=True)
    got = {(h["instance_id"], h["model_name_or_path"]): h["resolved"]
           for h in json.load(open(res))}
    bad = 0
    for line in open(os.path.join(out, "labels.jsonl")):
        lab = json.loads(line)
        key = (lab["instance_id"], lab["model_name_or_path"])
        if got.get(key) != lab["resolved"]:
            bad += 1
            print("%s %s: spec says resolved %s, the harness %s" % (
                key[0], key[1], lab["resolved"], got.get(key)))
    print("%d candidates, %d disagree with the harness" % (len(got), bad))
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    e = sub.add_parser("encode", help="a diff at a base commit -> edits")
    e.add_argument("--clone", required=True)
    e.add_argument("--base", required=True)
    e.add_argument("diff")
    for name in ("build", "check"):
        b = sub.add_parser(name)
        b.add_argument("spec")
        b.add_argument("--repos", required=True)
        b.add_argument("--out", required=True)
    a = ap.parse_args()
    if a.cmd == "encode":
        text = open(a.diff, encoding="utf-8", errors="surrogateescape").read()
        print(json.dumps(encode(a.clone, a.base, text), indent=1))
        return 0
    if a.cmd == "build":
        build(a.spec, a.repos, a.out)
        return 0
    return check(a.spec, a.repos, a.out)


if __name__ == "__main__":
    sys.exit(main())
