/* Trivial compiler equivalence in the engine: compiles each mutant once
 * and tells equivalent, invalid, structural and duplicate changes apart
 * before anything runs.  SPDX-License-Identifier: MIT */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "runners/runner.h"

#include <string.h>

#include "common/err.h"
#include "common/log.h"
#include "common/xmalloc.h"
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

int lt_runner_analyse(const char *path, const char *source, size_t len,
                      const struct lt_change *changes, size_t n,
                      struct lt_change_analysis *out)
{
    if (!Py_IsInitialized())
        return LT_EPYTHON;
    PyGILState_STATE g = PyGILState_Ensure();
    int rc = LT_EPYTHON;
    PyObject *list = NULL, *res = NULL;
    PyObject *mod = lt__codediff_module();
    if (!mod)
        goto out;
    list = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; i < n; i++)
        PyList_SET_ITEM(list, (Py_ssize_t)i,
                        Py_BuildValue("(KKs)",
                                      (unsigned long long)changes[i].start,
                                      (unsigned long long)changes[i].end,
                                      changes[i].replacement));
    PyObject *src = PyUnicode_DecodeUTF8(source, (Py_ssize_t)len,
                                         "surrogateescape");
    if (!src)
        goto out;
    res = PyObject_CallMethod(mod, "analyse", "(sNO)", path, src, list);
    if (!res || !PyList_Check(res) || PyList_GET_SIZE(res) != (Py_ssize_t)n)
        goto out;
    for (size_t i = 0; i < n; i++) {
        int status, structural;
        const char *fp, *detail;
        if (!PyArg_ParseTuple(PyList_GET_ITEM(res, (Py_ssize_t)i), "iiss",
                              &status, &structural, &fp, &detail))
            goto out;
        out[i].status = (enum lt_change_status)status;
        out[i].structural = structural;
        snprintf(out[i].fingerprint, sizeof(out[i].fingerprint), "%s", fp);
        out[i].detail = *detail ? xstrdup(detail) : NULL;
    }
    rc = 0;
out:
    if (rc < 0 && PyErr_Occurred()) {
        if (lt_log_get_level() >= LT_LOG_DEBUG)
            PyErr_Print();
        PyErr_Clear();
    }
    Py_XDECREF(list);
    Py_XDECREF(res);
    PyGILState_Release(g);
    return rc;
}
