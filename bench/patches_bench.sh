#!/usr/bin/env bash
# The 200-patch triage timing of issue 4: 5 candidate patches for each of
# 40 program entries, cycling the 12 programs of bench/corpus/patches, all
# with reference fixes, triaged by one `litmus patches --jobs 2` call.
#
#   bench/patches_bench.sh [LITMUS] [--distinct] [--duplicates] [--keep DIR]
#
# LITMUS defaults to build/litmus.  By default the 40 manifest entries
# point at the corpus folders under 40 program names (the set-up the issue
# describes): entries with the same files share a zygote pool and a cache,
# so the engine runs each distinct (program, text) once.  --distinct copies
# every entry's folder first, so that nothing is shared across entries:
# the worst case, 40 programs really different.  --duplicates makes two
# of each entry's five candidates copies of two others with a comment and
# a blank line added (what an LLM sampled twice returns), and also times
# the same triage without those 80 copies: the difference per copy is what
# a repeated patch costs.  Prints the wall time of the whole triage, the
# number of distinct candidate texts, and the verdict counts.  See
# docs/patches.md, "Performance".
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
litmus=$repo/build/litmus
distinct=0
duplicates=0
keep=""
while [ $# -gt 0 ]; do
  case $1 in
    --distinct) distinct=1 ;;
    --duplicates) duplicates=1 ;;
    --keep) keep=$2; shift ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) litmus=$1 ;;
  esac
  shift
done
[ -x "$litmus" ] || { echo "no litmus binary at $litmus (make build)" >&2; exit 2; }
work=${keep:-$(mktemp -d "${TMPDIR:-/tmp}/litmus-pbench-XXXXXX")}
mkdir -p "$work"
[ -n "$keep" ] || trap 'rm -rf "$work"' EXIT

/usr/bin/python3 - "$repo/bench/corpus/patches" "$work" "$distinct" "$duplicates" <<'PY'
import json, os, shutil, sys
corpus, work, distinct = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
duplicates = sys.argv[4] == "1"
manifest = json.load(open(os.path.join(corpus, "manifest.json")))
programs = list(manifest)
rows = {}
for line in open(os.path.join(corpus, "patches.jsonl")):
    r = json.loads(line)
    rows.setdefault(r["program"], []).append(r)
out_manifest, out_rows, texts = {}, [], set()
for k in range(40):
    prog = programs[k % len(programs)]
    occurrence = k // len(programs)
    name = "%s_%02d" % (prog, k)
    entry = dict(manifest[prog])
    base = corpus
    if distinct:
        # A private copy of the program's folder: other paths, other
        # fingerprint, nothing shared with the other entries.
        dst = os.path.join(work, "programs", name)
        shutil.copytree(os.path.join(corpus, prog), os.path.join(dst, prog),
                        ignore=shutil.ignore_patterns("patches"))
        base = dst
    for key in ("buggy", "reference", "tests"):
        entry[key] = os.path.join(base, entry[key])
    out_manifest[name] = entry
    cands = sorted(rows[prog], key=lambda r: int(r["run_id"][3:]))
    for i in range(5):
        if duplicates and i in (1, 3):
            # A copy of the candidate before, as sampled again: the same
            # code with a comment and a blank line.
            prev = out_rows[-1]
            text = "# sampled again (%d)\n\n%s" % (i, prev["patch_text"])
            out_rows.append({"program": name, "run_id": prev["run_id"] +
                             "-again", "patch_text": text, "copy": True})
            continue
        r = cands[(5 * occurrence + i) % len(cands)]
        out_rows.append({"program": name, "run_id": r["run_id"],
                         "patch_text": r["patch_text"]})
        texts.add((base if distinct else prog, r["patch_text"]))
json.dump(out_manifest, open(os.path.join(work, "manifest.json"), "w"),
          indent=1)
with open(os.path.join(work, "patches.jsonl"), "w") as f, \
        open(os.path.join(work, "originals.jsonl"), "w") as g:
    for r in out_rows:
        copy = r.pop("copy", False)
        f.write(json.dumps(r) + "\n")
        if not copy:
            g.write(json.dumps(r) + "\n")
print("input: %d patches, %d program entries, %d distinct (program files, "
      "patch text) pairs" % (len(out_rows), len(out_manifest), len(texts)))
PY

# One triage: patches file, database; sets $wall.
triage() {
  rm -f "$2"*
  local start end rc
  start=$(date +%s.%N)
  set +e
  "$litmus" patches --manifest "$work/manifest.json" \
    --patches "$1" --jobs 2 --db "$2" \
    --csv "$work/bench.csv" --no-progress >"$work/out.txt" 2>"$work/err.txt"
  rc=$?
  set -e
  end=$(date +%s.%N)
  if [ $rc -ne 0 ] && [ $rc -ne 1 ]; then
    echo "litmus patches failed (exit $rc):" >&2
    cat "$work/err.txt" >&2
    exit 1
  fi
  wall=$(echo "$end - $start" | bc)
}
if [ $duplicates = 1 ]; then
  triage "$work/originals.jsonl" "$work/originals.db"
  wall_originals=$wall
fi
triage "$work/patches.jsonl" "$work/bench.db"
printf 'wall time: %.1f s (litmus patches --jobs 2, %s)\n' "$wall" \
  "$([ $distinct = 1 ] && echo "40 distinct program folders" || echo "40 entries over the 12 corpus folders")"
sqlite3 -batch -noheader "$work/bench.db" \
  "SELECT 'engine: ' || (SELECT value FROM meta WHERE key='patches_texts') || ' distinct texts run or looked up, ' || (SELECT value FROM meta WHERE key='patches_zygotes') || ' zygotes, ' || (SELECT value FROM meta WHERE key='patches_jobs') || ' child runs (' || (SELECT value FROM meta WHERE key='patches_mutant_jobs') || ' of them mutants)'"
sqlite3 -batch -noheader "$work/bench.db" \
  "SELECT 'verdicts: ' || group_concat(v || ' ' || n, ', ') FROM (SELECT verdict AS v, count(*) AS n FROM patch_runs GROUP BY verdict ORDER BY verdict)"
if [ $duplicates = 1 ]; then
  printf 'without the 80 copies: %.1f s; a repeated patch costs %.0f ms\n' \
    "$wall_originals" "$(echo "($wall - $wall_originals) * 1000 / 80" | bc -l)"
  sqlite3 -batch -noheader "$work/bench.db" \
    "SELECT 'copies with the verdict of their original: ' || count(*) || ' of 80' FROM patch_runs c JOIN patch_runs o ON o.program = c.program AND c.run_id = o.run_id || '-again' AND o.verdict = c.verdict"
fi
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
