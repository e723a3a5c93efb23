# Helpers for the end-to-end tests: each test is a bash script that
# sources this file, runs the litmus CLI and checks what it stored.
# Exit 0 = pass, 77 = skipped (a failure when LT_TEST_MUST_WORK=1).
set -u
: "${LITMUS:?LITMUS must point at the litmus binary}"
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
CORPUS=$REPO/bench/corpus
FIXTURES=$REPO/tests/fixtures
WORK=$(mktemp -d "${TMPDIR:-/tmp}/litmus-e2e-XXXXXX")
# Every process this test starts inherits the mark, so leftovers can be
# told apart from other litmus runs on the machine.
export LT_E2E_MARK=$WORK
trap 'rm -rf "$WORK"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() {
  if [ "${LT_TEST_MUST_WORK:-0}" = 1 ]; then fail "skipped but LT_TEST_MUST_WORK=1: $*"; fi
  echo "SKIP: $*" >&2; exit 77
}
expect_eq() { [ "$1" = "$2" ] || fail "$3: expected '$2', got '$1'"; }

# Runs litmus, keeping stdout, stderr and the exit code.
run_litmus() {
  "$LITMUS" "$@" >"$WORK/out" 2>"$WORK/err"
  RC=$?
}

# sqlite3 query on a results database.
q() { sqlite3 -batch -noheader "$1" "$2"; }

# Verdict of the mutant on a given line (and optional operator and
# replacement) of a subject file; fails if not exactly one matches.
verdict_at() {
  local db=$1 file=$2 line=$3 op=${4:-} repl=${5:-}
  local where="m.file LIKE '%/$file' AND m.line = $line"
  [ -n "$op" ] && where="$where AND m.op = '$op'"
  [ -n "$repl" ] && where="$where AND m.replacement = '$repl'"
  local n
  n=$(q "$db" "SELECT count(*) FROM mutants m WHERE $where")
  [ "$n" = 1 ] || fail "expected one mutant at $file:$line $op $repl, found $n"
  q "$db" "SELECT coalesce(r.verdict,'pending') FROM mutants m LEFT JOIN results r ON r.mutant_id = m.id WHERE $where"
}

# Scores a fixture or corpus folder into $WORK/<name>.db; sets RC.
score_dir() {
  local dir=$1; shift
  DB=$WORK/$(basename "$dir").db
  run_litmus score "$dir" --tests "$dir" --db "$DB" --no-progress "$@"
}

# Work that several tests of one suite run need, done once: `shared NAME
# FUNCTION` calls FUNCTION DIR in a subshell the first time, DIR being
# $LT_E2E_SHARED/NAME, under a lock that the other tests' calls wait on;
# every call then sets SHARED to DIR and SHARED_RC to FUNCTION's exit
# code.  tests/e2e/run.sh gives each suite run a fresh LT_E2E_SHARED
# (one $LITMUS, one source tree; removed at its end).  A test run alone
# has none: FUNCTION runs in a folder of its own.  Callers copy what they
# change out of DIR.
shared() { # name function
  local name=$1 fn=$2
  if [ -z "${LT_E2E_SHARED:-}" ]; then
    SHARED=$WORK/shared-$name
    mkdir -p "$SHARED"
    ( "$fn" "$SHARED" )
    SHARED_RC=$?
    return 0
  fi
  SHARED=$LT_E2E_SHARED/$name
  (
    flock 9 || exit 1
    if [ ! -e "$SHARED.rc" ]; then
      rm -rf "$SHARED"
      mkdir -p "$SHARED"
      ( "$fn" "$SHARED" )
      echo $? >"$SHARED.rc"
    fi
  ) 9>"$SHARED.lock"
  SHARED_RC=$(cat "$SHARED.rc" 2>/dev/null) || SHARED_RC=1
}

