# A tool tested only through its command line: subprocess.run with
# sys.executable -m, stdin, a file argument and a shell pipeline.  The
# tests pass in the sandbox (process mode), every process they start runs
# the mutant, and each verdict equals plain pytest on a mutated copy.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/shapes.sh"
shape_copy cli_subprocess
shape_score score wordtool --tests tests --no-progress
shape_check no-note /usr/bin/python3 tests
# The code runs only in the subprocesses: kills prove they saw the mutant.
n=$(q "$P/.litmus.db" "SELECT count(*) FROM results r JOIN mutants m
      ON m.id = r.mutant_id WHERE m.file LIKE '%core.py'
      AND r.verdict = 'killed'")
[ "$n" -ge 8 ] || fail "only $n mutants of core.py killed through the CLI"
ORACLE_EVERY=4 /usr/bin/python3 "$REPO/tests/e2e/lib_oracle.py" \
  "$P/.litmus.db" "$P" >"$WORK/oracle" 2>&1 ||
  fail "verdicts differ from plain pytest: $(cat "$WORK/oracle")"
cat "$WORK/oracle"
exit 0
