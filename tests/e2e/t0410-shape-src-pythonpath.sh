# A src/ layout found through `pythonpath = src` in pytest.ini scores with
# the README's command, with no src/ note, and its baseline matches pytest.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/shapes.sh"
shape_copy src_pythonpath
shape_score score src/invoicing --tests tests
shape_check no-note /usr/bin/python3 tests
