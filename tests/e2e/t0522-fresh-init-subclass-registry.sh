# __init_subclass__ runs only while the module is imported: its lines are
# covered by every test (import-time coverage) and its mutants run on a
# fresh import, so the registry they build is the mutant's.
. "$(dirname "$0")/lib.sh"
score_against_pytest fresh_registry
expect_eq "$(verdict_at "$DB" plugins.py 9 and_or)" killed "name or -> name and"
expect_eq "$(verdict_at "$DB" plugins.py 10 assignment)" killed "registry entry"
no_leftovers
exit 0
