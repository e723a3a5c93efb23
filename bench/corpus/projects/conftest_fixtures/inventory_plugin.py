"""A local pytest plugin (loaded through pytest_plugins in conftest.py):
a --warehouse option and a fixture built from it."""
import pytest


def pytest_addoption(parser):
    parser.addoption("--warehouse", default="main",
                     help="name of the warehouse the tests use")


@pytest.fixture
def warehouse_name(request):
    return request.config.getoption("--warehouse")