# No zygote or child of this test's litmus may outlive it.  (One grep
# reads every process's environment: a grep per process cost 0.2 s of
# CPU a call.)
no_leftovers() {
  sleep 0.2
  local left="" pid env
  for env in $(grep -lszxF "LT_E2E_MARK=$WORK" /proc/[0-9]*/environ 2>/dev/null); do
    pid=${env#/proc/}; pid=${pid%/environ}
    # litmus, a sanitizer build's zygote, or a zygote in the
    # interpreter's executable (`python -c BOOT` naming _litmus_zygote).
    case $(head -z -n 1 "/proc/$pid/cmdline" 2>/dev/null | tr -d '\0') in
      litmus-zygote|*/litmus|litmus) ;;
      *) grep -qs _litmus_zygote "/proc/$pid/cmdline" || continue ;;
    esac
    left="$left $pid($(tr '\0' ' ' < /proc/$pid/cmdline 2>/dev/null))"
  done
  [ -z "$left" ] || fail "processes left behind:$left"
}

# The verdict of the hostile mutant (False -> True) on a line.
hostile_verdict() { verdict_at "$DB" "$1" "$2" "" "True"; }

expect_one_of() { # value allowed...
  local v=$1; shift
  for a in "$@"; do [ "$v" = "$a" ] && return 0; done
  fail "got '$v', expected one of: $*"
}

# Copies a fixture to $WORK, scores it there (DB=$WORK/<name>.db), then
# checks every verdict against plain pytest on a copy with the mutant
# applied (lib_oracle.py).  Extra arguments go to litmus score.
score_against_pytest() {
  local name=$1; shift
  cp -r "$FIXTURES/$name" "$WORK/$name"
  ( cd "$WORK/$name" && "$LITMUS" score . --tests . --db "$WORK/$name.db" \
      --no-progress "$@" >"$WORK/out" 2>"$WORK/err" )
  RC=$?
  DB=$WORK/$name.db
  [ "$RC" = 0 ] || [ "$RC" = 1 ] || fail "litmus exit $RC: $(cat "$WORK/err")"
  ORACLE_TIMEOUT=${ORACLE_TIMEOUT:-20} /usr/bin/python3 "$REPO/tests/e2e/lib_oracle.py" "$DB" "$WORK/$name" \
    >"$WORK/oracle" 2>&1 || fail "verdicts differ from plain pytest: $(cat "$WORK/oracle")"
}

# The corpus programs whose whole suite scores a folder (quix_gcd scores
# one file with a flag), for the -j 1 = -j 2 tests.
corpus_score_args() { # program -> ARGS
  local dir=$CORPUS/$1
  ARGS=("$dir" --tests "$dir")
  [ "$1" = quix_gcd ] && ARGS=("$dir/correct_programs/gcd.py" --tests "$dir/test_gcd.py" -- --correct)
  return 0
}

# Scores a corpus program at -j 1 and -j 2 side by side (each run under
# the other's load, which the verdicts must not feel either) into
# $WORK/<program>-1.db and -2.db; fails if a run fails, or if the
# verdicts differ.
jobs_pair() { # program
  local p=$1 j a b
  corpus_score_args "$p"
  for j in 1 2; do
    (cd "$CORPUS/$p" && "$LITMUS" score --db "$WORK/$p-$j.db" --no-progress -j $j "${ARGS[@]}" >/dev/null 2>"$WORK/$p-$j.err"; echo $? >"$WORK/$p-$j.rc") &
  done
  wait
  for j in 1 2; do
    [ "$(cat "$WORK/$p-$j.rc")" = 0 ] || fail "$p -j $j: $(cat "$WORK/$p-$j.err")"
  done
  a=$(q "$WORK/$p-1.db" "SELECT mutant_id || ' ' || verdict FROM results ORDER BY 1")
  b=$(q "$WORK/$p-2.db" "SELECT mutant_id || ' ' || verdict FROM results ORDER BY 1")
  [ -n "$a" ] || fail "$p: no results"
  [ "$a" = "$b" ] || fail "verdicts differ between -j 1 and -j 2 on $p: $(diff <(echo "$a") <(echo "$b") | grep '^[<>]' | head -4 | tr '\n' ' ')"
}

# The corpus programs of the ground-truth test (t0549): the eight written
# for module- and class-level mechanisms and older ones with such code.
GROUNDTRUTH_PROGRAMS="cache_info version_order codec_registry shapes_pkg word_stats cli_options quantities settings_chain grade_report bank_account lru_cache linalg dfs"

