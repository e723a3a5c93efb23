# `addopts = --cov=shipping --cov-report=term -n 2`: litmus scores the
# project as it is (coverage and xdist neutralised); the baseline matches
# pytest run with those addopts.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/shapes.sh"
/usr/bin/python3 -c 'import pytest_cov, xdist' 2>/dev/null ||
  skip "python3-pytest-cov or python3-pytest-xdist is not installed"
shape_copy cov_xdist_addopts
shape_score score shipping --tests tests
[ ! -e "$P/.coverage" ] || fail "litmus left a .coverage file"
shape_check no-note /usr/bin/python3 tests
