# --since REV: only the lines changed since a git revision are mutated
# (git diff run by the engine); files git does not know are wholly
# changed; outside a checkout or with an unknown revision, exit 2.
. "$(dirname "$0")/lib.sh"
command -v git >/dev/null || skip "no git"
proj=$WORK/proj
mkdir -p "$proj"
cd "$proj"
cat > calc.py <<'PY'
def add(a, b):
    return a + b


def sub(a, b):
    return a - b


def div(a, b):
    return a / b
PY
cat > test_calc.py <<'PY'
from calc import add, sub, div
from extra import inc


def test_all():
    assert add(2, 3) == 5
    assert sub(3, 2) == 1
    assert div(6, 3) == 2
    assert inc(1) == 2
PY
cat > extra.py <<'PY'
def inc(a):
    return a + 1
PY

# Not a git checkout yet.
run_litmus score calc.py --tests test_calc.py --db "$WORK/n.db" --no-progress --since HEAD
expect_eq "$RC" 2 "--since outside a checkout"
grep -q "not in a git checkout" "$WORK/err" || fail "unclear message: $(cat "$WORK/err")"

export GIT_CONFIG_NOSYSTEM=1 HOME=$WORK
git init -q . && git config user.email t@example.org && git config user.name t
git add calc.py test_calc.py && git commit -qm one || fail "git commit"

run_litmus score calc.py --tests test_calc.py --db "$WORK/u.db" --no-progress --since no-such-rev
expect_eq "$RC" 2 "unknown revision"
grep -q "unknown git revision 'no-such-rev'" "$WORK/err" || fail "unclear message: $(cat "$WORK/err")"

# Nothing changed since HEAD in calc.py: no mutant there.
run_litmus score calc.py extra.py --tests test_calc.py --db "$WORK/a.db" --no-progress --since HEAD -j 2
expect_eq "$RC" 0 "unchanged: $(cat "$WORK/err")"
expect_eq "$(q "$WORK/a.db" "SELECT count(*) FROM mutants WHERE file LIKE '%/calc.py'")" 0 "mutants of an unchanged file"
# extra.py is untracked: every line counts as changed.
expect_eq "$(q "$WORK/a.db" "SELECT group_concat(line || op, ' ') FROM mutants WHERE file LIKE '%/extra.py'")" "2operator 2number" "mutants of an untracked file"

# Change one line: only its mutants (line 6 moved to line 7 by an
# inserted blank line, which has no mutant).
sed -i 's/return a - b/return a - b - 0/' calc.py
sed -i '1i\\' calc.py
run_litmus score calc.py --tests test_calc.py --db "$WORK/b.db" --no-progress --since HEAD -j 2
expect_eq "$RC" 0 "changed: $(cat "$WORK/err")"
expect_eq "$(q "$WORK/b.db" "SELECT DISTINCT line FROM mutants")" 7 "only the changed line"
expect_eq "$(q "$WORK/b.db" "SELECT count(*) FROM mutants")" 3 "the changed line's mutants"
# The same run without --since mutates every line.
run_litmus score calc.py --tests test_calc.py --db "$WORK/c.db" --no-progress -j 2
expect_eq "$(q "$WORK/c.db" "SELECT count(DISTINCT line) FROM mutants")" 3 "all lines without --since"
exit 0
