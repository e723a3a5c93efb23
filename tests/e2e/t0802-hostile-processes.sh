# Process mode under attack: tests that start processes (so the baseline
# gives their mutants process mode) and, from those processes, try a fork
# bomb, a daemon that outlives its parent, writes outside scratch, a
# secret outside the view, a non-loopback address, kill(-1, SIGKILL), and
# the caller's secret environment.  Each test asserts the attempt failed,
# so a leak is a failing baseline test; the host is compared before and
# after; a control run under plain pytest shows the dangers are real.
. "$(dirname "$0")/lib.sh"
proj=$WORK/proj
mkdir -p "$proj" "$WORK/outside"
secret=$WORK/outside/secret.txt
echo "the host's secret" > "$secret"
chmod 644 "$secret"
marker=litmus-daemon-$$-$RANDOM
cat > "$proj/shapes.py" <<'PY'
import os
import signal


def area(w, h):
    if False:  # HOSTILE: kill(-1, SIGKILL) from a process the tests start
        os.kill(-1, signal.SIGKILL)
    return w * h
PY
cat > "$proj/test_hostile_procs.py" <<PY
import os
import subprocess
import sys

from shapes import area

HERE = os.path.dirname(os.path.abspath(__file__))


def py(code, timeout=60, **kw):
    return subprocess.run([sys.executable, "-c", code], capture_output=True,
                          text=True, timeout=timeout, **kw)


def test_area_through_a_process():
    done = py("from shapes import area; print(area(2, 3))")
    assert done.stdout.strip() == "6", done.stderr
    assert area(2, 3) == 6


def test_fork_bomb_meets_the_cap():
    done = py('''
import os, sys
n = 0
try:
    while n < 100000:
        if os.fork() == 0:
            os.closerange(0, 3)
            import signal, time
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            time.sleep(30); os._exit(0)
        n += 1
except OSError as e:
    print("refused", n, e.errno, flush=True)
# Reap the bomb, so that the next tests of this child have processes left.
import signal
signal.signal(signal.SIGTERM, signal.SIG_IGN)
os.killpg(0, signal.SIGTERM)
while True:
    try:
        os.wait()
    except ChildProcessError:
        break
''', start_new_session=True)  # its killpg reaches only the bomb
    out = done.stdout.split()
    assert out and out[0] == "refused" and int(out[1]) < 1000, done


def test_daemon_is_started():
    # Double fork: the grandchild outlives its parent; it must not outlive
    # the run.
    done = py('''
import os, time
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.closerange(0, 3)
        time.sleep(300)  # $marker
        os._exit(0)
    os._exit(0)
print("started")
''')
    assert done.stdout.strip() == "started", done


def test_write_outside_scratch_fails():
    target = os.path.join(HERE, "shapes.py")
    done = subprocess.run(["sh", "-c", "echo '# changed' >> " + target],
                          capture_output=True, text=True, timeout=30)
    assert done.returncode != 0


def test_secret_outside_the_view_is_absent():
    done = subprocess.run(["cat", "$secret"], capture_output=True, text=True,
                          timeout=30)
    assert done.returncode != 0 and "secret" not in done.stdout


def test_no_route_beyond_loopback():
    done = py('''
import socket
s = socket.socket()
s.settimeout(3)
try:
    s.connect(("192.0.2.1", 80))
    print("connected")
except OSError as e:
    print("refused", e.errno)
''')
    assert done.stdout.startswith("refused"), done


def test_environment_secret_is_absent():
    done = subprocess.run(["sh", "-c", "echo \$LITMUS_TEST_SECRET; env"],
                          capture_output=True, text=True, timeout=30)
    assert "hunter2" not in done.stdout
    for path in ("/proc/self/environ", "/proc/1/environ"):
        try:
            with open(path, "rb") as f:
                assert b"hunter2" not in f.read()
        except OSError:
            pass
PY
snapshot() { (cd "$proj" && find . -path ./__pycache__ -prune -o -path ./.pytest_cache -prune -o -printf '%p %m %T@ %s\n' | sort
   sha256sum shapes.py test_hostile_procs.py); stat -c '%a %Y %s' "$secret"; }
