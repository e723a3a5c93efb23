# TCP and UDP to 127.0.0.1: not a pass, and no packet arrives.
. "$(dirname "$0")/lib.sh"
port=$(( 40000 + RANDOM % 20000 ))
export LITMUS_TEST_PORT=$port
got=$WORK/received
/usr/bin/python3 - "$port" "$got" <<'PY' &
import socket, sys, select, time
port, out = int(sys.argv[1]), sys.argv[2]
t = socket.socket(); t.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
t.bind(("127.0.0.1", port)); t.listen(5)
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); u.bind(("127.0.0.1", port))
open(out, "w").close()
end = time.time() + 60
while time.time() < end:
    r, _, _ = select.select([t, u], [], [], 0.2)
    for s in r:
        if s is t:
            c, _ = t.accept(); data = c.recv(100); c.close()
        else:
            data = u.recv(100)
        with open(out, "a") as f:
            f.write(repr(data) + "\n")
PY
listener=$!
trap 'kill $listener 2>/dev/null; rm -rf "$WORK"' EXIT
for _ in $(seq 50); do [ -e "$got" ] && break; sleep 0.1; done
score_dir "$FIXTURES/hostile_net"
expect_eq "$RC" 0 "exit code"
expect_one_of "$(hostile_verdict hostile_net.py 15)" killed crashed
expect_one_of "$(hostile_verdict hostile_net.py 22)" killed crashed
sleep 0.3
[ ! -s "$got" ] || fail "packets arrived: $(cat "$got")"
no_leftovers
exit 0
