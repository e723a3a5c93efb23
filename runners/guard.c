/* Guards of an untrusted run (a patch): what a candidate could do to fake
 * a pass is looked for from C, where the candidate's Python code cannot
 * reach.  Three guards:
 *  - an integrity snapshot of the framework (pytest, the shim, builtins,
 *    the test modules), taken in the zygote: (dict, key, value) triples
 *    and (function, code) pairs with strong references, compared after
 *    each test and at the end;
 *  - an audit hook (cannot be removed from Python) that catches writes of
 *    files that steer pytest or Python (conftest.py, *.pth, ini files) and
 *    attribute changes of framework classes made from the candidate;
 *  - a profile function that flags values returned by the candidate that
 *    compare equal to anything.
 * A guard that fires sends TAMPER and ends the child at once.
 * SPDX-License-Identifier: MIT */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <frameobject.h>

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runners/guard.h"

struct guard_entry {
    PyObject *container; /* dict, or function for code entries */
    PyObject *key;       /* NULL for code entries */
    PyObject *value;     /* expected value or code object */
    PyObject *label;     /* owner's name, shared */
};

static struct guard_entry *entries;
static size_t n_entries, cap_entries;
static int armed;
static unsigned armed_flags;
static char *subject_path;      /* the candidate's file */
static PyObject *subject_name;  /* its module name (str), or NULL */
static lt_guard_report_fn report_fn;

void lt_guard_set_reporter(lt_guard_report_fn fn)
{
    report_fn = fn;
}

static _Noreturn void fire(const char *fmt, ...)
{
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    armed = 0;
    PyEval_SetProfile(NULL, NULL);
    if (report_fn)
        report_fn(msg);
    _exit(75);
}

static void add_entry(PyObject *container, PyObject *key, PyObject *value,
                      PyObject *label)
{
    if (n_entries == cap_entries) {
        cap_entries = cap_entries ? cap_entries * 2 : 4096;
        entries = PyMem_RawRealloc(entries, cap_entries * sizeof(*entries));
        if (!entries)
            abort();
    }
    Py_INCREF(container);
    Py_XINCREF(key);
    Py_INCREF(value);
    Py_INCREF(label);
    entries[n_entries++] = (struct guard_entry){container, key, value, label};
}

/* Values worth pinning: what a candidate would replace to change how
 * tests run or report.  Data (counters, caches, streams) changes for
 * honest reasons and is left alone. */
static int pinnable(PyObject *v)
{
    return PyFunction_Check(v) || PyCFunction_Check(v) || PyType_Check(v) ||
           PyModule_Check(v) || PyMethod_Check(v) ||
           Py_IS_TYPE(v, &PyClassMethod_Type) ||
           Py_IS_TYPE(v, &PyStaticMethod_Type) ||
           Py_IS_TYPE(v, &PyProperty_Type);
}

/* The candidate's own objects move legitimately (tests that imported
 * its functions are rebound to the new ones). */
static int from_subject(PyObject *v)
{
    if (PyFunction_Check(v)) {
        PyCodeObject *code = (PyCodeObject *)PyFunction_GET_CODE(v);
        const char *file = PyUnicode_AsUTF8(code->co_filename);
        PyErr_Clear();
        return file && subject_path && strcmp(file, subject_path) == 0;
    }
    if (PyType_Check(v) && subject_name) {
        PyObject *mod = PyObject_GetAttrString(v, "__module__");
        int own = mod && PyObject_RichCompareBool(mod, subject_name, Py_EQ) == 1;
        Py_XDECREF(mod);
        PyErr_Clear();
        return own;
    }
    return 0;
}

static void pin_dict(PyObject *dict, PyObject *label, int depth)
{
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    while (PyDict_Next(dict, &pos, &key, &value)) {
        if (!pinnable(value) || from_subject(value))
            continue;
        add_entry(dict, key, value, label);
        if (PyFunction_Check(value))
            add_entry(value, NULL, PyFunction_GET_CODE(value), label);
        /* Methods of mutable classes defined here, one level down. */
        if (depth == 0 && PyType_Check(value) &&
            !PyType_HasFeature((PyTypeObject *)value,
                               Py_TPFLAGS_IMMUTABLETYPE) &&
            ((PyTypeObject *)value)->tp_dict) {
            PyObject *sub = PyUnicode_FromFormat(
                "%U.%s", label, ((PyTypeObject *)value)->tp_name);
            if (!sub) {
                PyErr_Clear();
                continue;
            }
            pin_dict(((PyTypeObject *)value)->tp_dict, sub, 1);
            Py_DECREF(sub);
        }
    }
}

/* _litmus.guard_set(entries, subject_path, subject_module): entries is a
 * list of (dict, label) pairs; every function, class, module or method
 * in each dict is pinned to its current object (functions also to their
 * code), and so are the methods of the mutable classes found there. */
