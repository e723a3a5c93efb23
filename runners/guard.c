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
#include "common/pyabi.h"

#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
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
    uint64_t version;    /* the dict's version when pinned, or 0: while
                          * the dict keeps it, the entry holds its value
                          * (a check after every test reads every entry;
                          * lookups were a third of a fast suite's run) */
};

static struct guard_entry *entries;
static size_t n_entries, cap_entries;
static int armed;
static unsigned armed_flags;
static char **subject_paths;    /* the candidate's files */
static size_t n_subject_paths;
static PyObject *subject_names; /* their module names (a tuple of str) */
static PyObject *subjects_before; /* [(copy of its dict, its dict)] of each
                                   * subject module, at the snapshot */
static PyObject *unpinned_names; /* packages never pinned (a tuple of
                                  * str): the framework when it is the
                                  * project under test */
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

/* The classes pinned (a set of addresses, open addressing; they live as
 * long as their entries hold them): an attribute set on one of them from
 * the candidate's code changes the framework.  A class the candidate's
 * code, or the package's, made while the tests ran is its own. */
static PyObject **pinned_types;
static size_t cap_pinned, n_pinned;

static size_t type_slot(PyObject *t, size_t cap)
{
    return ((uintptr_t)t >> 4) * 0x9E3779B97F4A7C15ull % cap;
}

static void pin_type(PyObject *t)
{
    if (2 * (n_pinned + 1) > cap_pinned) {
        size_t cap = cap_pinned ? 2 * cap_pinned : 1024;
        PyObject **tab = calloc(cap, sizeof(*tab));
        if (!tab)
            abort();
        for (size_t i = 0; i < cap_pinned; i++) {
            if (!pinned_types[i])
                continue;
            size_t k = type_slot(pinned_types[i], cap);
            while (tab[k])
                k = (k + 1) % cap;
            tab[k] = pinned_types[i];
        }
        free(pinned_types);
        pinned_types = tab;
        cap_pinned = cap;
    }
    size_t k = type_slot(t, cap_pinned);
    while (pinned_types[k] && pinned_types[k] != t)
        k = (k + 1) % cap_pinned;
    if (!pinned_types[k]) {
        pinned_types[k] = t;
        n_pinned++;
    }
}

static int is_pinned_type(PyObject *t)
{
    if (!cap_pinned)
        return 0;
    size_t k = type_slot(t, cap_pinned);
    while (pinned_types[k]) {
        if (pinned_types[k] == t)
            return 1;
        k = (k + 1) % cap_pinned;
    }
    return 0;
}

static void add_entry(PyObject *container, PyObject *key, PyObject *value,
                      PyObject *label)
{
    if (PyType_Check(value))
        pin_type(value);
    if (n_entries == cap_entries) {
        cap_entries = cap_entries ? cap_entries * 2 : 4096;
        entries = realloc(entries, cap_entries * sizeof(*entries));
        if (!entries)
            abort();
    }
    Py_INCREF(container);
    Py_XINCREF(key);
    Py_INCREF(value);
    Py_INCREF(label);
    entries[n_entries++] = (struct guard_entry){
        container, key, value, label, key ? lt_pyabi_dict_version(container) : 0};
}

/* Values worth pinning: what a candidate would replace to change how
 * tests run or report.  Data (counters, caches, streams) changes for
 * honest reasons and is left alone. */
static int pinnable(PyObject *v)
{
    return LT_PY_FUNCTION_CHECK(v) || PyCFunction_Check(v) ||
           PyType_Check(v) || PyModule_Check(v) || LT_PY_METHOD_CHECK(v) ||
           lt_py_is(v, lt_pyabi_types.classmethod) ||
           lt_py_is(v, lt_pyabi_types.staticmethod) ||
           Py_IS_TYPE(v, &PyProperty_Type);
}

/* Whether file (a code object's co_filename) is one of the candidate's
 * files: a repository candidate changes several. */
static int is_subject_file(const char *file)
{
    for (size_t i = 0; file && i < n_subject_paths; i++)
        if (strcmp(file, subject_paths[i]) == 0)
            return 1;
    return 0;
}

