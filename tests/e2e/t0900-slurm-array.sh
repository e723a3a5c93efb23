# A real single-node Slurm (Debian's slurmctld, slurmd and munge, started
# here on loopback ports with a private munge socket and key) runs a corpus
# program as an array job of 4 shards and the merge after them; the merged
# report equals a local run's apart from timings.  Submitting again runs
# only the shards whose store is not complete.  Packages come from
# scripts/install-deps.sh: this test installs nothing.
# The daemons listen on every address of their network namespace (Slurm
# 22.05 has no bind-address setting), so the test runs in a namespace of
# its own whose only interface is loopback: nothing is reachable from, or
# sent to, the network.
if [ -z "${LT_SLURM_NETNS:-}" ] && [ "$(id -u)" = 0 ] && command -v unshare >/dev/null 2>&1 &&
   unshare --net --pid --fork --mount-proc -- true 2>/dev/null; then
  LT_SLURM_NETNS=1 exec unshare --net --pid --fork --mount-proc -- bash "$0" "$@"
fi
. "$(dirname "$0")/lib.sh"
[ "${LT_SANITIZED:-0}" = 1 ] && { echo "the scheduler flow does not change under sanitizers"; exit 0; }
for p in munged mungekey slurmctld slurmd sbatch sinfo scontrol; do
  PATH=$PATH:/usr/sbin:/sbin command -v "$p" >/dev/null 2>&1 ||
    skip "$p not installed (scripts/install-deps.sh installs slurmctld, slurmd, slurm-client, munge)"
done
PATH=$PATH:/usr/sbin:/sbin
[ "$(id -u)" = 0 ] || skip "the daemons run as root here (SlurmUser=root); run as root"
[ "${LT_SLURM_NETNS:-}" = 1 ] || skip "cannot make a private network namespace (unshare --net) to keep Slurm on loopback"
ip link set lo up || fail "cannot bring up loopback in the test's namespace"
# Slurm binds with getaddrinfo(AI_ADDRCONFIG), which finds no address to
# bind while 127.0.0.1 is the only one: a second loopback address (still
# on lo, still unreachable from outside) satisfies it.
ip addr add 127.0.0.2/8 dev lo 2>/dev/null || true

