# Where namespaces are forbidden (unshare refused by a seccomp filter, as
# a container policy would), the run goes on with the rest of the sandbox
# and says exactly what is missing, once; the degradation is stored.
. "$(dirname "$0")/lib.sh"
prog=$CORPUS/merge_sort
/usr/bin/python3 "$REPO/tests/e2e/no_unshare.py" "$LITMUS" score "$prog" --tests "$prog" \
  --db "$WORK/d.db" --no-progress >"$WORK/out" 2>"$WORK/err"
RC=$?
expect_eq "$RC" 0 "degraded run: exit code ($(cat "$WORK/err"))"
expect_eq "$(grep -c 'sandbox degraded' "$WORK/err")" 1 "one warning"
grep -q 'fs_view (unshare(CLONE_NEWNS): Operation not permitted; the tests see the whole host file system)' "$WORK/err" ||
  fail "fs_view reason missing: $(cat "$WORK/err")"
grep -q 'identity (no file-system view)' "$WORK/err" || fail "identity reason missing: $(cat "$WORK/err")"
grep -q 'mutation score:' "$WORK/out" || fail "no score"
stored=$(q "$WORK/d.db" "SELECT value FROM meta WHERE key = 'sandbox_view'")
case $stored in *"fs_view (unshare"*) ;; *) fail "degradation not stored: $stored" ;; esac
# The verdicts are those of the full sandbox.
"$LITMUS" score "$prog" --tests "$prog" --db "$WORK/f.db" --no-progress >/dev/null 2>&1 ||
  fail "full run failed"
a=$(q "$WORK/d.db" "SELECT mutant_id || verdict FROM results ORDER BY 1")
b=$(q "$WORK/f.db" "SELECT mutant_id || verdict FROM results ORDER BY 1")
[ "$a" = "$b" ] || fail "verdicts differ without the view"
exit 0