/* Whether mod (a __module__ value, or NULL) names a candidate module. */
static int is_subject_module(PyObject *mod)
{
    if (!mod || !subject_names)
        return 0;
    int in = PySequence_Contains(subject_names, mod) == 1;
    PyErr_Clear();
    return in;
}

/* Whether mod (a __module__ value, or NULL) is one of the unpinned
 * packages or a module inside one. */
static int is_unpinned_module(PyObject *mod)
{
    if (!mod || !unpinned_names || !PyUnicode_Check(mod))
        return 0;
    const char *m = PyUnicode_AsUTF8(mod);
    if (!m) {
        PyErr_Clear();
        return 0;
    }
    for (Py_ssize_t i = 0; i < PyTuple_Size(unpinned_names); i++) {
        const char *p = PyUnicode_AsUTF8(PyTuple_GetItem(unpinned_names, i));
        size_t n = p ? strlen(p) : 0;
        if (p && strncmp(m, p, n) == 0 && (m[n] == '\0' || m[n] == '.'))
            return 1;
    }
    PyErr_Clear();
    return 0;
}

/* The candidate's own objects move legitimately (tests that imported
 * its functions are rebound to the new ones).  Read in the zygote, from
 * the objects as the project defined them, before any candidate runs. */
static int from_subject(PyObject *v)
{
    if (LT_PY_FUNCTION_CHECK(v)) {
        PyObject *code = lt_py_function_code(v);
        const char *file = code ? lt_py_code_filename(code) : NULL;
        /* file lives as long as code: compared before the release. */
        int own = is_subject_file(file);
        Py_XDECREF(code);
        if (!own && subject_names) {
            /* A decorated function (a @contextmanager's helper, a
             * functools.wraps wrapper) runs code of another file but
             * keeps its module's name: it moves with its module too. */
            PyObject *mod = PyObject_GetAttrString(v, "__module__");
            own = is_subject_module(mod);
            Py_XDECREF(mod);
            PyErr_Clear();
        }
        if (!own && unpinned_names) {
            PyObject *mod = PyObject_GetAttrString(v, "__module__");
            own = is_unpinned_module(mod);
            Py_XDECREF(mod);
            PyErr_Clear();
        }
        return own;
    }
    if (PyType_Check(v) && (subject_names || unpinned_names)) {
        PyObject *mod = PyObject_GetAttrString(v, "__module__");
        int own = is_subject_module(mod) || is_unpinned_module(mod);
        Py_XDECREF(mod);
        PyErr_Clear();
        return own;
    }
    return 0;
}

static void pin_dict(PyObject *dict, PyObject *label, int depth);

/* The dict a class keeps its attributes in (tp_dict, outside the limited
 * API): the one object type.__dict__, a mappingproxy, refers to.  Pinned
 * and checked as a dict, the check reads it without reference counts,
 * so without writing to memory the fork shares.  A new reference, or
 * NULL when a metaclass gives __dict__ another meaning. */
static PyObject *type_dict(PyObject *type)
{
    PyObject *proxy = PyObject_GetAttrString(type, "__dict__");
    PyObject *gc = proxy && Py_IS_TYPE(proxy, &PyDictProxy_Type)
                       ? PyImport_ImportModule("gc")
                       : NULL;
    PyObject *refs = gc ? PyObject_CallMethod(gc, "get_referents", "O", proxy)
                        : NULL;
    PyObject *dict = NULL;
    if (refs && PyList_Check(refs) && PyList_Size(refs) == 1 &&
        PyDict_Check(PyList_GetItem(refs, 0))) {
        dict = PyList_GetItem(refs, 0);
        Py_INCREF(dict);
    }
    Py_XDECREF(refs);
    Py_XDECREF(gc);
    Py_XDECREF(proxy);
    PyErr_Clear();
    return dict;
}

