# A module in lib/ that only PYTHONPATH=lib makes importable: litmus
# honours PYTHONPATH as python -m pytest does, and without it stops with
# exit 2 instead of scoring.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/shapes.sh"
shape_copy pythonpath_env
PYTHONPATH=lib shape_score score lib/wordwrap.py --tests tests
PYTHONPATH=lib shape_check no-note /usr/bin/python3 tests
(unset PYTHONPATH; shape_score score lib/wordwrap.py --tests tests
 [ "$RC" = 2 ] || fail "without PYTHONPATH: exit $RC, expected 2"
 grep -q "wordwrap" "$WORK/err" || fail "no word of wordwrap: $(cat "$WORK/err")") || exit 1
exit 0
