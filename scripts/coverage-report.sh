#!/usr/bin/env bash
# Line coverage of litmus's own C code per module, from the gcov counts
# that a --coverage build's tests left in BUILD (gcovr).  Prints one
# table; with --floor FILE, fails when a module is below its minimum
# there ("module percent" lines, # comments); with --html, also writes
# BUILD/coverage/index.html.
#
#   scripts/coverage-report.sh BUILD [--floor FILE] [--html]
set -euo pipefail
build=${1:?usage: coverage-report.sh BUILD [--floor FILE] [--html]}
shift
floor="" html=0
while [ $# -gt 0 ]; do
  case $1 in
    --floor) floor=$2; shift 2 ;;
    --html) html=1; shift ;;
    *) echo "coverage-report.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$build" && pwd)
if ! command -v gcovr >/dev/null 2>&1; then
  echo "coverage: gcovr is missing (scripts/install-deps.sh installs it)" >&2
  exit 2
fi
if [ -z "$(find "$build" -name '*.gcda' -print -quit)" ]; then
  echo "coverage: no .gcda files under $build (not a coverage build, or no test ran)" >&2
  exit 2
fi
modules="sandbox harness engine runners operators common"
filters=()
for m in $modules; do filters+=(--filter "$root/$m/"); done
summary="$build/coverage-summary.json"
args=(--root "$root" --object-directory "$build" "${filters[@]}"
      --exclude "$root/tests/" --exclude "$root/third_party/"
      --gcov-ignore-parse-errors -j 2 --json-summary "$summary" "$build")
if [ "$html" = 1 ]; then
  mkdir -p "$build/coverage"
  args=(--html-details "$build/coverage/index.html" "${args[@]}")
fi
(cd "$root" && gcovr "${args[@]}") >/dev/null
python3 - "$summary" "$modules" "$floor" <<'PY'
import json, sys
summary, modules, floor = sys.argv[1], sys.argv[2].split(), sys.argv[3]
files = json.load(open(summary))["files"]
tot = {m: [0, 0] for m in modules}
for f in files:
    m = f["filename"].split("/", 1)[0]
    if m in tot:
        tot[m][0] += f["line_covered"]
        tot[m][1] += f["line_total"]
mins = {}
if floor:
    for line in open(floor):
        line = line.split("#", 1)[0].split()
        if len(line) == 2:
            mins[line[0]] = float(line[1])
print("%-10s %8s %8s %7s %7s" % ("module", "lines", "covered", "cover", "floor"))
bad = []
all_c = all_t = 0
for m in modules:
    c, t = tot[m]
    all_c += c
    all_t += t
    pct = 100.0 * c / t if t else 0.0
    fl = mins.get(m)
    mark = ""
    if fl is not None and pct < fl:
        bad.append(m)
        mark = "  BELOW FLOOR"
    print("%-10s %8d %8d %6.1f%% %7s%s" % (m, t, c, pct,
          "%.1f%%" % fl if fl is not None else "-", mark))
print("%-10s %8d %8d %6.1f%%" % ("total", all_t, all_c,
      100.0 * all_c / all_t if all_t else 0.0))
if bad:
    print("coverage: below the floor of %s: %s" % (floor, " ".join(bad)))
    sys.exit(1)
PY
if [ "$html" = 1 ]; then echo "coverage: HTML report in $build/coverage/index.html"; fi