/* Pins dict[key] to value. */
static void pin_item(PyObject *map, PyObject *key, PyObject *value,
                     PyObject *label, int depth)
{
    if (!pinnable(value) || from_subject(value))
        return;
    add_entry(map, key, value, label);
    PyObject *code = lt_py_function_code_peek(value);
    if (code)
        add_entry(value, NULL, code, label);
    /* Methods of mutable classes defined here, one level down. */
    if (depth == 0 && PyType_Check(value) &&
        !PyType_HasFeature((PyTypeObject *)value, Py_TPFLAGS_IMMUTABLETYPE)) {
        PyObject *dict = type_dict(value);
        char name[256];
        PyObject *sub = dict ? PyUnicode_FromFormat(
                                   "%U.%s", label,
                                   lt_py_type_name(value, name, sizeof(name)))
                             : NULL;
        if (sub)
            pin_dict(dict, sub, 1);
        Py_XDECREF(sub);
        Py_XDECREF(dict);
        PyErr_Clear();
    }
}

static void pin_dict(PyObject *dict, PyObject *label, int depth)
{
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    while (PyDict_Next(dict, &pos, &key, &value))
        pin_item(dict, key, value, label, depth);
}

/* pin_dict, but for the keys in skip (a tuple of str): values the
 * framework itself replaces while a test runs. */
static void pin_dict_skip(PyObject *dict, PyObject *label, PyObject *skip)
{
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    while (PyDict_Next(dict, &pos, &key, &value)) {
        int skipped = PySequence_Contains(skip, key) == 1;
        PyErr_Clear();
        if (!skipped)
            pin_item(dict, key, value, label, 0);
    }
}

/* Code object -> in the subject, for the profiler's return events:
 * co_filename is an attribute lookup in the limited API.  The cache holds
 * its code objects, so that no address is reused while cached; emptied
 * when the subject changes. */
#define CODE_CACHE_SIZE 256
static struct {
    PyObject *code;
    int inside;
} code_cache[CODE_CACHE_SIZE];

static void code_cache_clear(void)
{
    for (size_t i = 0; i < CODE_CACHE_SIZE; i++)
        Py_CLEAR(code_cache[i].code);
}

static int code_in_subject(PyObject *code)
{
    size_t slot = ((uintptr_t)code >> 4) % CODE_CACHE_SIZE;
    if (code_cache[slot].code == code)
        return code_cache[slot].inside;
    int inside = is_subject_file(lt_py_code_filename(code));
    Py_INCREF(code);
    Py_XSETREF(code_cache[slot].code, code);
    code_cache[slot].inside = inside;
    return inside;
}

/* Replaces the candidate's files by paths, a str or a sequence of str;
 * 0, or -1 with a Python error set. */
static int set_subject_paths(PyObject *paths)
{
    for (size_t i = 0; i < n_subject_paths; i++)
        free(subject_paths[i]);
    free(subject_paths);
    subject_paths = NULL;
    n_subject_paths = 0;
    PyObject *seq = PyUnicode_Check(paths)
                        ? PyTuple_Pack(1, paths)
                        : PySequence_Tuple(paths);
    if (!seq)
        return -1;
    Py_ssize_t n = PyTuple_Size(seq);
    subject_paths = calloc((size_t)n + 1, sizeof(char *));
    for (Py_ssize_t i = 0; subject_paths && i < n; i++) {
        const char *p = PyUnicode_AsUTF8(PyTuple_GetItem(seq, i));
        if (!p) {
            Py_DECREF(seq);
            return -1;
        }
        if (*p)
            subject_paths[n_subject_paths++] = strdup(p);
    }
    Py_DECREF(seq);
    return 0;
}

/* Each subject module's namespace as the zygote has it, beside the live
 * one: a change that re-executes a module binds new objects to its names,
 * and the runner points the names other modules imported at them
 * (moved_by_change). */
