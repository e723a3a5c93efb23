# Issue 12: litmus's verdicts on every mutant outside function bodies and
# every no_coverage mutant agree with plain pytest on a copy of the
# project (tests/groundtruth.py).  Programs: the eight written for the
# issue's mechanisms plus a subset of the older corpus with module-level
# and class-body code (the whole corpus takes too long on 2 cores; that
# subset only with LT_E2E_FULL=1).  The first (all with LT_E2E_FULL=1)
# is scored at -j 1 and -j 2 side by side, which must agree (the rest of
# the corpus is compared in t0051);
# the -j 2 run of each is checked.
# Run alone: LITMUS=build/litmus bash tests/e2e/t0549-groundtruth-corpus.sh
. "$(dirname "$0")/lib.sh"
GT=$REPO/tests/groundtruth.py
report=""
bad=""
k=0
# A pytest run on a copy a mutant: twelve of each program's, drawn with a
# fixed seed (every one with LT_E2E_FULL=1).
SAMPLE=,sample:12
[ "${LT_E2E_FULL:-0}" = 1 ] && SAMPLE=
for p in $GROUNDTRUTH_PROGRAMS; do
  [ -d "$CORPUS/$p" ] || fail "no corpus program $p"
  k=$((k + 1))
  # The eight programs of the issue; the older ones with LT_E2E_FULL=1.
  if [ "${LT_E2E_FULL:-0}" != 1 ] && [ "$k" -gt 8 ]; then
    continue
  fi
  if [ "${LT_E2E_FULL:-0}" = 1 ] || [ "$k" = 1 ]; then
    jobs_pair "$p"
  else
    corpus_score_args "$p"
    (cd "$CORPUS/$p" && "$LITMUS" score --db "$WORK/$p-2.db" --no-progress -j 2 "${ARGS[@]}" >/dev/null 2>"$WORK/$p-2.err") ||
      fail "$p -j 2: $(cat "$WORK/$p-2.err")"
  fi
  # The corpus suites need no installed pytest plugin: the oracle's runs
  # load none (PYTEST_DISABLE_PLUGIN_AUTOLOAD), which halves their start-up;
  # --fork: each run a fork of the oracle, which imported pytest once (a
  # third of the CPU time again; t0548 checks the plain command's runs).
  PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 /usr/bin/python3 "$GT" --db "$WORK/$p-2.db" --select "outside-functions,no-coverage$SAMPLE" --jobs 2 --fork >"$WORK/$p.gt" 2>"$WORK/$p.gterr"
  rc=$?
  case $rc in
    0) ;;
    1) bad="$bad $p" ;;
    *) fail "groundtruth on $p exited $rc: $(cat "$WORK/$p.gterr")" ;;
  esac
  report="$report$p: $(tail -n 1 "$WORK/$p.gt")"$'\n'
  [ $rc = 1 ] && report="$report$(sed 's/^/  /' "$WORK/$p.gt")"$'\n'
done
printf '%s' "$report"
[ -z "$bad" ] || fail "litmus disagrees with plain pytest on:$bad"
exit 0
