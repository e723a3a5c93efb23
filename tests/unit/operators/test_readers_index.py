# Tests of operators/readers.py at the Python level: what the index
# parses.  A tree where one file that tests can import reads names
# without naming them answers all for every mutant, so the scan stops
# there instead of parsing the rest of a large tree (sympy's: 40 s).
#   /usr/bin/python3 -m pytest tests/unit/operators/test_readers_index.py
# SPDX-License-Identifier: MIT
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.environ.get(
    'LT_OPERATORS_DIR', os.path.join(HERE, '..', '..', '..', 'operators')))
import readers  # noqa: E402

MOD = "N = 1\n\ndef f():\n    return N\n"


def tree(root, named):
    files = {"pkg/__init__.py": "", "pkg/mod.py": MOD,
             # Parsed early (the root's files come first), and names N.
             "aa_tool.py": "from pkg.mod import N\nexec('print(N)')\n"}
    for i in range(20):
        files["pkg/user%02d.py" % i] = \
            "from pkg.mod import N\n\ndef g%d():\n    return N\n" % i
    files["tests/test_x.py"] = \
        ("import aa_tool\n" if named else "") + \
        "from pkg.mod import f\n\ndef test_f():\n    assert f() == 1\n"
    for rel, text in files.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
    return os.path.join(root, "pkg", "mod.py"), len(files)


def test_a_named_file_reading_names_unnamed_stops_the_scan(tmp_path):
    mod, n_files = tree(str(tmp_path), named=True)
    ix = readers.Index(str(tmp_path), [mod])
    assert ix.every_query == "aa_tool.py:2 reads names without naming them"
    assert len(ix.files) < n_files / 2
    why = ix.query(0, 1, 1)[0]
    assert why == ix.every_query


def test_an_unnamed_one_reads_nothing_and_the_scan_goes_on(tmp_path):
    mod, n_files = tree(str(tmp_path), named=False)
    ix = readers.Index(str(tmp_path), [mod])
    assert ix.every_query is None
    assert len(ix.files) == n_files - 1     # pkg/__init__.py names nothing
    why, spans, tests = ix.query(0, 1, 1)[:3]
    assert why is None
    assert str(tmp_path / "tests" / "test_x.py") not in tests
    assert spans == [(0, 4, 4, 0)]   # f reads N
