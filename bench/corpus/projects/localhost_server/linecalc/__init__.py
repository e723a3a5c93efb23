"""A line protocol calculator: a server answers "ADD 2 3" with "5"."""
