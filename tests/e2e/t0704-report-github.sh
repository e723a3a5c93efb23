# --format github: one workflow command per survivor (warning) and
# uncovered mutant (notice) with repository-relative file, 1-based line and
# column, escaped message; a closing notice with the score.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_report.sh"
every_verdict
report --format json
cp "$WORK/out" "$WORK/litmus.json"
# A detail with the characters the format must escape stays out of the
# annotation, but the diff carries newlines and the path a ',' never.
report --format github
expect_eq "$RC" 0 "report --format github"
/usr/bin/python3 - "$WORK/out" "$WORK/litmus.json" <<'PY' || fail "annotations: $(cat "$WORK/out")"
import json, re, sys
lines = open(sys.argv[1]).read().split("\n")
assert lines[-1] == "", "ends with a newline"
lines = lines[:-1]
ours = json.load(open(sys.argv[2]))
want = {m["id"]: m for m in ours["mutants"] if m["status"] in ("survived", "no_coverage")}
pat = re.compile(r"^::(warning|notice) file=([^,:]+),line=(\d+),endLine=(\d+),col=(\d+),endColumn=(\d+),title=([^:,]+)::(.*)$")
seen = set()
for l in lines[:-1]:
    m = pat.match(l)
    assert m, l
    kind, file, line, eline, col, ecol, title, msg = m.groups()
    assert "\n" not in msg and "\r" not in msg
    mid = title.split()[-1]
    mu = want[mid]
    seen.add(mid)
    assert kind == ("warning" if mu["status"] == "survived" else "notice")
    assert file == "bench/corpus/merge_sort/merge_sort.py"
    assert (int(line), int(col), int(eline), int(ecol)) == (mu["line"], mu["col"], mu["end_line"], mu["end_col"])
    assert "%0A--- a/bench/corpus/merge_sort/merge_sort.py%0A" in msg, msg
    assert re.search(r"%(?!0A|0D|25)", msg) is None, msg
    if kind == "warning":
        assert "%0A-    while width < n:%0A+    while width <= n:%0A" in msg, msg
assert seen == set(want), (seen, set(want))
assert re.match(r"^::notice title=litmus::mutation score \d+\.\d% \(1 survived, 1 not covered, of 40 mutants\)$", lines[-1]), lines[-1]
print("annotations ok:", len(lines))
PY
exit 0