before=$(snapshot)
cd "$proj"
export LITMUS_TEST_SECRET=hunter2
# A sentinel of the sandbox's uid outside it: kill(-1) in a child must not
# reach it (as a plain kill(-1) by that uid would: the control below).  A
# uid of this test's own, so that the control reaches nothing of other
# tests running beside it.
sentinel=""
uidargs=()
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
  suid=$((61000 + $$ % 500))
  uidargs=(--sandbox-uid "$suid")
  setpriv --reuid "$suid" --regid "$suid" --clear-groups sleep 300 &
  sentinel=$!
fi
# litmus runs under a child subreaper: whatever it leaves behind comes back
# to the wrapper, which lists it (other tests beside this one cannot
# blur the count, as a look at the host's defunct processes would).
cat > "$WORK/subreaper.py" <<'PY'
import ctypes, os, subprocess, sys, time
ctypes.CDLL(None).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
out, err = open(sys.argv[1], "w"), open(sys.argv[2], "w")
rc = subprocess.run(sys.argv[3:], stdout=out, stderr=err).returncode
time.sleep(0.5)
left = []
for pid in filter(str.isdigit, os.listdir("/proc")):
    try:
        stat = open("/proc/%s/stat" % pid).read()
    except OSError:
        continue
    fields = stat[stat.rindex(")") + 2:].split()
    if int(fields[1]) == os.getpid():
        left.append("%s %s %s" % (pid, fields[0], stat[:stat.rindex(")") + 1]))
open(sys.argv[1] + ".left", "w").write("\n".join(left))
sys.exit(rc)
PY
/usr/bin/python3 "$WORK/subreaper.py" "$WORK/out" "$WORK/err" \
  "$LITMUS" score shapes.py --tests test_hostile_procs.py --db "$WORK/h.db" --no-progress "${uidargs[@]}"
RC=$?
expect_eq "$RC" 0 "hostile suite: exit code ($(tail -5 "$WORK/err"))"
expect_eq "$(q "$WORK/h.db" "SELECT count(*) FROM tests WHERE outcome != 'passed'")" 0 "every hostile test passed (each attempt failed)"
expect_eq "$(verdict_at "$WORK/h.db" shapes.py 8)" killed "the honest mutant"
# The False -> True mutant sends kill(-1, SIGKILL) from the process the
# test starts: it ends the child's own tree, and nothing else (the
# sentinel, a process of the sandbox's uid outside it, lives on).
expect_one_of "$(verdict_at "$WORK/h.db" shapes.py 6 keyword True)" killed crashed
if [ -n "$sentinel" ]; then
  kill -0 "$sentinel" 2>/dev/null || fail "kill(-1) reached a process outside the sandbox"
fi
sleep 0.5
after=$(snapshot)
[ "$before" = "$after" ] || fail "the host changed: $(diff <(echo "$before") <(echo "$after"))"
left=$(ps -eo pid=,stat=,args= | grep -F "$marker" | grep -v grep || true)
[ -z "$left" ] || fail "the daemon outlived the run: $left"
[ -s "$WORK/out.left" ] && fail "processes left behind by litmus: $(cat "$WORK/out.left")"
no_leftovers
# Control: under plain pytest the same tests meet the dangers (the secret
# is readable, the environment leaks), so the assertions above can fail.
/usr/bin/python3 -m pytest -q -p no:cacheprovider test_hostile_procs.py \
  -k "secret" >"$WORK/control" 2>&1 && fail "control: plain pytest saw no danger"
grep -q "test_secret_outside_the_view_is_absent" "$WORK/control" || fail "control: the secret was not readable?"
grep -q "test_environment_secret_is_absent" "$WORK/control" || fail "control: the environment did not leak?"
if [ -n "$sentinel" ]; then
  # Control: the same kill(-1) by that uid outside the sandbox reaches
  # the sentinel.
  setpriv --reuid "$suid" --regid "$suid" --clear-groups /usr/bin/python3 -c \
    'import os, signal; os.kill(-1, signal.SIGKILL)' 2>/dev/null
  sleep 0.2
  kill -0 "$sentinel" 2>/dev/null && fail "control: kill(-1) as uid $suid did not reach the sentinel"
  wait "$sentinel" 2>/dev/null
fi
pkill -f "$marker" 2>/dev/null || true
exit 0