PyObject *lt_guard_py_set(PyObject *self, PyObject *args)
{
    PyObject *list, *name;
    const char *path;
    if (!PyArg_ParseTuple(args, "O!sO", &PyList_Type, &list, &path, &name))
        return NULL;
    free(subject_path);
    subject_path = strdup(path);
    Py_XDECREF(subject_name);
    subject_name = name == Py_None ? NULL : name;
    Py_XINCREF(subject_name);
    Py_ssize_t n = PyList_GET_SIZE(list);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyList_GET_ITEM(list, i);
        PyObject *obj, *label;
        if (!PyArg_ParseTuple(item, "O!U", &PyDict_Type, &obj, &label))
            return NULL;
        pin_dict(obj, label, 0);
    }
    return PyLong_FromSize_t(n_entries);
}

void lt_guard_check(void)
{
    if (!armed)
        return;
    for (size_t i = 0; i < n_entries; i++) {
        struct guard_entry *e = &entries[i];
        PyObject *now;
        if (e->key) {
            now = PyDict_GetItemWithError(e->container, e->key);
            if (!now)
                PyErr_Clear();
        } else {
            now = PyFunction_GET_CODE(e->container);
        }
        if (now == e->value)
            continue;
        const char *label = PyUnicode_AsUTF8(e->label);
        const char *key = e->key && PyUnicode_Check(e->key)
                              ? PyUnicode_AsUTF8(e->key)
                              : NULL;
        PyErr_Clear();
        if (e->key)
            fire("%s %s.%s", now ? "replaced" : "deleted",
                 label ? label : "?", key ? key : "?");
        fire("replaced the code of %s", label ? label : "?");
    }
}

/* The file of the code running now, or NULL. */
static int running_in_subject(void)
{
    PyFrameObject *f = PyEval_GetFrame(); /* borrowed */
    if (!f || !subject_path)
        return 0;
    PyCodeObject *code = PyFrame_GetCode(f);
    const char *file = PyUnicode_AsUTF8(code->co_filename);
    int in = file && strcmp(file, subject_path) == 0;
    Py_DECREF(code);
    PyErr_Clear();
    return in;
}

static const char *const steering_names[] = {
    "conftest.py", "pytest.ini", "tox.ini", "setup.cfg", "pyproject.toml",
    "sitecustomize.py", "usercustomize.py", NULL,
};

static int steers_pytest_or_python(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    for (int i = 0; steering_names[i]; i++)
        if (strcmp(base, steering_names[i]) == 0)
            return 1;
    size_t n = strlen(base);
    return (n > 3 && strcmp(base + n - 3, ".py") == 0) ||
           (n > 4 && strcmp(base + n - 4, ".pth") == 0) ||
           (n > 4 && strcmp(base + n - 4, ".pyc") == 0);
}

static int audit_hook(const char *event, PyObject *args, void *data)
{
    (void)data;
    if (!armed)
        return 0;
    if (strcmp(event, "open") == 0 && PyTuple_Check(args) &&
        PyTuple_GET_SIZE(args) >= 3) {
        PyObject *path = PyTuple_GET_ITEM(args, 0);
        PyObject *mode = PyTuple_GET_ITEM(args, 1);
        PyObject *flags = PyTuple_GET_ITEM(args, 2);
        int writing = 0;
        if (mode && PyUnicode_Check(mode)) {
            const char *m = PyUnicode_AsUTF8(mode);
            writing = m && strpbrk(m, "wax+") != NULL;
        }
        if (flags && PyLong_Check(flags)) {
            long fl = PyLong_AsLong(flags);
            writing |= (fl & (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC)) != 0;
        }
        PyErr_Clear();
        if (!writing || !path)
            return 0;
        PyObject *p = PyOS_FSPath(path);
        if (!p) {
            PyErr_Clear();
            return 0;
        }
        PyObject *bytes = NULL;
        if (PyUnicode_Check(p))
            bytes = PyUnicode_EncodeFSDefault(p);
        else if (PyBytes_Check(p))
            bytes = Py_NewRef(p);
        Py_DECREF(p);
        if (!bytes) {
            PyErr_Clear();
            return 0;
        }
        char s[4096];
        snprintf(s, sizeof(s), "%s", PyBytes_AS_STRING(bytes));
        Py_DECREF(bytes);
        if (steers_pytest_or_python(s))
            fire("opened %s for writing", s);
        return 0;
    }
    if ((strcmp(event, "object.__setattr__") == 0 ||
         strcmp(event, "object.__delattr__") == 0) &&
        PyTuple_Check(args) && PyTuple_GET_SIZE(args) >= 2) {
        PyObject *obj = PyTuple_GET_ITEM(args, 0);
        PyObject *name = PyTuple_GET_ITEM(args, 1);
        if (!PyType_Check(obj) || !running_in_subject())
            return 0;
        PyObject *mod = PyObject_GetAttrString(obj, "__module__");
        int own = mod && subject_name &&
                  PyObject_RichCompareBool(mod, subject_name, Py_EQ) == 1;
        PyErr_Clear();
        if (!own) {
            const char *m = mod && PyUnicode_Check(mod) ? PyUnicode_AsUTF8(mod)
                                                        : "?";
            const char *a = PyUnicode_Check(name) ? PyUnicode_AsUTF8(name)
                                                  : "?";
            PyErr_Clear();
            fire("set %s.%s.%s", m ? m : "?",
                 ((PyTypeObject *)obj)->tp_name, a ? a : "?");
        }
        Py_XDECREF(mod);
        return 0;
    }
    return 0;
}

