#!/usr/bin/env bash
# Scores `litmus patches` against the human-style labels of
# bench/corpus/patch_labels (plausible patches only: every candidate passes
# its program's tests; labels.json says which are correct and which
# overfit, reasoning from each function's documented contract).
#
#   bench/patch_labels_bench.sh [LITMUS] [--corpus DIR] [--programs a,b] [--keep DIR]
#
# --corpus DIR scores another labelled set of the same layout (default
# bench/corpus/patch_labels, the development set; the held-out set is
# bench/corpus/patch_labels_holdout).  A relative DIR is taken from the
# current directory, else from the repository's root.  When DIR holds a
# classes.json ({"N": "name"}), it names the classes of its labels.json.
# LITMUS defaults to build/litmus.  --programs triages only the named
# programs (a manifest and a candidates folder for them are written to the
# work dir).  --keep DIR keeps the work dir (report.json, bench.csv,
# bench.db, litmus's stderr) in DIR instead of a temp dir.
#
# Runs one `litmus patches --manifest ... --patches ... --jobs 2
# --format json` call (exit 0 or 1 is a normal run; anything else is
# reported as an error, and the figures are still printed if the report
# can be read), then prints: candidates judged (verdict not `error`, not
# missing), overfitting recall (labelled overfitting with verdict
# `overfitting`), false alarms on correct patches (labelled correct with a
# verdict other than correct/memorized), agreement, the same figures per
# class of labels.json, every disagreement, the wall time and the slowest
# candidates.  Next to litmus's figures: what the tests alone give (every
# plausible patch accepted).  Exit 0 when the run and the scoring
# completed, 1 on a litmus run error, 2 on a usage error.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
corpus=$repo/bench/corpus/patch_labels
litmus=$repo/build/litmus
programs=""
keep=""
corpus_arg=""
while [ $# -gt 0 ]; do
  case $1 in
    --programs) [ $# -ge 2 ] || { echo "--programs needs a list" >&2; exit 2; }
                programs=$2; shift ;;
    --programs=*) programs=${1#--programs=} ;;
    --keep) [ $# -ge 2 ] || { echo "--keep needs a directory" >&2; exit 2; }
            keep=$2; shift ;;
    --corpus) [ $# -ge 2 ] || { echo "--corpus needs a directory" >&2; exit 2; }
              corpus_arg=$2; shift ;;
    --corpus=*) corpus_arg=${1#--corpus=} ;;
    -h|--help) sed -n '2,29p' "$0"; exit 0 ;;
    -*) echo "unknown option $1" >&2; exit 2 ;;
    *) litmus=$1 ;;
  esac
  shift
done
[ -x "$litmus" ] || { echo "no litmus binary at $litmus (make build)" >&2; exit 2; }
if [ -n "$corpus_arg" ]; then
  if [ -d "$corpus_arg" ]; then
    corpus=$(cd "$corpus_arg" && pwd)
  elif [ -d "$repo/$corpus_arg" ]; then
    corpus=$(cd "$repo/$corpus_arg" && pwd)
  else
    echo "no corpus directory $corpus_arg" >&2; exit 2
  fi
  for f in manifest.json labels.json candidates; do
    [ -e "$corpus/$f" ] || { echo "$corpus has no $f" >&2; exit 2; }
  done