static int remember_subjects(void)
{
    Py_CLEAR(subjects_before);
    subjects_before = PyList_New(0);
    if (!subjects_before)
        return -1;
    PyObject *modules = PyImport_GetModuleDict(); /* borrowed */
    for (Py_ssize_t i = 0;
         subject_names && i < PyTuple_Size(subject_names); i++) {
        PyObject *mod = PyDict_GetItemWithError(
            modules, PyTuple_GetItem(subject_names, i));
        PyObject *d = mod && PyModule_Check(mod) ? PyModule_GetDict(mod)
                                                 : NULL;
        PyErr_Clear();
        if (!d)
            continue;
        PyObject *copy = PyDict_Copy(d);
        PyObject *pair = copy ? PyTuple_Pack(2, copy, d) : NULL;
        Py_XDECREF(copy);
        if (!pair || PyList_Append(subjects_before, pair) < 0) {
            Py_XDECREF(pair);
            return -1;
        }
        Py_DECREF(pair);
    }
    return 0;
}

/* Whether old may be code under test: a function or class of a subject
 * module, a builtin method of a plain object (`concat = "".join`), or any
 * other value; never another module's function or class, nor a module's
 * builtin function (a framework's, which a subject may have imported). */
static int owned_by_subject(PyObject *old)
{
    if (LT_PY_FUNCTION_CHECK(old) || PyType_Check(old)) {
        PyObject *mod = PyObject_GetAttrString(old, "__module__");
        int in = mod && subject_names && PyUnicode_Check(mod) &&
                 PySequence_Contains(subject_names, mod) == 1;
        Py_XDECREF(mod);
        PyErr_Clear();
        return in;
    }
    if (PyCFunction_Check(old)) {
        PyObject *self = PyCFunction_GetSelf(old); /* borrowed */
        return self && !PyModule_Check(self);
    }
    return 1;
}

/* Whether a pinned entry that held old, and holds now (NULL: deleted),
 * follows a subject module's own name: old, the module's own
 * (owned_by_subject), was bound to a name of the module at the snapshot,
 * and the module binds that name to now today (or no longer binds it).
 * The entry held code under test (`from pkg.mod import f` in a test
 * module); the candidate, which may change what f does, may change what
 * f is.  Read only on a mismatch. */
static int moved_by_change(PyObject *old, PyObject *now)
{
    if (!owned_by_subject(old))
        return 0;
    for (Py_ssize_t i = 0;
         subjects_before && i < PyList_Size(subjects_before); i++) {
        PyObject *pair = PyList_GetItem(subjects_before, i);
        PyObject *before = PyTuple_GetItem(pair, 0);
        PyObject *live = PyTuple_GetItem(pair, 1);
        Py_ssize_t pos = 0;
        PyObject *k, *v;
        while (PyDict_Next(before, &pos, &k, &v)) {
            if (v != old)
                continue;
            PyObject *cur = PyDict_GetItemWithError(live, k);
            if (!cur)
                PyErr_Clear();
            if (cur == now)
                return 1;
        }
    }
    return 0;
}

/* Whether a and b are one value: the same object, or two tuples (a
 * function's defaults) of the same objects.  Compares no contents:
 * no code of the program runs. */
static int same_objects(PyObject *a, PyObject *b)
{
    if (a == b)
        return 1;
    if (!a || !b || !PyTuple_CheckExact(a) || !PyTuple_CheckExact(b) ||
        PyTuple_Size(a) != PyTuple_Size(b))
        return 0;
    for (Py_ssize_t i = 0; i < PyTuple_Size(a); i++)
        if (PyTuple_GetItem(a, i) != PyTuple_GetItem(b, i))
            return 0;
    return 1;
}

/* Whether function now is function old made again: the same code and
 * globals, the same defaults, and closure cells that hold the same
 * objects.  A library that binds its functions anew each time one of its
 * objects is made (mpmath's MPContext() sets its special functions on
 * the class again, each a fresh closure over the same function) does not
 * tamper; a stand-in with other behaviour differs in its code, its
 * globals or what its closure holds.  Read only on a mismatch. */
