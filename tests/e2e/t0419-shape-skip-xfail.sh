# skip, skipif, importorskip and xfail (strict and not): skipped and
# xfailed tests are stored as skipped, an XPASS as passed, as pytest -rA
# says; nothing stops the baseline.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/shapes.sh"
shape_copy skip_xfail
shape_score score tempconv.py
shape_check no-note /usr/bin/python3
s=$(q "$P/.litmus.db" "SELECT count(*) FROM tests WHERE outcome = 'skipped'")
expect_eq "$s" 5 "skipped tests (3 skips, 2 xfails)"
