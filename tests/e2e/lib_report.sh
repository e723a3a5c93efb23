# Helpers of the report tests (t07xx): the npm files they validate and
# render with, Chromium, and one scored corpus program.  Source after
# lib.sh.

# Fetches the pinned npm packages beside the litmus binary (build/npm, as
# `litmus report --html` looks there) and sets NPM_DIR; skips (a failure
# with LT_TEST_MUST_WORK=1) when they cannot be had.
need_npm() {
  NPM_DIR=$(dirname "$LITMUS")/npm
  command -v node >/dev/null 2>&1 || skip "node is missing (scripts/install-deps.sh installs it)"
  if ! "$REPO/scripts/fetch-npm.sh" "$NPM_DIR" >"$WORK/fetch.log" 2>&1; then
    skip "cannot fetch the npm packages: $(tail -n 2 "$WORK/fetch.log" | tr '\n' ' ')"
  fi
  STRYKER_SCHEMA=$NPM_DIR/node_modules/mutation-testing-report-schema/dist/src/mutation-testing-report-schema.json
  SARIF_SCHEMA=$NPM_DIR/node_modules/@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json
  ELEMENTS_JS=$NPM_DIR/node_modules/mutation-testing-elements/dist/mutation-test-elements.js
  for f in "$STRYKER_SCHEMA" "$SARIF_SCHEMA" "$ELEMENTS_JS"; do
    [ -f "$f" ] || fail "fetch-npm.sh said ok but $f is missing"
  done
}

need_jsonschema() {
  /usr/bin/python3 -c 'import jsonschema' 2>/dev/null ||
    skip "python3-jsonschema is missing (scripts/install-deps.sh installs it)"
}

# Sets CHROMIUM to Debian's Chromium, or skips.
need_chromium() {
  CHROMIUM=""
  for c in /usr/bin/chromium /usr/bin/chromium-headless-shell \
           /usr/lib/chromium/chromium-headless-shell; do
    [ -x "$c" ] && { CHROMIUM=$c; break; }
  done
  [ -n "$CHROMIUM" ] || skip "Chromium is missing (scripts/install-deps.sh installs Debian's chromium)"
}

# Scores bench/corpus/merge_sort from the repository root (so paths in
# reports are repository-relative) into $DB; one survivor, 35:17.
# Without options, the suite run's one scored copy (lib.sh's shared: the
# report tests t0701-t0705 read the same run, each its own copy of it).
score_merge_sort() {
  DB=$WORK/merge_sort.db
  if [ $# -eq 0 ]; then
    shared merge_sort score_merge_sort_into
    cp "$SHARED/merge_sort.db" "$SHARED/score.out" "$SHARED/score.err" "$WORK/" ||
      fail "no shared merge_sort store in $SHARED"
    RC=$SHARED_RC
  else
    score_merge_sort_into "$WORK" "$@"
    RC=$?
  fi
  [ "$RC" = 0 ] || fail "score merge_sort: exit $RC: $(cat "$WORK/score.err")"
}
score_merge_sort_into() { # dir [score options]
  local dir=$1; shift
  (cd "$REPO" && "$LITMUS" score bench/corpus/merge_sort --tests bench/corpus/merge_sort \
     --db "$dir/merge_sort.db" --no-progress "$@" >"$dir/score.out" 2>"$dir/score.err")
}

# litmus report on $DB from the repository root; stdout in $WORK/out.
report() {
  (cd "$REPO" && "$LITMUS" report --db "$DB" "$@" >"$WORK/out" 2>"$WORK/err")
  RC=$?
}

# A stored run with every verdict: merge_sort's, then some results
# rewritten in the database to the verdicts the corpus does not produce.
every_verdict() {
  score_merge_sort
  local ids
  ids=$(q "$DB" "SELECT m.id FROM mutants m JOIN results r ON r.mutant_id = m.id WHERE r.verdict = 'killed' ORDER BY m.id LIMIT 6")
  set -- $ids
  q "$DB" "UPDATE results SET verdict = 'crashed', detail = 'signal 11 (SIGSEGV)' WHERE mutant_id = '$1'"
  q "$DB" "UPDATE results SET verdict = 'memory', detail = 'MemoryError' WHERE mutant_id = '$2'"
  q "$DB" "UPDATE results SET verdict = 'equivalent', killed_by = NULL, detail = NULL WHERE mutant_id = '$3'"
  q "$DB" "UPDATE results SET verdict = 'invalid', killed_by = NULL, detail = 'SyntaxError: invalid syntax' WHERE mutant_id = '$4'"
  q "$DB" "UPDATE results SET verdict = 'error', killed_by = NULL, detail = 'sandbox: seccomp refused' WHERE mutant_id = '$5'"
  q "$DB" "UPDATE results SET verdict = 'no_coverage', killed_by = NULL, detail = NULL WHERE mutant_id = '$6'"
}