static int remade_alike(PyObject *old, PyObject *now)
{
    if (!now || !LT_PY_FUNCTION_CHECK(old) || !LT_PY_FUNCTION_CHECK(now))
        return 0;
    static const char *const parts[] = {"__code__", "__globals__",
                                        "__defaults__", "__closure__"};
    int alike = 1;
    for (size_t i = 0; alike && i < sizeof(parts) / sizeof(parts[0]); i++) {
        PyObject *a = PyObject_GetAttrString(old, parts[i]);
        PyObject *b = PyObject_GetAttrString(now, parts[i]);
        if (!a || !b) {
            alike = 0;
        } else if (strcmp(parts[i], "__closure__") == 0 && a != Py_None &&
                   b != Py_None) {
            /* Cells: each pair must hold one object. */
            Py_ssize_t n = PyTuple_Check(a) && PyTuple_Check(b) &&
                                   PyTuple_Size(a) == PyTuple_Size(b)
                               ? PyTuple_Size(a)
                               : -1;
            alike = n >= 0;
            for (Py_ssize_t k = 0; alike && k < n; k++) {
                PyObject *x = PyObject_GetAttrString(PyTuple_GetItem(a, k),
                                                     "cell_contents");
                PyObject *y = PyObject_GetAttrString(PyTuple_GetItem(b, k),
                                                     "cell_contents");
                alike = x && y && x == y;
                Py_XDECREF(x);
                Py_XDECREF(y);
            }
        } else {
            alike = same_objects(a, b);
        }
        Py_XDECREF(a);
        Py_XDECREF(b);
    }
    if (alike) {
        /* Keyword-only defaults: a dict of the same objects. */
        PyObject *a = PyObject_GetAttrString(old, "__kwdefaults__");
        PyObject *b = PyObject_GetAttrString(now, "__kwdefaults__");
        alike = a && b && (a == b || (PyDict_Check(a) && PyDict_Check(b) &&
                                      PyDict_Size(a) == PyDict_Size(b)));
        Py_ssize_t pos = 0;
        PyObject *k, *v;
        while (alike && a != b && PyDict_Next(a, &pos, &k, &v)) {
            PyObject *w = PyDict_GetItemWithError(b, k); /* borrowed */
            alike = w == v;
        }
        Py_XDECREF(a);
        Py_XDECREF(b);
    }
    PyErr_Clear();
    return alike;
}

/* functools.partial, looked up when the guards are set. */
static PyObject *partial_type;

static int plain_scalar(PyObject *v);

/* Whether now is old with some of its arguments bound by its own
 * module, as an option setting does (pandas' `mode.use_inf_as_na` binds
 * `_isna = partial(_isna, inf_as_na=True)` in its own namespace): a
 * functools.partial of old itself, pinned in the dict old's code reads
 * its globals from (the module that defines it, not a re-export), every
 * bound argument a plain scalar.  The code that runs is still the
 * library's own.  Read only on a mismatch. */
static int own_partial(PyObject *container, PyObject *old, PyObject *now)
{
    if (!now || !partial_type || !lt_py_is(now, partial_type) ||
        !LT_PY_FUNCTION_CHECK(old))
        return 0;
    PyObject *func = PyObject_GetAttrString(now, "func");
    PyObject *globals = PyObject_GetAttrString(old, "__globals__");
    PyObject *args = PyObject_GetAttrString(now, "args");
    PyObject *kw = PyObject_GetAttrString(now, "keywords");
    int own = func == old && globals == container && args &&
              PyTuple_Check(args) && kw && PyDict_Check(kw);
    for (Py_ssize_t i = 0; own && i < PyTuple_Size(args); i++)
        own = plain_scalar(PyTuple_GetItem(args, i));
    Py_ssize_t pos = 0;
    PyObject *k, *v;
    while (own && PyDict_Next(kw, &pos, &k, &v))
        own = plain_scalar(v);
    Py_XDECREF(func);
    Py_XDECREF(globals);
    Py_XDECREF(args);
    Py_XDECREF(kw);
    PyErr_Clear();
    return own;
}

/* _litmus.guard_set(entries, subject_paths, subject_modules): entries is
 * a list of (dict, label) or (dict, label, skip) tuples, skip a tuple of
 * keys left alone; every function, class, module or method in each dict
 * is pinned to its current object (functions also to their
 * code), and so are the methods of the mutable classes found there.
 * subject_paths (a str or a list of str) are the candidate's files and
 * subject_modules (None, a str or a list of str) their modules: their
 * own objects are not pinned, since they move when the candidate is put
 * in place.  unpinned (optional, a list of str): packages whose objects
 * are code under test too (the framework, when the project is pytest). */
