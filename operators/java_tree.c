/* The Java syntax tree for the embedded dataset generators: module
 * `_lt_java`, a thin view of the vendored tree-sitter-java parse, so that
 * operators/ds_java*.py read Java through its grammar, never through
 * patterns on the text.
 * SPDX-License-Identifier: MIT */
#include "common/pyabi.h"

#include "operators/operators.h"

#include <string.h>

#ifdef LT_HAVE_TREE_SITTER
#include <tree_sitter/api.h>

const TSLanguage *tree_sitter_java(void);

/* One parser for the process; every call holds the GIL, which serialises
 * its use. */
static TSParser *parser;
/* Interned type and field names, by symbol and field id. */
static PyObject **type_names;
static uint32_t n_types;
static PyObject **field_names;
static uint32_t n_fields;

static int ensure_parser(void)
{
    if (parser)
        return 0;
    const TSLanguage *lang = tree_sitter_java();
    TSParser *p = ts_parser_new();
    if (!p || !ts_parser_set_language(p, lang)) {
        if (p)
            ts_parser_delete(p);
        PyErr_SetString(PyExc_RuntimeError,
                        "tree-sitter-java does not load");
        return -1;
    }
    n_types = ts_language_symbol_count(lang);
    n_fields = ts_language_field_count(lang) + 1;
    type_names = PyMem_Calloc(n_types, sizeof(*type_names));
    field_names = PyMem_Calloc(n_fields, sizeof(*field_names));
    if (!type_names || !field_names) {
        ts_parser_delete(p);
        PyErr_NoMemory();
        return -1;
    }
    parser = p;
    return 0;
}

static TSTree *parse_bytes(PyObject *arg)
{
    char *buf;
    Py_ssize_t len;
    if (PyBytes_AsStringAndSize(arg, &buf, &len) < 0)
        return NULL;
    if (len > (Py_ssize_t)UINT32_MAX / 2) {
        PyErr_SetString(PyExc_ValueError, "source too large");
        return NULL;
    }
    if (ensure_parser() < 0)
        return NULL;
    TSTree *t = ts_parser_parse_string(parser, NULL, buf, (uint32_t)len);
    if (!t)
        PyErr_SetString(PyExc_RuntimeError, "tree-sitter parse failed");
    return t;
}

static PyObject *type_name(TSNode n)
{
    TSSymbol s = ts_node_symbol(n);
    if (s >= n_types)
        return PyUnicode_FromString(ts_node_type(n));
    if (!type_names[s]) {
        type_names[s] = PyUnicode_InternFromString(ts_node_type(n));
        if (!type_names[s])
            return NULL;
    }
    Py_INCREF(type_names[s]);
    return type_names[s];
}

static PyObject *field_name(TSTreeCursor *c)
{
    TSFieldId f = ts_tree_cursor_current_field_id(c);
    if (f == 0 || f >= n_fields)
        Py_RETURN_NONE;
    if (!field_names[f]) {
        field_names[f] =
            PyUnicode_InternFromString(ts_tree_cursor_current_field_name(c));
        if (!field_names[f])
            return NULL;
    }
    Py_INCREF(field_names[f]);
    return field_names[f];
}

static PyObject *node_tuple(TSTreeCursor *c, Py_ssize_t parent)
{
    TSNode n = ts_tree_cursor_current_node(c);
    TSPoint sp = ts_node_start_point(n), ep = ts_node_end_point(n);
    PyObject *t = PyTuple_New(11);
    if (!t)
        return NULL;
    PyObject *items[11] = {
        type_name(n),
        PyBool_FromLong(ts_node_is_named(n)),
        field_name(c),
        PyLong_FromUnsignedLong(ts_node_start_byte(n)),
        PyLong_FromUnsignedLong(ts_node_end_byte(n)),
        PyLong_FromUnsignedLong(sp.row),
        PyLong_FromUnsignedLong(sp.column),
        PyLong_FromUnsignedLong(ep.row),
        PyLong_FromUnsignedLong(ep.column),
        PyLong_FromSsize_t(parent),
        PyBool_FromLong(ts_node_is_missing(n) ||
                        strcmp(ts_node_type(n), "ERROR") == 0),
    };
    for (int i = 0; i < 11; i++) {
        if (!items[i]) {
            /* Slots before i hold their items already (SetItem would
             * release what it replaces): fill the rest for the DECREF. */
            for (int j = i; j < 11; j++) {
                if (!items[j]) {
                    Py_INCREF(Py_None);
                    items[j] = Py_None;
                }
                PyTuple_SetItem(t, j, items[j]);
            }
            Py_DECREF(t);
            return NULL;
        }
        /* Steals items[i], as the macro did; cannot fail on a fresh
         * tuple. */
        PyTuple_SetItem(t, i, items[i]);
    }
    return t;
}

