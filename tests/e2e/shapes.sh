# Helpers for the project-shape tests (t04xx): each copies a project of
# bench/corpus/projects to $WORK, runs `litmus score` there as its
# README says, and checks the run with shape_check.  Source after lib.sh.

PROJECTS=$CORPUS/projects
SHAPE_HELPER=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/pytest_outcomes.py
SRC_NOTE='src/ put first on the import path'

# shape_copy NAME: copies the project to $WORK/NAME and sets P to it.
shape_copy() {
  [ -d "$PROJECTS/$1" ] || fail "no project $1"
  cp -r "$PROJECTS/$1" "$WORK/$1"
  P=$WORK/$1
}

# Every file and directory of the project with type, size and mtime,
# except litmus's own database (and its lock).
shape_listing() {
  (cd "$P" && find . -mindepth 1 ! -name '.litmus.db*' \
      -printf '%y %P %s %T@\n' | LC_ALL=C sort)
}

# shape_score ARGS...: runs `litmus ARGS` in the project directory with
# the caller's environment, with listings of the project before and
# after; sets RC, and $WORK/out, $WORK/err.
shape_score() {
  rm -f "$P"/.litmus.db*
  shape_listing >"$WORK/before"
  (cd "$P" && "$LITMUS" "$@") >"$WORK/out" 2>"$WORK/err"
  RC=$?
  shape_listing >"$WORK/after"
}

# shape_check NOTE PYTHON [PYTEST_ARGS...]: the checks every shape test
# makes on the last shape_score.  NOTE is "note" when litmus must say it
# put src/ on the path, "no-note" when it must not; PYTHON and the
# arguments are those of the `python -m pytest` the outcomes are
# compared with (run in the project directory, same environment).
shape_check() {
  local note=$1 python=$2; shift 2
  local db=$P/.litmus.db
  [ "$RC" = 0 ] || fail "litmus exited $RC: $(tail -n 5 "$WORK/err")"
  [ -f "$db" ] || fail "no database at $db"
  local tests results killed
  tests=$(q "$db" "SELECT count(*) FROM tests")
  results=$(q "$db" "SELECT count(*) FROM results")
  killed=$(q "$db" "SELECT count(*) FROM results WHERE verdict = 'killed'")
  [ "$tests" -gt 0 ] || fail "no tests stored"
  [ "$results" -gt 0 ] || fail "no results stored"
  [ "$killed" -gt 0 ] || fail "no mutant killed ($results results)"
  diff "$WORK/before" "$WORK/after" >"$WORK/listing.diff" ||
    fail "litmus wrote into the project: $(head -n 10 "$WORK/listing.diff")"
  case $note in
    note) grep -qF "$SRC_NOTE" "$WORK/err" ||
            fail "no src/ note: $(cat "$WORK/err")" ;;
    no-note) ! grep -qF "$SRC_NOTE" "$WORK/err" ||
            fail "unexpected src/ note: $(grep -F "$SRC_NOTE" "$WORK/err")" ;;
    *) fail "shape_check: NOTE must be note or no-note, not '$note'" ;;
  esac
  (cd "$P" && /usr/bin/python3 "$SHAPE_HELPER" "$db" "$python" "$@") \
    >"$WORK/compare" 2>&1 || fail "$(cat "$WORK/compare")"
  echo "$tests tests, $results results, $killed killed; $(cat "$WORK/compare")"
}
