"""QuixBugs layout: `--correct` selects correct_programs/ instead of the buggy
python_programs/ (the same switch QuixBugs' own conftest.py provides)."""
import pytest


def pytest_addoption(parser):
    parser.addoption("--correct", action="store_true", default=False,
                     help="test correct_programs/ instead of python_programs/")


def pytest_configure(config):
    pytest.use_correct = config.getoption("correct")
