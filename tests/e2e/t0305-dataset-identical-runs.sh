# Identical runs within one dataset job run once, even with nothing cached
# (--no-db): here the same programs under a second id, whose runs of the
# original program (and of any fault drawn alike) repeat the first id's.
# Faults are drawn per id, so the rest differ.
. "$(dirname "$0")/lib.sh"
# Two of the fixture's programs (one checked by its tests, one by its
# inputs), then the same records again under other ids.
dataset_subset "$WORK/two.jsonl" bitcount fast_power
IN=$WORK/two.jsonl
/usr/bin/python3 - "$IN" "$WORK/twice.in.jsonl" <<'PY'
import json, sys
src, dst = sys.argv[1], sys.argv[2]
rows = [json.loads(l) for l in open(src) if l.strip()]
with open(dst, "w") as f:
    for r in rows:
        f.write(json.dumps(r) + "\n")
    for r in rows:
        f.write(json.dumps(dict(r, id="again_" + r["id"])) + "\n")
PY
run_litmus dataset faults "$IN" --quarter all --seed 3 -j 2 --no-progress \
  --no-db --summary "$WORK/once.json" -o "$WORK/once.jsonl"
expect_eq "$RC" 0 "once: exit code"
run_litmus dataset faults "$WORK/twice.in.jsonl" --quarter all --seed 3 -j 2 \
  --no-progress --no-db --summary "$WORK/twice.json" -o "$WORK/twice.jsonl"
expect_eq "$RC" 0 "twice: exit code"
/usr/bin/python3 - "$WORK" <<'PY' || fail "identical runs were not shared"
import json, os, sys
w = sys.argv[1]
once = json.load(open(os.path.join(w, "once.json")))
twice = json.load(open(os.path.join(w, "twice.json")))
assert once["runs"] > 0, once
# Without sharing, the second copy would cost as many runs again.
assert twice["runs"] < 2 * once["runs"], (once["runs"], twice["runs"])
assert twice["cached"] > 0, twice
PY
exit 0
