# litmus patches on a command-line program whose tests run it as a
# subprocess (`python wc_tool.py` with stdin): the reference passes (its
# tests run in process mode, the candidate bound over the buggy file for
# the processes they start), the correct patch is judged correct (here:
# identical to the reference), and the one that fails a CLI test invalid.
. "$(dirname "$0")/lib.sh"
F=$FIXTURES/patch_cli
run_litmus patches --buggy "$F/wc_tool.py" --tests "$F/test_wc_tool.py" \
  --reference "$F/reference/wc_tool.py" --patches "$F/patches" \
  --db "$WORK/p.db" --format json --no-progress
expect_eq "$RC" 0 "exit code ($(tail -3 "$WORK/err"))"
/usr/bin/python3 - "$WORK/out" <<'PY' || fail "verdicts: $(cat "$WORK/out" | head -c 600)"
import json, sys
got = {p["run_id"]: p for p in json.load(open(sys.argv[1]))["patches"]}
assert got["correct"]["verdict"] == "memorized", got["correct"]
assert (got["partial"]["verdict"], got["partial"]["reason"]) == \
    ("invalid", "fails_tests"), got["partial"]
assert "test_newline" in got["partial"]["detail"], got["partial"]["detail"]
PY
exit 0
