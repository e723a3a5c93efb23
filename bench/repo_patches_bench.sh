#!/usr/bin/env bash
# Repository candidates against labels: runs `litmus patches --instances`
# on a labelled set and prints resolved agreement with the harness's
# decisions (computed with plain pytest), overfitting recall, false alarms
# on correct candidates, every reference fix judged (resolved), every base
# unresolved, and the time per candidate (median, 90th percentile: its
# test run, its differential run and its mutants, in the forked children) against a
# fresh `python -m pytest` process per candidate on the same tests in a
# fresh checkout (what a harness without containers does; FRESH_SAMPLE
# candidates per set, default 12, 0 to skip).
#
#   bench/repo_patches_bench.sh [LITMUS] SET_DIR...
#
# KEEP=DIR keeps each set's JSON report (SET.json) there.
#
# A SET_DIR holds instances.jsonl, predictions.jsonl, labels.jsonl
# ({instance_id, model_name_or_path, label, resolved}) and env.json; the
# clones are in REPOS (default SET_DIR/../repos).  The development set's
# (bench/devset: flask, click, jinja, boltons, more-itertools) are made by
# `bench/devset/devset.py build bench/devset/NAME/spec.json --repos REPOS
# --out SET_DIR` from clones of the public repositories; the fixture set
# by tests/fixtures/repo_patches/make_repos.sh.
# SPDX-License-Identifier: MIT
set -euo pipefail
LITMUS=${1:-build/litmus}
[ -x "$LITMUS" ] || { echo "usage: $0 [LITMUS] SET_DIR..." >&2; exit 2; }
shift
LITMUS=$(cd "$(dirname "$LITMUS")" && pwd)/$(basename "$LITMUS")
export HARNESS=$(cd "$(dirname "$0")" && pwd)/repo_harness.py
work=$(mktemp -d "${TMPDIR:-/tmp}/litmus-repo-bench-XXXXXX")
trap 'rm -rf "$work"' EXIT
for set in "$@"; do
  set=$(cd "$set" && pwd)
  name=$(basename "$set")
  repos=${REPOS:-$(dirname "$set")/repos}
  # Each reference fix and each base (the empty diff) as candidates too.
  /usr/bin/python3 - "$set" "$work/$name.pred.jsonl" <<'PY'
import json, sys
s = sys.argv[1]
out = open(sys.argv[2], "w")
for line in open(s + "/predictions.jsonl"):
    if line.strip():
        out.write(line if line.endswith("\n") else line + "\n")
for line in open(s + "/instances.jsonl"):
    if not line.strip():
        continue
    r = json.loads(line)
    for model, patch in (("bench-reference", r["patch"]), ("bench-base", "")):
        out.write(json.dumps({"instance_id": r["instance_id"],
                              "model_name_or_path": model,
                              "model_patch": patch}) + "\n")
PY
  start=$(date +%s.%N)
  set +e
  "$LITMUS" patches --instances "$set/instances.jsonl" \
    --predictions "$work/$name.pred.jsonl" --repos "$repos" \
    --env "$set/env.json" --db "$work/$name.db" --no-progress -f json \
    --worktrees "$work/$name.trees" > "$work/$name.json" 2> "$work/$name.err"
  rc=$?
  set -e
  end=$(date +%s.%N)
  [ -z "${KEEP:-}" ] || { mkdir -p "$KEEP" && cp "$work/$name.json" "$KEEP/"; }
  if [ "$rc" -gt 1 ]; then
    echo "$name: litmus exited $rc:" >&2
    tail -5 "$work/$name.err" >&2
    continue
  fi
  REPOS_DIR=$repos /usr/bin/python3 - "$set" "$work/$name.json" "$start" "$end" "$work/$name.trees" "${FRESH_SAMPLE:-12}" <<'PY'
import json, os, statistics, sys
s, out, t0, t1, trees, sample = sys.argv[1:7]
doc = json.load(open(out))
rows = {(c["instance_id"], c["model_name_or_path"]): c for c in doc["candidates"]}
labels = []
if os.path.exists(s + "/labels.jsonl"):
    labels = [json.loads(l) for l in open(s + "/labels.jsonl") if l.strip()]