/* parse(source: bytes) -> (has_error, nodes): the nodes in preorder, each
 * (type, named, field, start_byte, end_byte, start_row, start_col,
 * end_row, end_col, parent_index, bad), columns in bytes, parent -1 for
 * the root; bad is true for ERROR and MISSING nodes. */
static PyObject *py_parse(PyObject *self, PyObject *arg)
{
    TSTree *tree = parse_bytes(arg);
    if (!tree)
        return NULL;
    TSNode root = ts_tree_root_node(tree);
    PyObject *list = PyList_New(0), *res = NULL;
    Py_ssize_t *stack = NULL;
    size_t depth = 0, cap = 64;
    TSTreeCursor c = ts_tree_cursor_new(root);
    stack = PyMem_Malloc(cap * sizeof(*stack));
    if (!list || !stack)
        goto out;
    Py_ssize_t parent = -1;
    for (;;) {
        PyObject *t = node_tuple(&c, parent);
        if (!t || PyList_Append(list, t) < 0) {
            Py_XDECREF(t);
            goto out;
        }
        Py_DECREF(t);
        Py_ssize_t me = PyList_Size(list) - 1;
        if (ts_tree_cursor_goto_first_child(&c)) {
            if (depth == cap) {
                cap *= 2;
                Py_ssize_t *s2 = PyMem_Realloc(stack, cap * sizeof(*stack));
                if (!s2)
                    goto out;
                stack = s2;
            }
            stack[depth++] = parent;
            parent = me;
            continue;
        }
        while (!ts_tree_cursor_goto_next_sibling(&c)) {
            if (depth == 0 || !ts_tree_cursor_goto_parent(&c))
                goto done;
            parent = stack[--depth];
        }
    }
done:
    res = Py_BuildValue("(OO)", ts_node_has_error(root) ? Py_True : Py_False,
                        list);
out:
    if (!res && !PyErr_Occurred())
        PyErr_NoMemory();
    ts_tree_cursor_delete(&c);
    PyMem_Free(stack);
    Py_XDECREF(list);
    ts_tree_delete(tree);
    return res;
}

/* has_error(source: bytes) -> bool: whether the parse has an ERROR or
 * MISSING node; the quick check of a generated variant. */
static PyObject *py_has_error(PyObject *self, PyObject *arg)
{
    TSTree *tree = parse_bytes(arg);
    if (!tree)
        return NULL;
    int bad = ts_node_has_error(ts_tree_root_node(tree));
    ts_tree_delete(tree);
    return PyBool_FromLong(bad);
}
/* The row and byte column of offset `off` in buf. */
static TSPoint point_at(const char *buf, uint32_t off)
{
    TSPoint p = {0, 0};
    uint32_t line = 0;
    for (uint32_t i = 0; i < off; i++)
        if (buf[i] == '\n') {
            p.row++;
            line = i + 1;
        }
    p.column = off - line;
    return p;
}

/* edits_have_errors(source: bytes, edits: [(start, end, replacement:
 * bytes)]) -> [bool]: for each edit on its own, whether source with
 * source[start:end] replaced has an ERROR or MISSING node.  The source is
 * parsed once; each edited text is parsed incrementally from a copy of
 * that tree, which costs a fraction of a fresh parse. */