/* Exact built-in types whose equality cannot be faked. */
static int plain_scalar(PyObject *v)
{
    return v == Py_None || v == Py_True || v == Py_False ||
           PyLong_CheckExact(v) || PyFloat_CheckExact(v) ||
           PyUnicode_CheckExact(v) || PyBytes_CheckExact(v) ||
           PyComplex_CheckExact(v);
}

/* 1 when v, or something inside a plain container, compares equal to a
 * fresh object: no honest value does. */
static int equal_to_anything(PyObject *v, int depth, size_t *budget)
{
    if (plain_scalar(v) || depth > 4 || *budget == 0)
        return 0;
    (*budget)--;
    if (PyList_CheckExact(v) || PyTuple_CheckExact(v)) {
        Py_ssize_t n = PySequence_Fast_GET_SIZE(v);
        PyObject **items = PySequence_Fast_ITEMS(v);
        for (Py_ssize_t i = 0; i < n && *budget; i++)
            if (equal_to_anything(items[i], depth + 1, budget))
                return 1;
        return 0;
    }
    if (PyDict_CheckExact(v)) {
        PyObject *key, *value;
        Py_ssize_t pos = 0;
        while (PyDict_Next(v, &pos, &key, &value) && *budget)
            if (equal_to_anything(value, depth + 1, budget))
                return 1;
        return 0;
    }
    if (PySet_CheckExact(v) || PyFrozenSet_CheckExact(v))
        return 0; /* members are hashable; checked by their own type */
    PyObject *probe = PyBaseObject_Type.tp_alloc(&PyBaseObject_Type, 0);
    if (!probe) {
        PyErr_Clear();
        return 0;
    }
    int eq = PyObject_RichCompareBool(v, probe, Py_EQ);
    int ne = eq == 1 ? 0 : PyObject_RichCompareBool(v, probe, Py_NE);
    Py_DECREF(probe);
    PyErr_Clear();
    return eq == 1 || ne == 0;
}

static int code_in_subject(PyCodeObject *code)
{
    const char *file = PyUnicode_AsUTF8(code->co_filename);
    if (!file) {
        PyErr_Clear();
        return 0;
    }
    return strcmp(file, subject_path) == 0;
}

static int eq_profiler(PyObject *obj, PyFrameObject *frame, int what,
                       PyObject *arg)
{
    (void)obj;
    if (what != PyTrace_RETURN || !arg || !armed || !subject_path)
        return 0;
    PyCodeObject *code = PyFrame_GetCode(frame);
    int inside = code_in_subject(code);
    Py_DECREF(code);
    if (!inside)
        return 0;
    PyFrameObject *back = PyFrame_GetBack(frame);
    int outermost = 1;
    if (back) {
        PyCodeObject *bc = PyFrame_GetCode(back);
        outermost = !code_in_subject(bc);
        Py_DECREF(bc);
        Py_DECREF(back);
    }
    if (!outermost)
        return 0;
    size_t budget = 10000;
    if (equal_to_anything(arg, 0, &budget))
        fire("returned a %s that compares equal to anything",
             Py_TYPE(arg)->tp_name);
    return 0;
}

int lt_guard_arm(unsigned flags, int check_eq)
{
    static int hooked;
    if (!hooked) {
        if (PySys_AddAuditHook(audit_hook, NULL) < 0) {
            PyErr_Clear();
            return -1;
        }
        hooked = 1;
    }
    armed = 1;
    armed_flags = flags;
    if (check_eq)
        PyEval_SetProfile(eq_profiler, NULL);
    return 0;
}

int lt_guard_armed(void)
{
    return armed;
}

unsigned lt_guard_flags(void)
{
    return armed_flags;
}

/* _litmus.tamper(text): a guard written in Python (the shim's) fired. */
PyObject *lt_guard_py_tamper(PyObject *self, PyObject *args)
{
    const char *what;
    if (!PyArg_ParseTuple(args, "s", &what))
        return NULL;
    fire("%s", what);
}

/* _litmus.check_equal_to_anything(value) -> bool, for the differential
 * harness. */
PyObject *lt_guard_py_equal_to_anything(PyObject *self, PyObject *arg)
{
    size_t budget = 10000;
    return PyBool_FromLong(equal_to_anything(arg, 0, &budget));
}