T=$WORK/slurm
mkdir -p "$T/state" "$T/spool" "$T/run"
chmod 700 "$T"
PIDS=()
stop_daemons() {
  local p
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
  for p in "${PIDS[@]}"; do
    for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$p" 2>/dev/null
  done
  rm -rf "$WORK"
}
trap stop_daemons EXIT
dump_logs() {
  for f in "$T"/slurmctld.log "$T"/slurmd.log "$T"/munged.log "$T"/run/*.out; do
    [ -f "$f" ] && { echo "== $f"; tail -n 15 "$f"; }
  done
}

# munge: a key of our own, the daemon on a socket of our own.
mungekey --create --keyfile="$T/munge.key" >/dev/null 2>&1 || fail "mungekey failed"
chmod 600 "$T/munge.key"
munged -F --force --socket="$T/munge.sock" --key-file="$T/munge.key" \
  --log-file="$T/munged.log" --pid-file="$T/munged.pid" \
  --seed-file="$T/munged.seed" >"$T/munged.out" 2>&1 &
PIDS+=($!)
for _ in $(seq 50); do [ -S "$T/munge.sock" ] && break; sleep 0.1; done
[ -S "$T/munge.sock" ] || fail "munged did not start: $(cat "$T/munged.out" "$T/munged.log" 2>/dev/null)"

# Two free loopback ports for slurmctld and slurmd.
read -r CTLD_PORT SLURMD_PORT < <(/usr/bin/python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
cpus=$(nproc); [ "$cpus" -gt 2 ] && cpus=2
export SLURM_CONF=$T/slurm.conf
cat >"$SLURM_CONF" <<EOF
ClusterName=litmus-e2e
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$T/munge.sock
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
SchedulerParameters=sched_interval=1,bf_interval=1
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
SlurmdTimeout=30
InactiveLimit=0
MinJobAge=300
NodeName=localhost NodeAddr=127.0.0.1 NodeHostname=localhost CPUs=$cpus State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -D -c -i -f "$SLURM_CONF" >"$T/slurmctld.out" 2>&1 &
PIDS+=($!)
slurmd -D -N localhost -f "$SLURM_CONF" >"$T/slurmd.out" 2>&1 &
PIDS+=($!)
state=""
for _ in $(seq 60); do
  kill -0 "${PIDS[1]}" 2>/dev/null || break
  state=$(timeout 5 sinfo -h -N -o %T 2>/dev/null | head -n 1)
  [ "$state" = idle ] && break
  sleep 0.5
done
[ "$state" = idle ] || { dump_logs >&2; fail "the node did not become idle (state '$state')"; }
ifaces=$(ip -o link show | awk -F': ' '{print $2}' | tr '\n' ' ')
expect_eq "$ifaces" "lo " "network interfaces in the test's namespace"

P=$CORPUS/knapsack
cd "$P" || fail "no corpus program $P"
"$LITMUS" score . --tests . --no-progress -j 2 --db "$WORK/local.db" >/dev/null 2>"$WORK/err" ||
  fail "local run: $(cat "$WORK/err")"

# Waits for $T/run/report.txt (written by the merge job, renamed into
# place when whole); fails early when the merge job failed.
wait_report() { # merge-job-id
  local st=""
  for _ in $(seq 450); do
    [ -f "$T/run/report.txt" ] && return 0
    st=$(timeout 5 scontrol show job "$1" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | head -n 1)
    case $st in
      *FAILED*|*CANCELLED*|*TIMEOUT*|*DEPENDENCY_NEVER*) dump_logs >&2; fail "merge job $1: $st" ;;
    esac
    sleep 0.2
  done
  dump_logs >&2
  fail "no report after 90 s (merge job $1: $st; queue: $(squeue -h 2>&1 | head -5))"
}
merge_id() { sed -n 's/^submitted the merge as job \([0-9]*\).*/\1/p' "$WORK/out"; }

run_litmus slurm --shards 4 --dir "$T/run" --partition debug --time 10 --cpus-per-task 1 \
  --sbatch-arg=--comment=litmus-e2e score . --tests .
expect_eq "$RC" 0 "litmus slurm exit ($(cat "$WORK/err"))"
grep -q "^submitted shards 0,1,2,3 of 4 as array job [0-9]*$" "$WORK/out" || fail "first submission: $(cat "$WORK/out")"
grep -q "^#SBATCH --comment=litmus-e2e$" "$T/run/shards.sbatch" || fail "extra sbatch option missing"
grep -q "^#SBATCH --cpus-per-task=1$" "$T/run/shards.sbatch" || fail "cpus-per-task missing"
MERGE=$(merge_id)
[ -n "$MERGE" ] || fail "no merge job id in: $(cat "$WORK/out")"
wait_report "$MERGE"

for i in 0 1 2 3; do
  expect_eq "$(q "$T/run/shard-$i.db" "SELECT value FROM meta WHERE key = 'shard'")" "$i/4" "shard $i meta"
done
norm() { "$LITMUS" report --db "$1" --format json | sed 's/0x[0-9a-f]\{6,\}/0xADDR/g'; }
cmp_json() {
  norm "$WORK/local.db" >"$WORK/local.json"
  norm "$T/run/merged.db" >"$WORK/merged.json"
  /usr/bin/python3 - "$WORK/local.json" "$WORK/merged.json" <<'PY' || fail "merged report differs from the local run's"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for d in (a, b):
    for m in d["mutants"]:
        m.pop("duration_ms", None)
if len(a["mutants"]) < 30:
    sys.exit("too few mutants")
if a != b:
    for x, y in zip(a["mutants"], b["mutants"]):
        if x != y:
            sys.exit(f"first difference: {x} vs {y}")
    sys.exit(f"summaries differ: {a['summary']} vs {b['summary']}")
PY
}
cmp_json
grep -q "mutation score" "$T/run/report.txt" || fail "no score in report.txt: $(cat "$T/run/report.txt")"
for i in 0 1 2 3; do grep -q "^  shard $i/4 .*tasks/s" "$T/run/report.txt" || fail "no throughput of shard $i"; done

# Resubmission: a lost shard store is run again, and only that one.
rm -f "$T/run/shard-2.db"* "$T/run/merged.db"
run_litmus slurm --shards 4 --dir "$T/run" --partition debug --time 10 score . --tests .
expect_eq "$RC" 0 "second litmus slurm exit ($(cat "$WORK/err"))"
grep -q "^submitted shards 2 of 4 as array job [0-9]*$" "$WORK/out" || fail "second submission: $(cat "$WORK/out")"
MERGE=$(merge_id)
wait_report "$MERGE"
cmp_json
# Everything complete: only the merge is submitted.
run_litmus slurm --shards 4 --dir "$T/run" score . --tests .
grep -q "^every shard of 4 is complete$" "$WORK/out" || fail "third submission: $(cat "$WORK/out")"
wait_report "$(merge_id)"
# Bad input is refused before anything is submitted.
run_litmus slurm --shards 3 --dir "$T/run" score . --tests .
expect_eq "$RC" 2 "other shard count in the same dir"
grep -q "holds shard 0/4, not 0/3" "$WORK/err" || fail "message: $(cat "$WORK/err")"
run_litmus slurm --shards 2 --dir "$T/other" score . --tests . --db x.db
expect_eq "$RC" 2 "--db in score args"
exit 0
