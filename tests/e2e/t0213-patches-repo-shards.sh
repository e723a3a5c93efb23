# litmus patches on repository candidates in shards: two shards of three
# instances' candidates are disjoint and balanced, `litmus merge` unites
# their stores, and the command without --shard on the merged store
# replays every verdict (the shards') without starting a child; a shard
# run again on its complete store starts none either.
. "$(dirname "$0")/lib.sh"
FIX=$(cd "$(dirname "$0")/../fixtures/repo_patches" && pwd)
bash "$FIX/make_repos.sh" "$WORK/rp" >/dev/null || fail "make_repos.sh"
R=$WORK/rp
keep='litmus__textkit-(1|6|8)"'
grep -E "$keep" "$R/instances.jsonl" > "$WORK/i.jsonl"
grep -E "$keep" "$R/predictions.jsonl" > "$WORK/p.jsonl"
n=$(wc -l < "$WORK/p.jsonl")
[ "$n" -ge 8 ] || fail "only $n candidates"
args=(patches --instances "$WORK/i.jsonl" --predictions "$WORK/p.jsonl"
      --repos "$R/repos" --env "$R/env.json" --no-progress -j 2
      --diff-budget 0.5 --no-probes --timeout 3 --worktrees "$WORK/trees")
for i in 0 1; do
  run_litmus "${args[@]}" --shard $i/2 --db "$WORK/s$i.db" --csv "$WORK/s$i.csv"
  [ "$RC" -le 1 ] || fail "shard $i: $(tail -3 "$WORK/err")"
  expect_eq "$(q "$WORK/s$i.db" "SELECT value FROM meta WHERE key = 'patches_shard'")" "$i/2" "shard $i meta"
  expect_eq "$(q "$WORK/s$i.db" "SELECT value FROM meta WHERE key = 'patches_complete'")" 1 "shard $i complete"
done
run_litmus merge "$WORK/m.db" "$WORK/s0.db" "$WORK/s1.db"
expect_eq "$RC" 0 "merge ($(cat "$WORK/err"))"
LITMUS_RUN_LOG=$WORK/runlog run_litmus "${args[@]}" --db "$WORK/m.db" --csv "$WORK/m.csv" \
  -f json --harness-report "$WORK/harness"
[ "$RC" -le 1 ] || fail "replay: $(tail -3 "$WORK/err")"
[ ! -s "$WORK/runlog" ] || fail "the replay started runs: $(head -3 "$WORK/runlog")"
/usr/bin/python3 - "$WORK" <<'PY' || fail "the JSON report and the harness's reports disagree"
import json, os, sys
w = sys.argv[1]
doc = json.load(open(f"{w}/out"))
assert doc["schema"] == "litmus.patches.repo/1", doc["schema"]
for name in os.listdir(f"{w}/harness"):
    model = name[:-len(".litmus.json")]
    rep = json.load(open(f"{w}/harness/{name}"))
    mine = sorted(c["instance_id"] for c in doc["candidates"]
                  if c["model_name_or_path"] == model and c["evidence"]["harness"] == "resolved")
    assert sorted(rep["resolved_ids"]) == mine, (model, rep["resolved_ids"], mine)
    assert doc["harness"][model]["resolved_ids"] == rep["resolved_ids"]
PY
/usr/bin/python3 - "$WORK" "$n" <<'PY' || fail "the shards' verdicts are not the merged report's"
import csv, sys
w, n = sys.argv[1], int(sys.argv[2])
def rows(p):
    return {(r["instance_id"], r["model_name_or_path"]): (r["verdict"], r["reason"], r["resolved"])
            for r in csv.DictReader(open(p))}
parts = [rows(f"{w}/s{i}.csv") for i in range(2)]
assert not set(parts[0]) & set(parts[1]), "a candidate in two shards"
assert abs(len(parts[0]) - len(parts[1])) <= 1, [len(p) for p in parts]
whole = rows(f"{w}/m.csv")
assert len(whole) == n, (len(whole), n)
assert {**parts[0], **parts[1]} == whole, [k for k in whole if parts[0].get(k, parts[1].get(k)) != whole[k]]
PY
rm -f "$WORK/runlog"
LITMUS_RUN_LOG=$WORK/runlog run_litmus "${args[@]}" --db "$WORK/s0.db" --shard 0/2
[ ! -s "$WORK/runlog" ] || fail "a complete shard ran again: $(head -3 "$WORK/runlog")"
run_litmus "${args[@]}" --db "$WORK/s0.db" --shard 1/2
expect_eq "$RC" 2 "another shard on a shard's store"
grep -q "holds patches shard 0/2" "$WORK/err" || fail "refusal: $(cat "$WORK/err")"
