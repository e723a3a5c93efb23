# Printing forever is stopped at the output cap.
. "$(dirname "$0")/lib.sh"
score_dir "$FIXTURES/hostile_print"
expect_eq "$RC" 0 "exit code"
v=$(hostile_verdict hostile_print.py 5)
expect_one_of "$v" crashed timeout
id=$(q "$DB" "SELECT m.id FROM mutants m WHERE m.line=5 AND m.replacement='True'")
len=$(q "$DB" "SELECT length(coalesce(output,'')) FROM results WHERE mutant_id='$id'")
[ "$len" -le 70000 ] || fail "stored output not capped: $len bytes"

# The cap is per test: a suite whose every test prints a little, more
# than the cap over the whole run, runs as plain pytest runs it.
mkdir -p "$WORK/chatty"
cat >"$WORK/chatty/chatty.py" <<'PY'
def add(a, b):
    return a + b
PY
cat >"$WORK/chatty/test_chatty.py" <<'PY'
import pytest
from chatty import add


@pytest.mark.parametrize("i", range(12))
def test_add(i):
    print(("log line %d " % i) * 90000)  # about 1 MB a test, 13 MB in all
    assert add(i, 1) == i + 1
PY
score_dir "$WORK/chatty"
expect_eq "$RC" 0 "exit code (chatty suite): $(tail -3 "$WORK/err")"
expect_eq "$(q "$DB" "SELECT count(*) FROM tests WHERE outcome='passed'")" 12 \
  "baseline tests passed (chatty suite)"
expect_eq "$(verdict_at "$DB" chatty.py 2 operator -)" killed "a + b -> a - b"
expect_eq "$(q "$DB" "SELECT count(*) FROM results WHERE verdict='crashed'")" 0 \
  "mutants stopped at the output cap (chatty suite)"
no_leftovers
exit 0