PyObject *lt_guard_py_set(PyObject *self, PyObject *args)
{
    PyObject *list, *paths, *names, *unpinned = NULL;
    if (!PyArg_ParseTuple(args, "O!OO|O", &PyList_Type, &list, &paths,
                          &names, &unpinned))
        return NULL;
    Py_CLEAR(unpinned_names);
    if (unpinned && unpinned != Py_None && PyObject_IsTrue(unpinned) == 1) {
        /* Kept only when it names something: every pinned function
         * would otherwise have its __module__ read for nothing. */
        unpinned_names = PySequence_Tuple(unpinned);
        if (!unpinned_names)
            return NULL;
        for (Py_ssize_t i = 0; i < PyTuple_Size(unpinned_names); i++)
            if (!PyUnicode_Check(PyTuple_GetItem(unpinned_names, i))) {
                PyErr_SetString(PyExc_TypeError,
                                "unpinned: a list of module names");
                Py_CLEAR(unpinned_names);
                return NULL;
            }
    }
    if (set_subject_paths(paths) < 0)
        return NULL;
    code_cache_clear();
    Py_CLEAR(subject_names);
    if (names != Py_None) {
        subject_names = PyUnicode_Check(names) ? PyTuple_Pack(1, names)
                                               : PySequence_Tuple(names);
        if (!subject_names)
            return NULL;
    }
    if (remember_subjects() < 0)
        return NULL;
    if (!partial_type) {
        PyObject *functools = PyImport_ImportModule("functools");
        partial_type = functools ? PyObject_GetAttrString(functools, "partial")
                                 : NULL;
        Py_XDECREF(functools);
        PyErr_Clear();
    }
    Py_ssize_t n = PyList_Size(list);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyList_GetItem(list, i);
        PyObject *obj, *label, *skip = NULL;
        if (!item || !PyArg_ParseTuple(item, "O!U|O!", &PyDict_Type, &obj,
                                       &label, &PyTuple_Type, &skip))
            return NULL;
        if (skip)
            pin_dict_skip(obj, label, skip);
        else
            pin_dict(obj, label, 0);
    }
    return PyLong_FromSize_t(n_entries);
}

/* _litmus.guard_unpin(names): stops watching the pinned entries named
 * "owner.key" in names (a list of str), in this child only: what the
 * instance's own tests replace at the base, with no candidate in place
 * (a test that installs sys.excepthook), is not a candidate's doing.
 * Returns how many entries it let go. */
PyObject *lt_guard_py_unpin(PyObject *self, PyObject *args)
{
    PyObject *names;
    (void)self;
    if (!PyArg_ParseTuple(args, "O!", &PyList_Type, &names))
        return NULL;
    size_t n = 0;
    for (size_t i = 0; i < n_entries; i++) {
        struct guard_entry *e = &entries[i];
        if (!e->container || !e->key || !PyUnicode_Check(e->key))
            continue;
        PyObject *full = PyUnicode_FromFormat("%U.%U", e->label, e->key);
        int hit = full && PySequence_Contains(names, full) == 1;
        Py_XDECREF(full);
        PyErr_Clear();
        if (hit) {
            /* Its references stay: the child never frees the array. */
            e->container = NULL;
            n++;
        }
    }
    return PyLong_FromSize_t(n);
}

