/* The interpreter of this process, chosen at run time: litmus links no
 * libpython.  Its Python side (litmus-python.so: the operators' Python
 * parts, the zygote) is built once on CPython's stable ABI (pyabi.h) and
 * loaded into whichever libpython the user's interpreter has, 3.9 to
 * 3.13.  SPDX-License-Identifier: MIT */
#ifndef LT_COMMON_PYLOAD_H
#define LT_COMMON_PYLOAD_H

/* The interpreter litmus takes when no other is named, and its libpython
 * as found when litmus was built. */
#define LT_PYTHON_DEFAULT "/usr/bin/python3"

/* The settings every interpreter litmus starts runs with, as the
 * environment variables every version reads at start-up: sets iterate
 * alike everywhere, nothing is written to the project, output reaches
 * the pipes, ~/.local stays out, UTF-8 mode.  They are taken out of the
 * environment again once the interpreter runs (pyabi.h). */
#define LT_PYTHON_SETTINGS                                                   \
    {                                                                        \
        {"PYTHONHASHSEED", "0"}, {"PYTHONDONTWRITEBYTECODE", "1"},           \
            {"PYTHONUNBUFFERED", "1"}, {"PYTHONNOUSERSITE", "1"},            \
            {"PYTHONUTF8", "1"},                                             \
    }

/* A zygote started in the interpreter's own executable gets the user's
 * PYTHON* variables under this prefix (PYTHONPATH as
 * LITMUS_PYVAR_PYTHONPATH), so that they do not steer its start-up; it
 * puts them back under their names (lt_pyabi_adopt). */
#define LT_PYTHON_SAVED_PREFIX "LITMUS_PYVAR_"

/* Chooses `python` (an interpreter's executable, a venv's bin/python
 * too) with its `libpython` (a path; NULL: the default's) for this
 * process and loads both that libpython and litmus-python.so now.  Once
 * a process has one, the same choice again is a no-op and another is an
 * error.  0, or -1 with *err (caller frees) naming what is missing. */
int lt_python_use(const char *python, const char *libpython, char **err);

/* A function of litmus-python.so, loading the default interpreter first
 * when none was chosen; NULL, said once on stderr, when it cannot be
 * had. */
void *lt_python_sym(const char *name);

/* 1 once litmus-python.so is in this process. */
int lt_python_loaded(void);

/* The chosen interpreter's executable and libpython (the defaults until
 * one is chosen). */
const char *lt_python_exe(void);
const char *lt_python_lib(void);

/* litmus-python.so's path (caller frees), NULL when it is missing. */
char *lt_python_module_path(void);

/* A file of litmus's own beside its binary: `rel` from the binary's
 * directory (the build tree), else `installed` from it (`make install`:
 * PREFIX/bin/litmus), else NULL.  Caller frees. */
char *lt_self_file(const char *rel, const char *installed);

#endif