# Writes to OUT the records of the dataset fixture whose ids are given,
# their paths made absolute (OUT may live anywhere): for tests whose
# check does not need all five programs.  Each program's choices depend
# on the seed and that program alone.
dataset_subset() { # out id...
  local out=$1; shift
  /usr/bin/python3 - "$FIXTURES/dataset/programs.jsonl" "$out" "$@" <<'PY' ||
import json, os, sys
src, out, keep = sys.argv[1], sys.argv[2], sys.argv[3:]
base = os.path.dirname(os.path.abspath(src))
with open(out, "w") as f:
    for line in open(src):
        r = json.loads(line)
        if r["id"] in keep:
            for k in ("path", "tests"):
                if k in r:
                    r[k] = os.path.normpath(os.path.join(base, r[k]))
            f.write(json.dumps(r) + "\n")
PY
    fail "dataset_subset: cannot write $out"
  [ "$(wc -l <"$out")" = $# ] || fail "dataset_subset: not every id of '$*' is in the fixture"
}

# The first eight programs of the selection fixture (about 500 runs; t0300
# runs all twenty) in IN=$WORK/select8.jsonl, and their uninterrupted
# selection with seed 1 in $WORK/whole.jsonl: made once per suite run
# (shared), since t0304 resumes and t0811 shards that same selection, and
# each compares its result with it.  (The output does not depend on where
# the input file is.)
select8_whole() {
  IN=$WORK/select8.jsonl
  head -n 8 "$FIXTURES/dataset/select.jsonl" >"$IN"
  shared select8-seed1 select8_whole_into
  [ "$SHARED_RC" = 0 ] || fail "uninterrupted run: $(cat "$SHARED/err")"
  cp "$SHARED/whole.jsonl" "$WORK/whole.jsonl" || fail "no shared whole.jsonl"
}
select8_whole_into() { # dir
  head -n 8 "$FIXTURES/dataset/select.jsonl" >"$1/select8.jsonl"
  "$LITMUS" dataset select "$1/select8.jsonl" --seed 1 -j 2 --no-progress \
    --no-db -o "$1/whole.jsonl" 2>"$1/err"
}

# The patch corpus's programs gcd and kth with their patches, and their
# uninterrupted triage at -j 2: made once per suite run (shared), since
# t0203 resumes that triage and t0812 shards it, each comparing its result
# with it.  Sets PAIR (the shared folder: manifest.json, patches.jsonl,
# and the triage's whole.db, whole.csv, whole.json and err; read them,
# copy what you change), PAIR_ARGS (the triage's command without --db)
# and PAIR_RC (its exit code: 1, as some patches overfit).
patches_pair_whole() {
  shared patches-gcd-kth patches_pair_whole_into
  PAIR=$SHARED PAIR_RC=$SHARED_RC
  [ -s "$PAIR/patches.jsonl" ] || fail "no shared patches of gcd and kth: $(cat "$PAIR/err" 2>/dev/null)"
  PAIR_ARGS=(patches --manifest "$PAIR/manifest.json" --patches "$PAIR/patches.jsonl"
             --no-progress -j 2)
}
patches_pair_whole_into() { # dir
  /usr/bin/python3 - "$CORPUS/patches" "$1" <<'PY' || return 2
import json, os, sys
corpus, out_dir = sys.argv[1:]
keep = ["gcd", "kth"]
m = json.load(open(os.path.join(corpus, "manifest.json")))
out = {k: {f: os.path.join(corpus, v) if f != "function" else v
           for f, v in m[k].items()} for k in keep}
json.dump(out, open(os.path.join(out_dir, "manifest.json"), "w"))
with open(os.path.join(out_dir, "patches.jsonl"), "w") as f:
    for line in open(os.path.join(corpus, "patches.jsonl")):
        if json.loads(line)["program"] in keep:
            f.write(line)
PY
  "$LITMUS" patches --manifest "$1/manifest.json" --patches "$1/patches.jsonl" \
    --no-progress -j 2 --db "$1/whole.db" --csv "$1/whole.csv" -f json \
    >"$1/whole.json" 2>"$1/err"
}
