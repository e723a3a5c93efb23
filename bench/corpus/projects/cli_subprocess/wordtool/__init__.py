"""Counts words and lines of text: a small command-line tool."""
