# --telemetry: the hostile mutant's refused socket, clone and kill calls
# appear with their counts in `litmus show`, and `litmus report` sums them
# per operator; the mutant that makes none of them shows no socket call.
. "$(dirname "$0")/lib.sh"
cp -r "$FIXTURES/hostile_calls" "$WORK/hostile_calls"
cd "$WORK/hostile_calls"
score_dir "$WORK/hostile_calls" --telemetry
expect_eq "$RC" 0 "exit code"
if grep -q -- "--telemetry: off" "$WORK/err"; then
  skip "$(grep -- '--telemetry: off' "$WORK/err")"
fi
id=$(q "$DB" "SELECT id FROM mutants WHERE line = 13 AND replacement = 'True'")
[ -n "$id" ] || fail "no False -> True mutant on line 13"
run_litmus show "$id" --db "$DB"
expect_eq "$RC" 0 "show exit code"
line=$(grep '^telemetry: ' "$WORK/out") || fail "no telemetry line in: $(cat "$WORK/out")"
for call in socket kill; do
  echo "$line" | grep -Eq "[:,] $call x1(,|;)" || fail "no '$call x1' in: $line"
done
# os.fork() is one clone; whatever else the child clones is counted too.
echo "$line" | grep -Eq "[:,] clone x[1-9][0-9]*(,|;)" || fail "no clone in: $line"
# The most frequent calls are named with their counts.
echo "$line" | grep -Eq "; syscalls: [1-9][0-9]* \([a-z_0-9]+ x[1-9][0-9]*(, [a-z_0-9]+ x[1-9][0-9]*)*\)" ||
  fail "no calls by name in: $line"
# Page faults from the child's rusage: a Python child always has some.
echo "$line" | grep -Eq "; page faults: [1-9][0-9]* minor, [0-9]+ major$" ||
  fail "no page faults in: $line"
# A mutant that never reaches the guard tried no socket.
other=$(q "$DB" "SELECT m.id FROM mutants m JOIN telemetry t ON t.mutant_id = m.id WHERE m.line = 27 LIMIT 1")
[ -n "$other" ] || fail "no telemetry stored for the mutants of line 27"
run_litmus show "$other" --db "$DB"
grep -q '^telemetry: ' "$WORK/out" || fail "no telemetry line for $other"
if grep '^telemetry: ' "$WORK/out" | grep -q socket; then
  fail "socket refused for a mutant that opens none: $(grep '^telemetry: ' "$WORK/out")"
fi
run_litmus report --db "$DB"
grep -Eq "^  keyword +socket +x1 in 1 mutant$" "$WORK/out" ||
  fail "report does not sum the refused socket call: $(cat "$WORK/out")"
no_leftovers
exit 0
