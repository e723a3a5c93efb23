# Verdicts are identical at --jobs 1 and --jobs 2 on the whole corpus,
# the two runs side by side.  The programs of the ground-truth test are
# compared there (t0549), on the same pair of runs.
. "$(dirname "$0")/lib.sh"
for dir in "$CORPUS"/*/; do
  p=$(basename "$dir")
  # patch*: the patch-triage corpora (litmus patches, t02xx).
  case $p in patch*) continue ;; esac
  case " projects $GROUNDTRUTH_PROGRAMS " in *" $p "*) continue ;; esac
  jobs_pair "$p"
done
exit 0
