"""Vote counting: plurality and instant-runoff."""
from importlib.metadata import version

from tally.count import instant_runoff, plurality

__version__ = version("tally")
__all__ = ["instant_runoff", "plurality", "__version__"]