fi
corpus_name=${corpus#"$repo"/}
work=${keep:-$(mktemp -d "${TMPDIR:-/tmp}/litmus-plbench-XXXXXX")}
mkdir -p "$work"
work=$(cd "$work" && pwd)
[ -n "$keep" ] || trap 'rm -rf "$work"' EXIT

manifest=$corpus/manifest.json
patches=$corpus/candidates
if [ -n "$programs" ]; then
  # A manifest naming only these programs (absolute paths into the corpus)
  # and a candidates folder holding only theirs.
  /usr/bin/python3 - "$corpus" "$work" "$programs" <<'PY' || exit 2
import json, os, shutil, sys
corpus, work, wanted = sys.argv[1], sys.argv[2], sys.argv[3].split(",")
manifest = json.load(open(os.path.join(corpus, "manifest.json")))
unknown = [p for p in wanted if p not in manifest]
if unknown:
    sys.exit("unknown program(s): %s (known: %s)" % (", ".join(unknown), ", ".join(manifest)))
out = {}
shutil.rmtree(os.path.join(work, "candidates"), ignore_errors=True)
for p in wanted:
    entry = dict(manifest[p])
    for key in ("buggy", "reference", "tests", "held_out", "inputs"):
        if key in entry:
            entry[key] = os.path.join(corpus, entry[key])
    out[p] = entry
    shutil.copytree(os.path.join(corpus, "candidates", p), os.path.join(work, "candidates", p))
json.dump(out, open(os.path.join(work, "manifest.json"), "w"), indent=1)
PY
  manifest=$work/manifest.json
  patches=$work/candidates
fi

rm -f "$work/bench.db" "$work/bench.db-wal" "$work/bench.db-shm" "$work/bench.csv"
echo "litmus patches on $corpus_name${programs:+ (programs: $programs)}: $litmus"
start=$(date +%s.%N)
set +e
"$litmus" patches --manifest "$manifest" --patches "$patches" --jobs 2 \
  --format json --csv "$work/bench.csv" --db "$work/bench.db" --no-progress \
  >"$work/report.json" 2>"$work/err.txt"
rc=$?
set -e
end=$(date +%s.%N)
wall=$(echo "$end - $start" | bc)
run_error=0
if [ $rc -ne 0 ] && [ $rc -ne 1 ]; then
  run_error=1
  echo "litmus patches failed (exit $rc); stderr (last lines):" >&2
  tail -n 20 "$work/err.txt" >&2
fi

/usr/bin/python3 - "$corpus" "$work" "$wall" "$rc" "$programs" <<'PY'
import csv, json, os, sys
corpus, work, wall, rc, programs = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
labels = json.load(open(os.path.join(corpus, "labels.json")))
if programs:
    labels = {p: labels[p] for p in programs.split(",")}

verdicts = {}
report = None
try:
    with open(os.path.join(work, "report.json")) as f:
        report = json.load(f)
except (OSError, ValueError) as exc:
    print("no readable JSON report (%s); trying the CSV" % exc)
if report is not None:
    for p in report.get("patches", []):
        verdicts[(p.get("program"), p.get("run_id"))] = p
else:
    try:
        with open(os.path.join(work, "bench.csv"), newline="") as f:
            for row in csv.DictReader(f):
                row["duration_ms"] = float(row.get("duration_ms") or 0)
                verdicts[(row["program"], row["run_id"])] = row
    except OSError:
        pass

CLASS_NAMES = {
    1: "node-object programs (graph, linked list)",
    2: "generator dropping None / falsy items",
    3: "`x and x < y`: wrong only with a 0",
    4: "correct, differs only outside the contract",
    5: "correct but much slower",
    6: "in-place: mutates its argument wrongly",
    7: "exponential program (lcs_length)",
    8: "empty string / '' differences",
}
names_file = os.path.join(corpus, "classes.json")
if os.path.exists(names_file):
    with open(names_file) as f:
        CLASS_NAMES = {int(k): v for k, v in json.load(f).items()}
OK_FOR_CORRECT = ("correct", "memorized")

rows = []
for prog in labels:
    for run_id in sorted(labels[prog], key=lambda r: int(r[1:]) if r[1:].isdigit() else 0):
        lab = labels[prog][run_id]
        got = verdicts.get((prog, run_id))
        verdict = got.get("verdict") if got else None
        judged = verdict not in (None, "error")
        if lab["label"] == "overfitting":
            agree = verdict == "overfitting"
        else:
            agree = verdict in OK_FOR_CORRECT
        rows.append(dict(program=prog, run_id=run_id, label=lab["label"], kind=lab["kind"],
                         classes=lab.get("classes", []), verdict=verdict or "missing",
                         reason=(got or {}).get("reason") or "",
                         detail=(got or {}).get("detail") or "",
                         duration=float((got or {}).get("duration_ms") or 0.0),
                         judged=judged, agree=agree))

def frac(a, b):
    return "%d/%d %5.1f%%" % (a, b, 100.0 * a / b) if b else "%d/%d     -" % (a, b)

total = len(rows)
over = [r for r in rows if r["label"] == "overfitting"]
corr = [r for r in rows if r["label"] == "correct"]
judged = sum(r["judged"] for r in rows)
caught = sum(r["agree"] for r in over)
alarms = sum(not r["agree"] for r in corr)
agree = sum(r["agree"] for r in rows)
print()
print("candidates judged: %s  (verdict `error` or missing = unjudged)" % frac(judged, total))
counts = {}
for r in rows:
    counts[r["verdict"]] = counts.get(r["verdict"], 0) + 1
print("verdicts: " + ", ".join("%s %d" % kv for kv in sorted(counts.items())))
print()
print("%-32s %-16s %s" % ("", "litmus", "tests alone"))
print("%-32s %-16s %s" % ("overfitting recall", frac(caught, len(over)), frac(0, len(over))))
print("%-32s %-16s %s" % ("false alarms on correct patches", frac(alarms, len(corr)), frac(0, len(corr))))
print("%-32s %-16s %s" % ("agreement with the labels", frac(agree, total), frac(len(corr), total)))
print()
print("per class (labels.json \"classes\"; agreement = overfitting caught / correct accepted):")
for c in sorted(CLASS_NAMES):
    sel = [r for r in rows if c in r["classes"]]
    if not sel:
        continue
    o = [r for r in sel if r["label"] == "overfitting"]
    k = [r for r in sel if r["label"] == "correct"]
    parts = []
    if o:
        parts.append("overfitting caught %d/%d" % (sum(r["agree"] for r in o), len(o)))
    if k:
        parts.append("correct accepted %d/%d" % (sum(r["agree"] for r in k), len(k)))
    print("  %d %-44s %s" % (c, CLASS_NAMES[c], ", ".join(parts)))
print()
print("per program:")
for prog in labels:
    sel = [r for r in rows if r["program"] == prog]
    o = [r for r in sel if r["label"] == "overfitting"]
    k = [r for r in sel if r["label"] == "correct"]
    print("  %-17s agreement %-14s overfitting caught %d/%d, correct accepted %d/%d"
          % (prog, frac(sum(r["agree"] for r in sel), len(sel)),
             sum(r["agree"] for r in o), len(o), sum(r["agree"] for r in k), len(k)))
print()
dis = [r for r in rows if not r["agree"]]
print("disagreements (%d):" % len(dis))
for r in dis:
    detail = " ".join(r["detail"].split())
    if len(detail) > 200:
        detail = detail[:197] + "..."
    print("  %s %s [%s, %s]: label %s, verdict %s/%s: %s"
          % (r["program"], r["run_id"], r["kind"],
             "classes " + ",".join(map(str, r["classes"])) if r["classes"] else "no class",
             r["label"], r["verdict"], r["reason"] or "-", detail or "-"))
print()
elapsed = (report or {}).get("overall", {}).get("elapsed_s")
print("wall time: %.1f s%s (litmus patches --jobs 2, exit %d)"
      % (wall, "" if elapsed is None else ", engine elapsed %.1f s" % elapsed, rc))
timed = sorted((r for r in rows if r["duration"] > 0), key=lambda r: -r["duration"])
if timed:
    print("child time per candidate: total %.1f s; slowest: %s"
          % (sum(r["duration"] for r in timed) / 1000.0,
             ", ".join("%s/%s %.2f s" % (r["program"], r["run_id"], r["duration"] / 1000.0)
                       for r in timed[:3])))
    by_prog = {}
    for r in timed:
        by_prog[r["program"]] = by_prog.get(r["program"], 0.0) + r["duration"]
    print("child time per program: " + ", ".join(
        "%s %.1f s" % (p, ms / 1000.0) for p, ms in sorted(by_prog.items(), key=lambda kv: -kv[1])))
PY
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
exit $run_error
