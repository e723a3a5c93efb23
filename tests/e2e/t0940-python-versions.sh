# One litmus build serves every CPython from 3.9 to 3.13 it finds here,
# each through a venv made from it: a part of the corpus (a program; four
# with LT_E2E_FULL=1) and a unittest
# project score with the same verdicts under every version; a subject in
# 3.10's syntax (match) and one in 3.12's (PEP 695 generics, nested
# f-string quotes) score under the versions that have it, with the same
# verdicts, and are refused, in one line naming the interpreter, under
# those that do not.  Three versions by default (the oldest, the system's
# and the newest); every one with LT_E2E_FULL=1.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_pythons.sh"
lt_pythons >"$WORK/pythons"
[ -s "$WORK/pythons" ] || fail "no Python from 3.9 to 3.13 here"
# A machine with fewer versions tests those it has, and says so.
[ "$(wc -l <"$WORK/pythons")" -ge 3 ] ||
  echo "note: fewer than three Python versions here: $(tr '\n' ' ' <"$WORK/pythons")"
if [ "${LT_E2E_FULL:-0}" != 1 ]; then
  sys=$(/usr/bin/python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')
  { head -n 1 "$WORK/pythons"; grep "^$sys " "$WORK/pythons"; tail -n 1 "$WORK/pythons"; } |
    sort -u -t. -k2,2n >"$WORK/chosen"
else
  cp "$WORK/pythons" "$WORK/chosen"
fi

# The projects: three corpus programs in one directory, the unittest
# project, and the two syntax subjects.
mkdir -p "$WORK/corpus"
progs="lru_cache"
[ "${LT_E2E_FULL:-0}" = 1 ] && progs="$progs quicksort bitcount expr_parser"
subjects=""
for prog in $progs; do
  cp "$CORPUS/$prog"/*.py "$WORK/corpus/"
  subjects="$subjects $prog.py"
done
cp -r "$CORPUS/projects/unittest_only" "$WORK/unittest_only"
# The interpreter's settings under litmus, every version: UTF-8 mode and
# hash seed 0 (a baseline failure stops the run).
cat >"$WORK/corpus/test_interpreter_settings.py" <<'PY'
import sys

def test_settings():
    assert sys.flags.utf8_mode == 1
    assert sys.flags.hash_randomization == 0
    assert sys.flags.no_user_site == 1
PY
mkdir -p "$WORK/match" "$WORK/pep695"
cat >"$WORK/match/shapes.py" <<'PY'
def area(shape):
    match shape:
        case ("square", side):
            return side * side
        case ("rect", w, h):
            return w * h
        case {"circle": r} if r > 0:
            return 3 * r * r
        case _:
            return 0
PY
cat >"$WORK/match/test_shapes.py" <<'PY'
from shapes import area

def test_square():
    assert area(("square", 3)) == 9

def test_rect():
    assert area(("rect", 2, 5)) == 10

def test_circle():
    assert area({"circle": 2}) == 12
    assert area({"circle": 0}) == 0

def test_other():
    assert area(("line", 4)) == 0
PY
cat >"$WORK/pep695/stack.py" <<'PY'
type Pair[T] = tuple[T, T]

class Stack[T]:
    def __init__(self) -> None:
        self.items: list[T] = []

    def push(self, item: T) -> None:
        self.items.append(item)

    def pop(self) -> T:
        return self.items.pop()

def describe(s: "Stack[int]") -> str:
    return f"{"empty" if not s.items else f'{len(s.items)} items'}"
PY
cat >"$WORK/pep695/test_stack.py" <<'PY'
from stack import Stack, describe

def test_push_pop():
    s = Stack()
    s.push(1)
    s.push(2)
    assert s.pop() == 2
    assert s.items == [1]

def test_describe():
    s = Stack()
    assert describe(s) == "empty"
    s.push(5)
    assert describe(s) == "1 items"
PY

# verdicts DB: "id verdict" lines, by id.
verdicts() {
  q "$1" "SELECT m.id || ' ' || r.verdict FROM mutants m JOIN results r ON r.mutant_id = m.id ORDER BY m.id"
}
# score_in VERSION DIR ARGS...: scores in DIR with that version's venv.
score_in() {
  local v=$1 dir=$2; shift 2
  (cd "$dir" && "$LITMUS" score --python "$WORK/venv-$v" \
     --db "$WORK/$(basename "$dir")-$v.db" --no-progress "$@") >"$WORK/out" 2>"$WORK/err"
  RC=$?
}
# same_as_first NAME VERSION: its verdicts equal those of the first version
# that scored NAME.
same_as_first() {
  local name=$1 v=$2
  verdicts "$WORK/$name-$v.db" >"$WORK/$name-$v.verdicts"
  [ -s "$WORK/$name-$v.verdicts" ] || fail "$name under $v: no verdicts"
  grep -q ' killed$' "$WORK/$name-$v.verdicts" || fail "$name under $v: nothing killed"
  local first
  first=$(ls "$WORK"/"$name"-*.verdicts | head -n 1)
  diff "$first" "$WORK/$name-$v.verdicts" >"$WORK/diff" ||
    fail "$name: the verdicts under $v differ from $(basename "$first"): $(head -n 8 "$WORK/diff")"
}

# syntax_case VERSION MINOR NAME SUBJECT LINE: NAME's subject, in the
# syntax of 3.MINOR, scores under VERSION when it has that syntax (with
# the verdicts of the first version that scored it), and is refused in
# one line naming the interpreter and the subject's LINE when it has not.
syntax_case() {
  local v=$1 need=$2 name=$3 subject=$4 line=$5
  score_in "$v" "$WORK/$name" "$subject" --tests "test_$subject"
  if [ "${v#3.}" -ge "$need" ]; then
    [ "$RC" = 0 ] || fail "$name under $v: exit $RC: $(tail -n 5 "$WORK/err")"
    same_as_first "$name" "$v"
  else
    expect_eq "$RC" 2 "$name under $v: $(tail -n 3 "$WORK/err")"
    [ "$(grep -c . "$WORK/err")" = 1 ] && grep -qF "$subject:$line:" "$WORK/err" &&
      grep -qF "parsed by the Python of $WORK/venv-$v" "$WORK/err" ||
      fail "$name under $v: not refused in one clear line: $(cat "$WORK/err")"
  fi
}

while read -r v py; do
  lt_test_venv "$py" "$WORK/venv-$v" >"$WORK/venv.log" 2>&1 ||
    fail "cannot make a test venv of $py: $(tail -n 3 "$WORK/venv.log")"

  # shellcheck disable=SC2086 # one word a subject
  score_in "$v" "$WORK/corpus" $subjects --tests .
  [ "$RC" = 0 ] || fail "corpus under $v ($py): exit $RC: $(tail -n 5 "$WORK/err")"
  same_as_first corpus "$v"

  score_in "$v" "$WORK/unittest_only" inventory --runner unittest -- discover tests
  [ "$RC" = 0 ] || fail "unittest_only under $v: exit $RC: $(tail -n 5 "$WORK/err")"
  same_as_first unittest_only "$v"

  syntax_case "$v" 10 match shapes.py 2
  syntax_case "$v" 12 pep695 stack.py 1
  echo "$v ($py): $(wc -l <"$WORK/corpus-$v.verdicts") + $(wc -l <"$WORK/unittest_only-$v.verdicts") verdicts equal"
done <"$WORK/chosen"
no_leftovers
exit 0
