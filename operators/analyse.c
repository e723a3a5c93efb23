/* Trivial compiler equivalence in the engine: compiles each mutant once
 * and tells equivalent, invalid, structural and duplicate changes apart
 * before anything runs; code fingerprints of whole texts; the settings
 * file.  All in the engine's embedded interpreter, with the same
 * comparison module as the zygotes (runners/codediff.py, embedded here
 * too).  SPDX-License-Identifier: MIT */
#include "common/pyabi.h"

#include "operators/operators.h"

#include <errno.h>
#include <string.h>

#include "common/err.h"
#include "common/log.h"
#include "common/xmalloc.h"

extern const char lt_ops_codediff_py[];
extern const size_t lt_ops_codediff_py_len;

/* Imports the embedded comparison module once.  Returns a borrowed
 * reference or NULL with a Python error set. */
static PyObject *codediff_module(void)
{
    static PyObject *mod;
    if (mod)
        return mod;
    PyObject *code = Py_CompileString(lt_ops_codediff_py,
                                      "<litmus codediff>", Py_file_input);
    if (!code)
        return NULL;
    mod = PyImport_ExecCodeModule("litmus_codediff", code);
    Py_DECREF(code);
    return mod;
}

/* The text of a subject as Python sees it (bytes that are not UTF-8
 * kept as surrogates); a new reference or NULL with an error set. */
static PyObject *source_text(const char *source, size_t len)
{
    return PyUnicode_DecodeUTF8(source, (Py_ssize_t)len, "surrogateescape");
}

/* Drops a pending Python error, printing it under --debug. */
static void drop_error(void)
{
    if (!PyErr_Occurred())
        return;
    if (lt_log_get_level() >= LT_LOG_DEBUG)
        PyErr_Print();
    PyErr_Clear();
}

int lt_analyse(const char *path, const char *source, size_t len,
                      const struct lt_change *changes, size_t n,
                      struct lt_change_analysis *out)
{
    size_t none = 0;
    return lt_analyse_swaps(path, source, len, changes, n, out, &none);
}

int lt_analyse_swaps(const char *path, const char *source,
                            size_t len, const struct lt_change *changes,
                            size_t n, struct lt_change_analysis *out,
                            size_t *swap_budget)
{
    if (!Py_IsInitialized())
        return LT_EPYTHON;
    PyGILState_STATE g = PyGILState_Ensure();
    int rc = LT_EPYTHON;
    PyObject *list = NULL, *res = NULL;
    PyObject *mod = codediff_module();
    if (!mod)
        goto out;
    list = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; i < n; i++)
        PyList_SetItem(list, (Py_ssize_t)i,
                       Py_BuildValue("(KKs)",
                                     (unsigned long long)changes[i].start,
                                     (unsigned long long)changes[i].end,
                                     changes[i].replacement));
    PyObject *src = source_text(source, len);
    if (!src)
        goto out;
    res = PyObject_CallMethod(mod, "analyse", "(sNOn)", path, src, list,
                              (Py_ssize_t)(*swap_budget > PY_SSIZE_T_MAX
                                               ? PY_SSIZE_T_MAX
                                               : *swap_budget));
    if (!res || !PyList_Check(res) || PyList_Size(res) != (Py_ssize_t)n)
        goto out;
    for (size_t i = 0; i < n; i++) {
        int status, structural;
        const char *fp, *detail, *swap;
        Py_ssize_t swap_len;
        if (!PyArg_ParseTuple(PyList_GetItem(res, (Py_ssize_t)i), "iissy#",
                              &status, &structural, &fp, &detail, &swap,
                              &swap_len))
            goto out;
        out[i].status = (enum lt_change_status)status;
        out[i].structural = structural;
        snprintf(out[i].fingerprint, sizeof(out[i].fingerprint), "%s", fp);
        out[i].detail = *detail ? xstrdup(detail) : NULL;
        out[i].swap = NULL;
        out[i].swap_len = 0;
        if (swap_len > 0 && (size_t)swap_len <= *swap_budget) {
            out[i].swap = xmalloc((size_t)swap_len);
            memcpy(out[i].swap, swap, (size_t)swap_len);
            out[i].swap_len = (size_t)swap_len;
            *swap_budget -= (size_t)swap_len;
        }
    }
    rc = 0;
out:
    if (rc < 0)
        drop_error();
    Py_XDECREF(list);
    Py_XDECREF(res);
    PyGILState_Release(g);
    return rc;
}

/* codediff.name(path, texts[0], ..., texts[n - 1]), the texts of
 * lens[i] bytes each; the caller holds the GIL.  A new reference, or
 * NULL with a Python error set. */
static PyObject *call_on_texts(const char *name, const char *path,
                               const char *const *texts, const size_t *lens,
                               size_t n)
{
    PyObject *mod = codediff_module();
    PyObject *args = mod ? PyTuple_New((Py_ssize_t)n + 1) : NULL;
    PyObject *first = args ? PyUnicode_FromString(path) : NULL;
    if (!first) {
        Py_XDECREF(args);
        return NULL;
    }
    PyTuple_SetItem(args, 0, first);
    for (size_t i = 0; i < n; i++) {
        PyObject *t = source_text(texts[i], lens[i]);
        if (!t) {
            Py_DECREF(args);
            return NULL;
        }
        PyTuple_SetItem(args, (Py_ssize_t)i + 1, t);
    }
    PyObject *fn = PyObject_GetAttrString(mod, name);
    PyObject *res = fn ? PyObject_Call(fn, args, NULL) : NULL;
    Py_XDECREF(fn);
    Py_DECREF(args);
    return res;
}

