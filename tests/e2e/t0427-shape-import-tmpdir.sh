# A test module that makes a temporary directory when it is imported and
# writes there in its tests: the directory is each test run's own, as
# import left it (the zygote imported it once; every child gets a copy
# in its own scratch), so the baseline passes as under plain pytest and
# no mutant's run sees another's files.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/shapes.sh"
shape_copy import_tmpdir
shape_score score notes.py --tests tests
shape_check no-note /usr/bin/python3 tests
exit 0
