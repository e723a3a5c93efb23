/* The embedded comparison module (runners/codediff.py) in a zygote's
 * interpreter: applying a mutant compares code objects there.
 * SPDX-License-Identifier: MIT */
#include "common/pyabi.h"

#include "runners/internal.h"

extern const char lt_codediff_py[];
extern const size_t lt_codediff_py_len;

/* Imports the embedded comparison module once per process.  Returns a
 * borrowed reference or NULL with a Python error set. */
PyObject *lt__codediff_module(void)
{
    static PyObject *mod;
    if (mod)
        return mod;
    PyObject *code = Py_CompileString(lt_codediff_py, "<litmus codediff>",
                                      Py_file_input);
    if (!code)
        return NULL;
    mod = PyImport_ExecCodeModule("litmus_codediff", code);
    Py_DECREF(code);
    return mod;
}