int lt_code_fingerprint(const char *path, const char *source,
                               size_t len, char out[17])
{
    out[0] = '\0';
    if (!Py_IsInitialized())
        return LT_EPYTHON;
    PyGILState_STATE g = PyGILState_Ensure();
    int rc = LT_EPYTHON;
    PyObject *res = call_on_texts("code_fingerprint", path, &source, &len, 1);
    const char *fp = res ? PyUnicode_AsUTF8(res) : NULL;
    if (fp) {
        snprintf(out, 17, "%s", fp);
        rc = 0;
    }
    if (rc < 0)
        drop_error();
    Py_XDECREF(res);
    PyGILState_Release(g);
    return rc;
}

int lt_changed_spans(const char *path, const char *source, const char *other,
                     long **spans, size_t *n)
{
    *spans = NULL;
    *n = 0;
    if (!Py_IsInitialized())
        return LT_EPYTHON;
    PyGILState_STATE g = PyGILState_Ensure();
    int rc = LT_EPYTHON;
    const char *texts[2] = {source, other};
    size_t lens[2] = {strlen(source), strlen(other)};
    PyObject *res = call_on_texts("changed_spans", path, texts, lens, 2);
    if (res == Py_None) {
        rc = 0;
    } else if (res && PyList_Check(res)) {
        size_t k = (size_t)PyList_Size(res);
        *spans = xcalloc(2 * k + 1, sizeof(long));
        for (size_t i = 0; i < k; i++)
            if (!PyArg_ParseTuple(PyList_GetItem(res, (Py_ssize_t)i), "ll",
                                  &(*spans)[2 * i], &(*spans)[2 * i + 1]))
                break;
        *n = k;
        rc = PyErr_Occurred() ? LT_EPYTHON : 1;
    }
    if (rc < 0) {
        drop_error();
        free(*spans);
        *spans = NULL;
        *n = 0;
    }
    Py_XDECREF(res);
    PyGILState_Release(g);
    return rc;
}

int lt_code_import_digest(const char *path, const char *source, size_t len,
                          const long *lines, size_t n_lines,
                          const char *funcs, struct lt_import_digest *out)
{
    memset(out, 0, sizeof(*out));
    if (!Py_IsInitialized())
        return LT_EPYTHON;
    PyGILState_STATE g = PyGILState_Ensure();
    int rc = LT_EPYTHON;
    PyObject *res = NULL, *traced = Py_None;
    Py_INCREF(traced);
    PyObject *mod = codediff_module();
    PyObject *src = mod ? source_text(source, len) : NULL;
    if (src && lines) {
        Py_SETREF(traced, PyList_New((Py_ssize_t)n_lines));
        for (size_t i = 0; traced && i < n_lines; i++) {
            PyObject *v = PyLong_FromLong(lines[i]);
            if (!v)
                Py_CLEAR(traced);
            else
                PyList_SetItem(traced, (Py_ssize_t)i, v);
        }
    }
    if (src && traced)
        res = PyObject_CallMethod(mod, "import_digest", "(sOOs)", path, src,
                                  traced, funcs ? funcs : "");
    Py_XDECREF(src);
    Py_XDECREF(traced);
    const char *names = NULL, *fp = NULL;
    PyObject *list = NULL;
    if (res && PyArg_ParseTuple(res, "ssO!", &names, &fp, &PyList_Type,
                                &list)) {
        size_t n = (size_t)PyList_Size(list);
        out->funcs = xstrdup(names);
        snprintf(out->digest, sizeof(out->digest), "%s", fp);
        out->lines = xcalloc(n + 1, sizeof(long));
        for (size_t i = 0; i < n; i++)
            out->lines[i] = PyLong_AsLong(PyList_GetItem(list,
                                                         (Py_ssize_t)i));
        out->n_lines = n;
        rc = PyErr_Occurred() ? LT_EPYTHON : 0;
    }
    if (rc < 0) {
        drop_error();
        lt_import_digest_clear(out);
    }
    Py_XDECREF(res);
    PyGILState_Release(g);
    return rc;
}

int lt_rebind_payload(const char *path, const char *source, size_t len,
                      const struct lt_mutant *m, uint8_t **out,
                      size_t *out_len)
{
    *out = NULL;
    *out_len = 0;
    if (!Py_IsInitialized())
        return LT_EPYTHON;
    PyGILState_STATE g = PyGILState_Ensure();
    int rc = LT_EPYTHON;
    PyObject *res = NULL;
    PyObject *mod = codediff_module();
    PyObject *src = mod ? source_text(source, len) : NULL;
    if (src)
        res = PyObject_CallMethod(mod, "rebind_payload", "(sOnnsi)", path,
                                  src, (Py_ssize_t)m->start,
                                  (Py_ssize_t)m->end, m->replacement,
                                  m->line);
    Py_XDECREF(src);
    char *bytes = NULL;
    Py_ssize_t n = 0;
    if (res && PyBytes_AsStringAndSize(res, &bytes, &n) == 0) {
        rc = 0;
        if (n > 0) {
            *out = xmalloc((size_t)n);
            memcpy(*out, bytes, (size_t)n);
            *out_len = (size_t)n;
        }
    }
    if (rc < 0)
        drop_error();
    Py_XDECREF(res);
    PyGILState_Release(g);
    return rc;
}

void lt_import_digest_clear(struct lt_import_digest *d)
{
    free(d->funcs);
    free(d->lines);
    memset(d, 0, sizeof(*d));
}
