# A subject the tests import only inside a test: no pre-import server is
# forked, and the mutant's loader patch alone gives the fresh import.
# Then -j1 and -j2 give the same verdicts on the fresh fixtures.
. "$(dirname "$0")/lib.sh"
score_against_pytest fresh_lazy
expect_eq "$(verdict_at "$DB" lazy.py 4 string '"XXPointXX"')" killed "pickle by name"
for name in fresh_namedtuple fresh_subclass fresh_registry; do
  cp -r "$FIXTURES/$name" "$WORK/j-$name"
  for j in 1 2; do
    ( cd "$WORK/j-$name" && "$LITMUS" score . --tests . --db "$WORK/j$j-$name.db" \
        --no-progress --jobs $j >/dev/null 2>&1 )
    q "$WORK/j$j-$name.db" "SELECT m.id, r.verdict, coalesce(r.killed_by, '') FROM mutants m JOIN results r ON r.mutant_id = m.id ORDER BY m.id" > "$WORK/j$j-$name.txt"
  done
  [ -s "$WORK/j1-$name.txt" ] || fail "$name: no verdicts"
  cmp -s "$WORK/j1-$name.txt" "$WORK/j2-$name.txt" || fail "$name: -j1 and -j2 differ: $(diff "$WORK/j1-$name.txt" "$WORK/j2-$name.txt")"
done
no_leftovers
exit 0
