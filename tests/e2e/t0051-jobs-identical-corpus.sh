# Verdicts are identical at --jobs 1 and --jobs 2 on the whole corpus
# (the sanitizer build runs the smaller t0050 only: this one takes minutes).
. "$(dirname "$0")/lib.sh"
[ "${LT_SANITIZED:-0}" = 1 ] && { echo "covered by t0050 under sanitizers"; exit 0; }
differ=""
for dir in "$CORPUS"/*/; do
  p=$(basename "$dir")
  [ "$p" = patches ] && continue
  [ "$p" = projects ] && continue
  args=("$dir" --tests "$dir")
  [ "$p" = quix_gcd ] && args=("$dir/correct_programs/gcd.py" --tests "$dir/test_gcd.py" -- --correct)
  # Both side by side: each run is under the other's load, which the
  # verdicts must not feel either.
  for j in 1 2; do
    (cd "$dir" && "$LITMUS" score --db "$WORK/$p-$j.db" --no-progress -j $j "${args[@]}" >/dev/null 2>"$WORK/$p-$j.err"; echo $? >"$WORK/$p-$j.rc") &
  done
  wait
  for j in 1 2; do
    [ "$(cat "$WORK/$p-$j.rc")" = 0 ] || fail "$p -j $j: $(cat "$WORK/$p-$j.err")"
  done
  a=$(q "$WORK/$p-1.db" "SELECT mutant_id || ' ' || verdict FROM results ORDER BY 1")
  b=$(q "$WORK/$p-2.db" "SELECT mutant_id || ' ' || verdict FROM results ORDER BY 1")
  [ -n "$a" ] || fail "$p: no results"
  [ "$a" = "$b" ] || differ="$differ $p:$(diff <(echo "$a") <(echo "$b") | grep '^[<>]' | head -4 | tr '\n' ' ')"
done
[ -z "$differ" ] || fail "verdicts differ between -j 1 and -j 2:$differ"
exit 0
