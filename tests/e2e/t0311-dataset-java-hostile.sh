# Hostile Java programs in `litmus dataset` get what hostile Python ones
# get: no network (a listener here sees no connection), no writes outside
# the scratch, no processes (a `sleep 31.337` would show), and endless
# loops, unbounded allocation and System.exit end in a limit or a crash
# of that run alone; the run finishes and the other programs get their
# records.
. "$(dirname "$0")/lib.sh"
command -v javac >/dev/null || skip "no javac (openjdk-17-jdk-headless)"
PORT_FILE=$WORK/port
/usr/bin/python3 - "$PORT_FILE" "$WORK/connections" <<'PY' &
import socket, sys, time
s = socket.socket()
s.bind(("127.0.0.1", 0)); s.listen(8); s.settimeout(0.5)
open(sys.argv[1], "w").write(str(s.getsockname()[1]))
end = time.time() + 240
while time.time() < end:
    try:
        c, _ = s.accept()
        open(sys.argv[2], "a").write("connection\n")
        c.close()
    except socket.timeout:
        pass
PY
listener=$!
trap 'kill $listener 2>/dev/null' EXIT
for _ in $(seq 1 50); do [ -s "$PORT_FILE" ] && break; sleep 0.1; done
PORT=$(cat "$PORT_FILE")
mkdir -p "$WORK/p/h"
cat > "$WORK/p/h/Hostile.java" <<JAVA
package h;

public class Hostile {
    public static int f(int x) {
        int s = 0;
        for (int i = 0; i < x; i++) {
            s += i * 2;
        }
        return s;
    }

    public static String net() {
        try (java.net.Socket s = new java.net.Socket("127.0.0.1", $PORT)) {
            return "connected";
        } catch (Exception e) {
            return "blocked";
        }
    }

    public static String write() {
        try {
            java.nio.file.Files.writeString(java.nio.file.Path.of("$WORK/escaped"), "x");
            return "written";
        } catch (Exception e) {
            return "blocked";
        }
    }

    public static String spawn() {
        try {
            new ProcessBuilder("sleep", "31.337").start();
            return "spawned";
        } catch (Exception e) {
            return "blocked";
        }
    }

    public static int loop() {
        long n = 0;
        while (n >= 0) {
            n++;
        }
        return (int) n;
    }

    public static int alloc() {
        java.util.List<long[]> hog = new java.util.ArrayList<>();
        while (true) {
            hog.add(new long[1 << 20]);
        }
    }

    public static int exit() {
        System.exit(7);
        return 0;
    }
}
JAVA
P=$WORK/p/h/Hostile.java
{
  echo "{\"id\": \"net\", \"path\": \"$P\", \"inputs\": [\"Hostile.net()\", \"Hostile.f(5)\"]}"
  echo "{\"id\": \"write\", \"path\": \"$P\", \"inputs\": [\"Hostile.write()\", \"Hostile.f(5)\"]}"
  echo "{\"id\": \"spawn\", \"path\": \"$P\", \"inputs\": [\"Hostile.spawn()\", \"Hostile.f(5)\"]}"
  echo "{\"id\": \"loop\", \"path\": \"$P\", \"inputs\": [\"Hostile.loop()\", \"Hostile.f(5)\"]}"
  echo "{\"id\": \"alloc\", \"path\": \"$P\", \"inputs\": [\"Hostile.alloc()\", \"Hostile.f(5)\"]}"
  echo "{\"id\": \"exit\", \"path\": \"$P\", \"inputs\": [\"Hostile.exit()\"]}"
  echo "{\"id\": \"plain\", \"path\": \"$P\", \"inputs\": [\"Hostile.f(4)\", \"Hostile.f(9)\"]}"
} > "$WORK/h.jsonl"
start=$(date +%s)
run_litmus dataset faults "$WORK/h.jsonl" --timeout 2 -j 2 \
  --memory-mb 512 \
  --no-progress --no-db --summary "$WORK/sum.json" -o "$WORK/out.jsonl"
expect_eq "$RC" 0 "exit code ($(tail -n 5 "$WORK/err"))"
[ $(( $(date +%s) - start )) -lt 90 ] || fail "the run took $(( $(date +%s) - start )) s"
[ ! -e "$WORK/connections" ] || fail "a Java program reached the network"
[ ! -e "$WORK/escaped" ] || fail "a Java program wrote outside its scratch"
if pgrep -f "sleep 31.337" >/dev/null; then pkill -f "sleep 31.337"; fail "a Java program started a process"; fi
# The side-effect programs ran and got faults (their probes answer
# "blocked" the same way on every run).
for id in net write spawn plain; do
  grep -q "\"original_id\": \"$id\"" "$WORK/out.jsonl" || fail "no faults of $id: $(cat "$WORK/err")"
done
# exit() ends its reference run (a crash): no records, and a warning.
# The loop's input runs into its limit on the original and is not run
# again: its faults are shown on the other input.  The allocation ends in
# an OutOfMemoryError, as a Python one ends in a MemoryError: an output
# like any other, and the worker that ran it is started again.
if grep -q '"original_id": "exit"' "$WORK/out.jsonl"; then fail "faults of exit"; fi
grep -q "id exit: the program fails to run" "$WORK/err" || fail "exit: $(cat "$WORK/err")"
/usr/bin/python3 - "$WORK/out.jsonl" <<'PY' || fail "loop, alloc: $(grep 'loop\|alloc' "$WORK/out.jsonl" | head -c 900)"
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    w = r["witness"]
    if r["original_id"] == "loop":
        assert w["input"] == "Hostile.f(5)", w
    if r["original_id"] == "alloc" and w["input"] == "Hostile.alloc()":
        assert w["original"]["exception"] == "java.lang.OutOfMemoryError", w
PY
no_leftovers
exit 0
