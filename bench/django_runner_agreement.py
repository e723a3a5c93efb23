#!/usr/bin/env python3
"""Django's runner against litmus's, test module by test module: for each
label, the tests Django's own `tests/runtests.py --settings=test_sqlite
--parallel 1 -v 2 LABEL` passes at a revision of a Django clone, then
`litmus patches` on an instance whose PASS_TO_PASS are exactly those
tests, named as the harness names them (documented tests by their
docstring's line), whose FAIL_TO_PASS is one marker test the test patch
adds and whose reference fix adds the name that test imports.  Prints,
per label, the tests Django passes, those litmus counted and those the
reference fails under litmus (dropped: a disagreement each).

    django_runner_agreement.py LITMUS CLONE REV LABEL... [--python PY]

CLONE is a git clone of Django (its tree has tests/runtests.py); REV a
revision whose suite runs with PY (default /usr/bin/python3).
SPDX-License-Identifier: MIT
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import repo_harness  # noqa: E402

MARK = '''

from django.test import SimpleTestCase as _LitmusMarkCase


class LitmusMarkTests(_LitmusMarkCase):
    def test_mark(self):
        from django.utils import LITMUS_MARK  # noqa: F401
'''


def django_passes(tree, label, python):
    """The names Django's runner reports ok, as the harness reads them,
    and how many tests it reported."""
    run = subprocess.run(repo_harness.django_command(python, [label]),
                         cwd=tree, env=dict(os.environ, PYTHONPATH=tree),
                         capture_output=True, text=True)
    statuses = {name: status for name, status, _ in
                repo_harness.django_lines(run.stderr)}
    return [name for name, st in statuses.items() if st == "PASSED"], \
        len(statuses)


def git(tree, *args):
    return subprocess.run(["git", "-C", tree] + list(args), check=True,
                          capture_output=True, text=True).stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("litmus")
    ap.add_argument("clone")
    ap.add_argument("rev")
    ap.add_argument("labels", nargs="+")
    ap.add_argument("--python", default="/usr/bin/python3")
    a = ap.parse_args()
    base = git(a.clone, "rev-parse", a.rev).strip()
    work = tempfile.mkdtemp(prefix="litmus-django-agree-")
    repos = os.path.join(work, "repos")
    os.makedirs(repos)
    os.symlink(os.path.abspath(a.clone), os.path.join(repos, "django__django"))
    env = os.path.join(work, "env.json")
    json.dump({"django/django": {"*": a.python}}, open(env, "w"))
    total_ok = total_dropped = 0
    try:
        for label in a.labels:
            tree = os.path.join(work, "tree")
            shutil.rmtree(tree, ignore_errors=True)
            subprocess.run(["git", "clone", "-q", "--shared", a.clone, tree],
                           check=True)
            git(tree, "-c", "advice.detachedHead=false", "checkout", "-q",
                base)
            passes, ran = django_passes(tree, label, a.python)
            rel = label.replace(".", "/")
            test_file = "tests/%s.py" % rel if os.path.isfile(
                os.path.join(tree, "tests", rel + ".py")) \
                else "tests/%s/tests.py" % rel
            with open(os.path.join(tree, test_file), "a") as f:
                f.write(MARK)
            test_patch = git(tree, "diff")
            git(tree, "checkout", "-q", ".")
            with open(os.path.join(tree, "django", "utils", "__init__.py"),
                      "a") as f:
                f.write("LITMUS_MARK = 1\n")
            fix = git(tree, "diff")
            module = test_file[len("tests/"):-3].replace("/", ".")
            inst = {"instance_id": "django__django-" + label.replace(".", "_"),
                    "repo": "django/django", "base_commit": base,
                    "patch": fix, "test_patch": test_patch,
                    "FAIL_TO_PASS": ["test_mark (%s.LitmusMarkTests)" % module],
                    "PASS_TO_PASS": passes, "version": "any"}
            ipath = os.path.join(work, "i.jsonl")
            ppath = os.path.join(work, "p.jsonl")
            open(ipath, "w").write(json.dumps(inst) + "\n")
            open(ppath, "w").write(json.dumps({
                "instance_id": inst["instance_id"],
                "model_name_or_path": "reference", "model_patch": fix}) + "\n")
            db = os.path.join(work, "a.db")
            for p in (db, db + ".trees"):
                shutil.rmtree(p, ignore_errors=True)
                if os.path.exists(p):
                    os.unlink(p)
            run = subprocess.run(
                [a.litmus, "patches", "--instances", ipath, "--predictions",
                 ppath, "--repos", repos, "--env", env, "--db", db,
                 "--no-progress", "-f", "json", "--no-mutation",
                 "--no-probes"], capture_output=True, text=True)
            try:
                c = json.loads(run.stdout)["candidates"][0]
            except (ValueError, KeyError, IndexError):
                print("%-32s litmus failed (exit %d): %s" % (
                    label, run.returncode, run.stderr.strip()[-300:]))
                continue
            ev = c["evidence"]
            dropped = ev.get("dropped_tests") or []
            total_ok += len(passes)
            total_dropped += len(dropped)
            print("%-32s Django: %d passed of %d; litmus: %s counted, %d "
                  "the reference fails here, %s" % (
                      label, len(passes), ran, ev.get("tests_counted"),
                      len(dropped), ev.get("harness")), flush=True)
            for d in dropped[:10]:
                print("    %s" % d, flush=True)
        print("total: %d tests Django passes, %d of them not passed under "
              "litmus (%.1f%% agreement)" % (
                  total_ok, total_dropped,
                  100.0 * (total_ok - total_dropped) / max(total_ok, 1)))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
