# kill -9 of litmus patches at several points, then the same command
# again: the same verdicts and scores as an uninterrupted run, and no run
# whose result was stored is started again.
. "$(dirname "$0")/lib.sh"
P=$CORPUS/patches
grep -qs calls_main "$REPO/runners/shim.py" || [ -f "$REPO/runners/calls.py" ] ||
  skip "the runner side of litmus patches has not landed"
# Two programs of the corpus and their patches (gcd and kth), and their
# uninterrupted triage (lib.sh: made once a suite run, t0812 shards it).
patches_pair_whole
args=("${PAIR_ARGS[@]}")
[ "$PAIR_RC" = 1 ] || fail "uninterrupted run failed: $(tail -n 3 "$PAIR/err")"
cp "$PAIR/whole.db" "$WORK/ref.db" && cp "$PAIR/whole.csv" "$WORK/ref.csv" ||
  fail "no shared store and CSV of the uninterrupted run"
[ ! -e "$PAIR/whole.db-wal" ] || cp "$PAIR/whole.db-wal" "$WORK/ref.db-wal"
db=$WORK/resume.db
stored_count() {
  q "$1" "SELECT (SELECT count(*) FROM candidate_results) + (SELECT count(*) FROM candidate_mutants)" 2>/dev/null || echo 0
}
total=$(stored_count "$WORK/ref.db")
[ "${total:-0}" -gt 20 ] || fail "the uninterrupted run stored only ${total:-0} results"
# Kills paced by what the store holds, not by the clock (a loaded machine
# makes any delay wrong): each run is killed once it has added about a
# quarter of the work, until two fifths are stored. The final run always has
# work left, whatever the machine's speed.
step=$((total / 4)); goal=$((total * 2 / 5))
for attempt in 1 2 3 4 5 6; do
  before=$(stored_count "$db")
  "$LITMUS" "${args[@]}" --db "$db" >/dev/null 2>&1 &
  pid=$!
  for _ in $(seq 600); do
    n=$(stored_count "$db")
    [ "${n:-0}" -ge $((before + step)) ] && break
    kill -0 $pid 2>/dev/null || break
    sleep 0.05
  done
  kill -9 $pid 2>/dev/null
  wait $pid 2>/dev/null
  sleep 0.3   # zygotes die with litmus (PDEATHSIG)
  n=$(stored_count "$db")
  [ "${n:-0}" -ge $goal ] && break
done
no_leftovers
stored=$(q "$db" "SELECT 'r ' || program || ' ' || substr(text_sha, 1, 16) || ' ' || layer FROM candidate_results UNION ALL SELECT 'm ' || program || ' ' || substr(text_sha, 1, 16) || ' ' || mutant_id FROM candidate_mutants" 2>/dev/null)
[ -n "$stored" ] || fail "nothing stored before the kills"
echo "$stored" > "$WORK/stored"
export LITMUS_RUN_LOG=$WORK/runlog
run_litmus "${args[@]}" --db "$db" --csv "$WORK/got.csv"
expect_eq "$RC" 1 "final run"
/usr/bin/python3 - "$WORK/ref.csv" "$WORK/got.csv" <<'PY' || fail "results differ after resume"
import csv, sys
def load(p):
    return [r[:11] for r in csv.reader(open(p))]
a, b = load(sys.argv[1]), load(sys.argv[2])
assert len(a) == len(b) > 10, (len(a), len(b))
diff = [(x, y) for x, y in zip(a, b) if x != y]
assert not diff, diff[:3]
PY
touch "$WORK/runlog"
left=$(grep -vc zygote "$WORK/runlog" || true)
echo "stored before the final run: $(wc -l < "$WORK/stored"); runs started by it: $left"
[ "$left" -gt 0 ] || fail "the kills left nothing to resume"
/usr/bin/python3 - "$WORK/stored" "$WORK/runlog" <<'PY' || fail "stored work was run again"
import sys
stored = set(l.split(None, 1)[1].strip() for l in open(sys.argv[1]) if l.strip())
layer = {"ref": "ref", "l1": "l1", "held": "held", "diff": "diff"}
again = []
for line in open(sys.argv[2]):
    f = line.split()
    if len(f) < 3:
        continue   # "<unit> zygote"
    unit, kind, sha = f[:3]
    key = "%s %s %s" % (unit, sha, f[3] if kind == "mutant" else layer[kind])
    if key in stored:
        again.append(line.strip())
assert not again, again[:5]
PY
no_leftovers
exit 0