agree = n = 0
of = of_caught = cor = cor_flagged = 0
for lab in labels:
    c = rows.get((lab["instance_id"], lab["model_name_or_path"]))
    if c is None:
        continue
    n += 1
    mine = c["evidence"].get("harness") == "resolved"
    agree += mine == bool(lab.get("resolved"))
    if lab["label"] == "overfitting":
        of += 1
        of_caught += c["verdict"] in ("overfitting", "invalid")
    elif lab["label"] == "correct":
        cor += 1
        cor_flagged += c["verdict"] not in ("correct", "memorized")
refs = [c for (i, m), c in rows.items() if m == "bench-reference"]
bases = [c for (i, m), c in rows.items() if m == "bench-base"]
def cost_ms(c):
    ev = c["evidence"]
    return ev.get("duration_ms", 0) + \
        (ev.get("differential") or {}).get("duration_ms", 0) + \
        (ev.get("probe") or {}).get("duration_ms", 0) + \
        ((ev.get("mutation") or {}).get("candidate") or {}).get("duration_ms", 0)
ms = sorted(cost_ms(c) for c in doc["candidates"]
            if c["evidence"].get("duration_ms"))
name = os.path.basename(s)
print("%s: %d candidates, resolved agreement %d/%d (%.1f%%), overfitting "
      "caught %d/%d, correct flagged %d/%d" % (
          name, n, agree, n, 100.0 * agree / max(n, 1), of_caught, of,
          cor_flagged, cor))
print("%s: reference fixes resolved %d/%d (correct or memorized %d), bases "
      "unresolved %d/%d" % (
          name, sum(c["evidence"].get("harness") == "resolved" for c in refs),
          len(refs), sum(c["verdict"] in ("correct", "memorized") for c in refs),
          sum(c["evidence"].get("harness") != "resolved" for c in bases),
          len(bases)))
def p90(xs):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(0.9 * (len(xs) - 1))))]
if ms:
    print("%s: litmus per candidate (test run + differential run + probes + mutants): median "
          "%.2f s, p90 %.2f s; whole run %.1f s wall for %d candidates" % (
              name, statistics.median(ms) / 1000, p90(ms) / 1000,
              float(t1) - float(t0), len(doc["candidates"])))
# The comparator: bench/repo_harness.py, a fresh checkout and one pytest
# process per candidate on the same tests, as a harness without
# containers runs them, on the first FRESH_SAMPLE predictions.
import subprocess
fresh, mine, mine_run, agree = [], [], [], 0
if int(sample):
    here = os.path.dirname(os.path.abspath(sys.argv[0])) if sys.argv[0] != "-" else ""
    out_json = out + ".harness.json"
    subprocess.run([sys.executable, os.environ["HARNESS"], s, "--only", sample,
                    "--repos", os.environ["REPOS_DIR"], "--json", out_json],
                   stdout=subprocess.DEVNULL, check=True)
    for h in json.load(open(out_json)):
        c = rows.get((h["instance_id"], h["model_name_or_path"]))
        if c is None or not c["evidence"].get("duration_ms"):
            continue
        fresh.append(h["seconds"] * 1000)
        mine.append(cost_ms(c))
        mine_run.append(c["evidence"]["duration_ms"])
        agree += (c["evidence"].get("harness") == "resolved") == h["resolved"]
if fresh:
    print("%s: fresh checkout + pytest per candidate (%d sampled): median "
          "%.2f s, p90 %.2f s; litmus on the same: its test run (the same "
          "tests and the wider suite's, in a forked child) median %.2f s, "
          "p90 %.2f s (litmus/fresh at the median: %.2f); with the "
          "differential run, probes and mutants median %.2f s, p90 %.2f s; "
          "resolved decisions equal on %d/%d" % (
              name, len(fresh), statistics.median(fresh) / 1000,
              p90(fresh) / 1000, statistics.median(mine_run) / 1000,
              p90(mine_run) / 1000,
              statistics.median(mine_run) / max(statistics.median(fresh), 1),
              statistics.median(mine) / 1000, p90(mine) / 1000,
              agree, len(fresh)))
PY
done