static PyObject *py_edits_have_errors(PyObject *self, PyObject *args)
{
    PyObject *src, *edits;
    if (!PyArg_ParseTuple(args, "SO!", &src, &PyList_Type, &edits))
        return NULL;
    TSTree *base = parse_bytes(src);
    if (!base)
        return NULL;
    /* "S" made src bytes, and parse_bytes read it already. */
    const char *buf = PyBytes_AsString(src);
    Py_ssize_t len = PyBytes_Size(src);
    PyObject *out = PyList_New(0);
    char *work = NULL;
    size_t cap = 0;
    if (!out)
        goto fail;
    for (Py_ssize_t i = 0; i < PyList_Size(edits); i++) {
        Py_ssize_t start, end;
        const char *rep;
        Py_ssize_t rlen;
        PyObject *edit = PyList_GetItem(edits, i);
        if (!edit || !PyArg_ParseTuple(edit, "nny#", &start, &end, &rep,
                                       &rlen))
            goto fail;
        if (start < 0 || end < start || end > len) {
            PyErr_SetString(PyExc_ValueError, "edit out of range");
            goto fail;
        }
        size_t n = (size_t)(len - (end - start) + rlen);
        if (n + 1 > cap) {
            char *w = PyMem_Realloc(work, n + 1);
            if (!w) {
                PyErr_NoMemory();
                goto fail;
            }
            work = w;
            cap = n + 1;
        }
        memcpy(work, buf, (size_t)start);
        memcpy(work + start, rep, (size_t)rlen);
        memcpy(work + start + rlen, buf + end, (size_t)(len - end));
        TSInputEdit e = {
            .start_byte = (uint32_t)start,
            .old_end_byte = (uint32_t)end,
            .new_end_byte = (uint32_t)(start + rlen),
            .start_point = point_at(buf, (uint32_t)start),
            .old_end_point = point_at(buf, (uint32_t)end),
            .new_end_point = point_at(work, (uint32_t)(start + rlen)),
        };
        TSTree *old = ts_tree_copy(base);
        ts_tree_edit(old, &e);
        TSTree *t = ts_parser_parse_string(parser, old, work, (uint32_t)n);
        ts_tree_delete(old);
        if (!t) {
            PyErr_SetString(PyExc_RuntimeError, "tree-sitter parse failed");
            goto fail;
        }
        int bad = ts_node_has_error(ts_tree_root_node(t));
        ts_tree_delete(t);
        if (PyList_Append(out, bad ? Py_True : Py_False) < 0)
            goto fail;
    }
    PyMem_Free(work);
    ts_tree_delete(base);
    return out;
fail:
    PyMem_Free(work);
    ts_tree_delete(base);
    Py_XDECREF(out);
    return NULL;
}
#else
static PyObject *py_edits_have_errors(PyObject *self, PyObject *args)
{
    PyErr_SetString(PyExc_ValueError,
                    "Java needs tree-sitter, which this litmus was built "
                    "without");
    return NULL;
}

static PyObject *py_parse(PyObject *self, PyObject *arg)
{
    PyErr_SetString(PyExc_ValueError,
                    "Java needs tree-sitter, which this litmus was built "
                    "without");
    return NULL;
}

static PyObject *py_has_error(PyObject *self, PyObject *arg)
{
    return py_parse(self, arg);
}
#endif

static PyMethodDef methods[] = {
    {"parse", py_parse, METH_O,
     "parse(source: bytes) -> (has_error, [node tuple])"},
    {"has_error", py_has_error, METH_O,
     "has_error(source: bytes) -> bool"},
    {"edits_have_errors", py_edits_have_errors, METH_VARARGS,
     "edits_have_errors(source: bytes, [(start, end, bytes)]) -> [bool]"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_lt_java",
    "tree-sitter-java syntax trees for the dataset generators", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__lt_java(void);

/* The module's init function: also the entry point when the file is built
 * as an extension module for the generators' pytest suite. */
PyMODINIT_FUNC PyInit__lt_java(void)
{
    return PyModule_Create(&module);
}

/* Puts `_lt_java` in sys.modules of the running interpreter (GIL held);
 * 0, or -1 with a Python exception set. */
int lt__java_tree_register(void)
{
    PyObject *mods = PyImport_GetModuleDict();
    if (PyDict_GetItemString(mods, "_lt_java"))
        return 0;
    PyObject *m = PyInit__lt_java();
    if (!m)
        return -1;
    int rc = PyDict_SetItemString(mods, "_lt_java", m);
    Py_DECREF(m);
    return rc;
}
