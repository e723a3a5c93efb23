# Servers on loopback and processes: a socketserver on 127.0.0.1, IPv6
# ::1, a socketpair, an asyncio server, multiprocessing pools with fork
# and spawn.  They pass in the sandbox as under plain pytest, and the
# verdicts equal plain pytest on mutated copies.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/shapes.sh"
shape_copy localhost_server
shape_score score linecalc --tests tests --no-progress
shape_check no-note /usr/bin/python3 tests
ORACLE_EVERY=5 ORACLE_TIMEOUT=10 /usr/bin/python3 \
  "$REPO/tests/e2e/lib_oracle.py" "$P/.litmus.db" "$P" >"$WORK/oracle" 2>&1 ||
  fail "verdicts differ from plain pytest: $(cat "$WORK/oracle")"
cat "$WORK/oracle"
exit 0
