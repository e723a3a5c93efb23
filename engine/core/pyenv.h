/* The user's Python environment for the zygotes: see pyenv.c.  Internal
 * to engine/.  SPDX-License-Identifier: MIT */
#ifndef LT_ENGINE_PYENV_H
#define LT_ENGINE_PYENV_H

#include <stddef.h>

struct lt_pyenv {
    char *python;       /* the interpreter the zygotes take (not resolved:
                           a venv's bin/python stays the venv's) */
    const char *how;    /* why this one: "--python", "./.venv", ... */
    char *version;      /* its full version, "3.11.2" */
    char *libpython;    /* its shared libpython, a real path */
    char *packages;     /* a digest of what is installed where it imports
                           from outside the working directory (each entry
                           of sys.path: names, sizes, times) */
    char *path_prefix;  /* ':'-joined absolute directories for the front
                           of sys.path (PYTHONPATH, then an src/ root), or
                           NULL */
    char *src_added;    /* the src/ directory litmus added, or NULL */
};

/* Chooses the interpreter as `python -m pytest` in `cwd` would run: the
 * `named` one (--python or [tool.litmus] python; a venv directory names
 * its bin/python), else $VIRTUAL_ENV's, else ./.venv or ./venv, else the
 * system's python3.  Runs it once to check that litmus can run in it
 * (3.9 or later, with a shared libpython, which litmus loads) and that it
 * can import pytest (when need_pytest: the unittest and doctest runners
 * do without), and to ask where the subjects under ./src would be
 * imported from.  0, or a negative code
 * with a one-line *err (caller frees) for an input error (exit 2). */
int lt_pyenv_resolve(const char *named, const char *cwd,
                     char *const *subjects, size_t n_subjects,
                     int need_pytest, struct lt_pyenv *env, char **err);
void lt_pyenv_clear(struct lt_pyenv *env);

/* The [tool.litmus] table of the pyproject.toml at path, as JSON text in
 * *json (caller frees; "{}" when there is none), read by the system's
 * interpreter in a process of its own, since it may name the run's.  0,
 * -errno for a file that cannot be read, or LT_EPARSE / LT_EUSAGE with a
 * one-line *err (caller frees). */
int lt_pyproject_read(const char *path, char **json, char **err);

#endif