void lt_guard_check(void)
{
    if (!armed)
        return;
    for (size_t i = 0; i < n_entries; i++) {
        struct guard_entry *e = &entries[i];
        PyObject *now;
        if (!e->container)
            continue; /* let go (lt_guard_py_unpin) */
        /* Borrowed reads only: a check that wrote reference counts
         * would copy every page of the zygote's that holds a pinned
         * object into each child. */
        if (e->key) {
            if (e->version && lt_pyabi_dict_version(e->container) == e->version)
                continue;
            now = PyDict_GetItemWithError(e->container, e->key);
            if (!now)
                PyErr_Clear();
        } else {
            now = lt_py_function_code_peek(e->container);
        }
        if (now == e->value ||
            (e->key && (moved_by_change(e->value, now) ||
                        remade_alike(e->value, now) ||
                        own_partial(e->container, e->value, now))))
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
    if (!f || !n_subject_paths)
        return 0;
    PyObject *code = (PyObject *)PyFrame_GetCode(f);
    int in = is_subject_file(lt_py_code_filename(code));
    Py_DECREF(code);
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

static char scratch_real[4096]; /* the child's scratch, resolved; "" if none */

void lt_guard_set_scratch(const char *dir)
{
    char r[PATH_MAX];
    scratch_real[0] = '\0';
    if (dir && realpath(dir, r) && strlen(r) < sizeof(scratch_real))
        snprintf(scratch_real, sizeof(scratch_real), "%s", r);
}

/* Whether a file written at path is a test's temporary project file in
 * the scratch folder: its folder, resolved (no link or ".." leads out),
 * is inside scratch, and it is not a file Python reads at start-up. */
static int scratch_project_file(const char *path)
{
    if (!scratch_real[0] || path[0] != '/')
        return 0;
    const char *base = strrchr(path, '/') + 1;
    size_t n = strlen(base);
    if (strcmp(base, "sitecustomize.py") == 0 ||
        strcmp(base, "usercustomize.py") == 0 ||
        (n > 4 && strcmp(base + n - 4, ".pth") == 0))
        return 0;
    char dir[PATH_MAX], real[PATH_MAX];
    size_t d = (size_t)(base - 1 - path);
    if (d == 0 || d >= sizeof(dir))
        return 0;
    memcpy(dir, path, d);
    dir[d] = '\0';
    if (!realpath(dir, real))
        return 0;
    size_t k = strlen(scratch_real);
    return strncmp(real, scratch_real, k) == 0 &&
           (real[k] == '\0' || real[k] == '/');
}

static int audit_hook(const char *event, PyObject *args, void *data)
{
    (void)data;
    if (!armed)
        return 0;
    if (strcmp(event, "open") == 0 && PyTuple_Check(args) &&
        PyTuple_Size(args) >= 3) {
        PyObject *path = PyTuple_GetItem(args, 0);
        PyObject *mode = PyTuple_GetItem(args, 1);
        PyObject *flags = PyTuple_GetItem(args, 2);
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
        const char *b = PyBytes_AsString(bytes);
        snprintf(s, sizeof(s), "%s", b ? b : "");
        Py_DECREF(bytes);
        PyErr_Clear();
        if (steers_pytest_or_python(s) && !scratch_project_file(s))
            fire("opened %s for writing", s);
        return 0;
    }
    if ((strcmp(event, "object.__setattr__") == 0 ||
         strcmp(event, "object.__delattr__") == 0) &&
        PyTuple_Check(args) && PyTuple_Size(args) >= 2) {
        PyObject *obj = PyTuple_GetItem(args, 0);
        PyObject *name = PyTuple_GetItem(args, 1);
        if (!PyType_Check(obj) || !is_pinned_type(obj) ||
            !running_in_subject())
            return 0;
        PyObject *mod = PyObject_GetAttrString(obj, "__module__");
        int own = is_subject_module(mod);
        if (!own) {
            const char *m = mod && PyUnicode_Check(mod) ? PyUnicode_AsUTF8(mod)
                                                        : "?";
            const char *a = PyUnicode_Check(name) ? PyUnicode_AsUTF8(name)
                                                  : "?";
            char t[256];
            PyErr_Clear();
            fire("set %s.%s.%s", m ? m : "?",
                 lt_py_type_name(obj, t, sizeof(t)), a ? a : "?");
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
        int list = PyList_CheckExact(v);
        Py_ssize_t n = list ? PyList_Size(v) : PyTuple_Size(v);
        for (Py_ssize_t i = 0; i < n && *budget; i++) {
            PyObject *item = list ? PyList_GetItem(v, i)
                                  : PyTuple_GetItem(v, i);
            if (!item) { /* the list shrank under an __eq__ */
                PyErr_Clear();
                return 0;
            }
            /* Held: an item's __eq__ may drop it from a list. */
            Py_INCREF(item);
            int any = equal_to_anything(item, depth + 1, budget);
            Py_DECREF(item);
            if (any)
                return 1;
        }
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
    PyObject *probe = PyObject_CallObject((PyObject *)&PyBaseObject_Type,
                                          NULL);
    if (!probe) {
        PyErr_Clear();
        return 0;
    }
    PyObject *eq_r = PyObject_RichCompare(v, probe, Py_EQ);
    PyErr_Clear();
    PyObject *ne_r = PyObject_RichCompare(v, probe, Py_NE);
    PyErr_Clear();
    Py_DECREF(probe);
    int eq = eq_r ? PyObject_IsTrue(eq_r) : -1;
    PyErr_Clear();
    int ne = ne_r ? PyObject_IsTrue(ne_r) : -1;
    PyErr_Clear();
    /* Both answers elementwise, two objects of one class that is not
     * bool (an array's, a pandas Index's array, an xarray Dataset's, true
     * whenever it holds variables, an empty Variable's, false both ways):
     * their truth says nothing of equality, unless they are one object (a
     * value that answers every comparison with itself). */
    int elementwise = eq_r && ne_r && eq_r != ne_r &&
                      Py_TYPE(eq_r) == Py_TYPE(ne_r) && !PyLong_Check(eq_r);
    Py_XDECREF(eq_r);
    Py_XDECREF(ne_r);
    return !elementwise && (eq == 1 || ne == 0);
}

/* Fires when a value the candidate's code hands back to code outside it
 * compares equal to anything. */
static void check_returned(PyObject *v)
{
    /* The comparisons the check makes run the candidate's __eq__, whose
     * answers go back to the check, not to the tests. */
    static _Thread_local int checking;
    if (checking)
        return;
    size_t budget = 10000;
    checking = 1;
    int any = equal_to_anything(v, 0, &budget);
    checking = 0;
    if (any) {
        char t[256];
        fire("returned a %s that compares equal to anything",
             lt_py_type_name((PyObject *)Py_TYPE(v), t, sizeof(t)));
    }
}

static int eq_profiler(PyObject *obj, PyFrameObject *frame, int what,
                       PyObject *arg)
{
    (void)obj;
    if (what != LT_PY_TRACE_RETURN || !arg || !armed || !n_subject_paths)
        return 0;
    PyObject *code = (PyObject *)PyFrame_GetCode(frame);
    int inside = code_in_subject(code);
    Py_DECREF(code);
    if (!inside)
        return 0;
    PyFrameObject *back = PyFrame_GetBack(frame);
    int outermost = 1;
    if (back) {
        PyObject *bc = (PyObject *)PyFrame_GetCode(back);
        outermost = !code_in_subject(bc);
        Py_DECREF(bc);
        Py_DECREF(back);
    }
    if (outermost)
        check_returned(arg);
    return 0;
}

/* The same check on the frame evaluation hook (CPython 3.11): only the
 * subject's frames pay for it, and calls keep their specializations,
 * where a profile function is called at every call and return of every
 * function, built-in ones included (four times a suite of fast tests'
 * CPU time).  A subject frame entered with none of the thread's running
 * is the outermost: a generator's resumption included, its value (a
 * yielded item) goes back to code outside the subject. */
static _Thread_local int eq_depth;

static PyObject *eq_eval(PyThreadState *ts, void *frame, int throwflag)
{
    if (!armed || !n_subject_paths ||
        !code_in_subject(lt_pyabi_frame_code(frame)))
        return lt_pyabi_eval_frame_default(ts, frame, throwflag);
    int outermost = eq_depth++ == 0;
    PyObject *r = lt_pyabi_eval_frame_default(ts, frame, throwflag);
    eq_depth--;
    if (r && outermost)
        check_returned(r);
    return r;
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
    if (check_eq && lt_pyabi_eval_frame_swap(NULL, eq_eval) < 0)
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
