/* What pyabi.h promises: the types the limited API does not name, and
 * the interpreter's start in one form that every CPython from 3.9 to 3.13
 * takes (PyConfig's layout changes from version to version, so the start
 * goes through the environment and the calls every version keeps).
 * Compiled into litmus-python.so only.  SPDX-License-Identifier: MIT */
#include "common/pyabi.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/pyload.h"

extern char **environ;

/* Deprecated since 3.12, still exported by 3.13's libpython.  UTF-8
 * mode must be set here: the legacy start reads no PYTHONUTF8. */
PyAPI_DATA(int) Py_NoSiteFlag;
PyAPI_DATA(int) Py_UTF8Mode;

struct lt_pyabi_types lt_pyabi_types;

static PyObject *attr_of(const char *module, const char *name)
{
    PyObject *m = PyImport_ImportModule(module);
    if (!m)
        return NULL;
    PyObject *v = PyObject_GetAttrString(m, name);
    Py_DECREF(m);
    /* The types live as long as the interpreter: kept without a count. */
    if (v)
        Py_DECREF(v);
    return v;
}

/* Where a function object keeps its code: a word at the same offset in
 * every function of one interpreter (after the object header, at another
 * offset in 3.9-3.10 than in 3.11-3.13).  Found once by looking for the
 * code pointers of two fresh functions among their first words, where
 * exactly one offset must hold each; 0: not found, and the attribute is
 * read instead. */
static size_t function_code_offset;

static size_t find_function_code_offset(void)
{
    static const char src[] = "def f():\n    pass\ndef g(x):\n    return x\n";
    PyObject *ns = PyDict_New();
    PyObject *co = Py_CompileString(src, "<litmus>", Py_file_input);
    PyObject *r = co && ns ? PyEval_EvalCode(co, ns, ns) : NULL;
    PyObject *fns[2] = {ns ? PyDict_GetItemString(ns, "f") : NULL,
                        ns ? PyDict_GetItemString(ns, "g") : NULL};
    /* The words of the object itself, no further. */
    PyObject *size = fns[0] ? PyObject_CallMethod(fns[0], "__sizeof__", NULL)
                            : NULL;
    size_t end = size && PyLong_Check(size) ? PyLong_AsSize_t(size) : 0;
    Py_XDECREF(size);
    size_t found = 0;
    for (size_t off = sizeof(PyObject);
         r && fns[0] && fns[1] && off + sizeof(void *) <= end;
         off += sizeof(void *)) {
        int all = 1;
        for (int k = 0; k < 2 && all; k++) {
            PyObject *code = PyObject_GetAttrString(fns[k], "__code__");
            all = code && *(PyObject **)((char *)fns[k] + off) == code;
            Py_XDECREF(code);
        }
        if (all) {
            if (found) { /* two candidates: trust neither */
                found = 0;
                break;
            }
            found = off;
        }
    }
    PyErr_Clear();
    Py_XDECREF(r);
    Py_XDECREF(co);
    Py_XDECREF(ns);
    return found;
}

PyObject *lt_py_function_code_peek(PyObject *fn)
{
    if (!LT_PY_FUNCTION_CHECK(fn))
        return NULL;
    if (function_code_offset)
        return *(PyObject **)((char *)fn + function_code_offset);
    /* Without the offset: the attribute, whose reference the function
     * keeps alive as long as it holds that code. */
    PyObject *code = lt_py_function_code(fn);
    Py_XDECREF(code);
    return code;
}

int lt_pyabi_init(void)
{
    if (lt_pyabi_types.function)
        return 0;
    struct lt_pyabi_types t = {
        attr_of("types", "FunctionType"), attr_of("types", "MethodType"),
        attr_of("types", "CodeType"), attr_of("builtins", "classmethod"),
        attr_of("builtins", "staticmethod")};
    if (!t.function || !t.method || !t.code || !t.classmethod ||
        !t.staticmethod)
        return -1;
    lt_pyabi_types = t;
    function_code_offset = find_function_code_offset();
    return 0;
}

PyObject *lt_py_function_code(PyObject *fn)
{
    PyObject *code = PyObject_GetAttrString(fn, "__code__");
    if (code && !LT_PY_CODE_CHECK(code)) {
        Py_DECREF(code);
        code = NULL;
    }
    if (!code)
        PyErr_Clear();
    return code;
}

const char *lt_py_code_filename(PyObject *code)
{
    PyObject *f = PyObject_GetAttrString(code, "co_filename");
    const char *s = NULL;
    if (f && PyUnicode_Check(f))
        s = PyUnicode_AsUTF8(f);
    /* co_filename is held by the code object: the UTF-8 copy is cached
     * in the str and lives as long as the code. */
    Py_XDECREF(f);
    if (!s)
        PyErr_Clear();
    return s;
}

/*** A dict's version tag (pyabi.h) ***/

uint64_t lt_pyabi_dict_version(PyObject *d)
{
    static int known = -1;
    if (known < 0) {
        int major = 0, minor = 0;
        known = sscanf(Py_GetVersion(), "%d.%d", &major, &minor) == 2 &&
                major == 3 && minor >= 9 && minor <= 11;
    }
    if (!known || !PyDict_CheckExact(d))
        return 0;
    uint64_t tag;
    memcpy(&tag, (const char *)d + 3 * sizeof(void *), sizeof(tag));
    return tag;
}

/*** The frame evaluation hook (pyabi.h) ***/

typedef void (*set_eval_frame_fn)(PyInterpreterState *, lt_py_eval_frame);
typedef lt_py_eval_frame (*get_eval_frame_fn)(PyInterpreterState *);
static lt_py_eval_frame eval_default;

/* dlsym hands back a data pointer; POSIX lets it be a function's. */
static void *symbol(const char *name)
{
    return dlsym(RTLD_DEFAULT, name);
}

int lt_pyabi_eval_frame_swap(lt_py_eval_frame from, lt_py_eval_frame to)
{
    static int known = -1;
    static set_eval_frame_fn set;
    static get_eval_frame_fn get;
    if (known < 0) {
        int major = 0, minor = 0;
        known = sscanf(Py_GetVersion(), "%d.%d", &major, &minor) == 2 &&
                major == 3 && minor == 11;
        if (known) {
            void *s = symbol("_PyInterpreterState_SetEvalFrameFunc");
            void *g = symbol("_PyInterpreterState_GetEvalFrameFunc");
            void *d = symbol("_PyEval_EvalFrameDefault");
            memcpy(&set, &s, sizeof(set));
            memcpy(&get, &g, sizeof(get));
            memcpy(&eval_default, &d, sizeof(eval_default));
            known = set && get && eval_default;
        }
    }
    if (!known)
        return -1;
    PyInterpreterState *interp = PyInterpreterState_Get();
    lt_py_eval_frame now = get(interp);
    if (now == eval_default)
        now = NULL;
    if (now != from)
        return -1;
    set(interp, to ? to : eval_default);
    return 0;
}

PyObject *lt_pyabi_eval_frame_default(PyThreadState *ts, void *frame,
                                      int throwflag)
{
    return eval_default(ts, frame, throwflag);
}

/* sys.monitoring: the module, its DISABLE and the LINE event's bit,
 * once the tool is litmus's. */
static PyObject *monitoring;
static PyObject *monitoring_disable;
static long monitoring_line_event;

/* Calls sys.monitoring.fn(args...) and drops the result; 0, or -1 with
 * the error cleared. */
static int monitoring_call(const char *fn, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    PyObject *args = Py_VaBuildValue(format, ap);
    va_end(ap);
    PyObject *f = args ? PyObject_GetAttrString(monitoring, fn) : NULL;
    PyObject *r = f ? PyObject_CallObject(f, args) : NULL;
    Py_XDECREF(f);
    Py_XDECREF(args);
    Py_XDECREF(r);
    if (!r)
        PyErr_Clear();
    return r ? 0 : -1;
}

int lt_pyabi_monitoring_start(const char *name, PyObject *line_callback)
{
    if (monitoring)
        return -1;
    PyObject *mon = PySys_GetObject("monitoring"); /* borrowed */
    PyObject *events = mon ? PyObject_GetAttrString(mon, "events") : NULL;
    PyObject *line = events ? PyObject_GetAttrString(events, "LINE") : NULL;
    PyObject *disable = mon ? PyObject_GetAttrString(mon, "DISABLE") : NULL;
    long bit = line ? PyLong_AsLong(line) : -1;
    Py_XDECREF(events);
    Py_XDECREF(line);
    PyErr_Clear();
    if (!mon || !disable || bit <= 0) {
        Py_XDECREF(disable);
        return -1;
    }
    monitoring = Py_NewRef(mon);
    /* use_tool_id raises when the id is taken. */
    if (monitoring_call("use_tool_id", "(is)", LT_PY_MONITORING_TOOL,
                        name) < 0)
        goto refused;
    if (monitoring_call("register_callback", "(ilO)", LT_PY_MONITORING_TOOL,
                        bit, line_callback) < 0) {
        monitoring_call("free_tool_id", "(i)", LT_PY_MONITORING_TOOL);
        goto refused;
    }
    monitoring_disable = disable;
    monitoring_line_event = bit;
    return 0;
refused:
    Py_CLEAR(monitoring);
    Py_DECREF(disable);
    return -2;
}

int lt_pyabi_monitoring_lines(int on)
{
    if (!monitoring)
        return -1;
    return monitoring_call("set_events", "(il)", LT_PY_MONITORING_TOOL,
                           on ? monitoring_line_event : 0L);
}

int lt_pyabi_monitoring_restart(void)
{
    return monitoring ? monitoring_call("restart_events", "()") : -1;
}

PyObject *lt_pyabi_monitoring_disable(void)
{
    return monitoring_disable;
}

const char *lt_py_type_name(PyObject *type, char *buf, size_t size)
{
    PyObject *n = PyObject_GetAttrString(type, "__name__");
    const char *s = n && PyUnicode_Check(n) ? PyUnicode_AsUTF8(n) : NULL;
    snprintf(buf, size, "%s", s ? s : "?");
    Py_XDECREF(n);
    PyErr_Clear();
    return buf;
}

/*** Start-up ***/

static const char *const settings[][2] = LT_PYTHON_SETTINGS;
#define N_SETTINGS (sizeof(settings) / sizeof(settings[0]))

struct saved_var {
    char *name, *value;
};

/* The environment's variables whose names start with prefix, their names
 * without its first `strip` bytes; NULL when out of memory. */
static struct saved_var *vars_with_prefix(const char *prefix, size_t strip,
                                          size_t *n)
{
    size_t plen = strlen(prefix), cap = 0;
    for (char **e = environ; *e; e++)
        cap += strncmp(*e, prefix, plen) == 0;
    struct saved_var *v = calloc(cap + 1, sizeof(*v));
    *n = 0;
    if (!v)
        return NULL;
    for (char **e = environ; *e && *n < cap; e++) {
        const char *eq = strchr(*e, '=');
        if (strncmp(*e, prefix, plen) != 0 || !eq ||
            (size_t)(eq - *e) < strip)
            continue;
        v[*n].name = strndup(*e + strip, (size_t)(eq - *e) - strip);
        v[*n].value = strdup(eq + 1);
        if (!v[*n].name || !v[*n].value)
            abort();
        (*n)++;
    }
    return v;
}

static void free_vars(struct saved_var *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(v[i].name);
        free(v[i].value);
    }
    free(v);
}

/* Takes every PYTHON* variable out of the environment; returns them. */
static struct saved_var *take_python_vars(size_t *n)
{
    struct saved_var *v = vars_with_prefix("PYTHON", 0, n);
    for (size_t i = 0; v && i < *n; i++)
        unsetenv(v[i].name);
    return v;
}

/* Puts the caller's PYTHON* variables back, and takes ours out, through
 * os.environ (which keeps the C environment in step). */
static int restore_python_vars(struct saved_var *v, size_t n)
{
    PyObject *os = PyImport_ImportModule("os");
    PyObject *env = os ? PyObject_GetAttrString(os, "environ") : NULL;
    int rc = env ? 0 : -1;
    for (size_t i = 0; env && i < N_SETTINGS; i++) {
        PyObject *key = PyUnicode_DecodeFSDefault(settings[i][0]);
        if (!key || (PyMapping_HasKey(env, key) &&
                     PyObject_DelItem(env, key) < 0))
            rc = -1;
        Py_XDECREF(key);
    }
    for (size_t i = 0; env && i < n; i++) {
        PyObject *key = PyUnicode_DecodeFSDefault(v[i].name);
        PyObject *val = PyUnicode_DecodeFSDefault(v[i].value);
        if (!key || !val || PyObject_SetItem(env, key, val) < 0)
            rc = -1;
        Py_XDECREF(key);
        Py_XDECREF(val);
    }
    Py_XDECREF(env);
    Py_XDECREF(os);
    return rc;
}

int lt_pyabi_start(const char *python, int site, char *err, size_t errsize)
{
    size_t n_saved = 0;
    struct saved_var *saved = take_python_vars(&n_saved);
    if (!saved) {
        snprintf(err, errsize, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < N_SETTINGS; i++)
        setenv(settings[i][0], settings[i][1], 1);
    /* The program name stays referenced by the interpreter: never freed. */
    wchar_t *name = Py_DecodeLocale(python, NULL);
    if (!name) {
        snprintf(err, errsize, "cannot decode the interpreter's path %s",
                 python);
        return -1;
    }
    /* Deprecated since 3.11 for PyConfig, whose layout is per version;
     * still in 3.13. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    Py_SetProgramName(name);
#pragma GCC diagnostic pop
    if (!site)
        Py_NoSiteFlag = 1;
    Py_UTF8Mode = 1;
    /* 0: no signal handlers; SIGINT and friends stay the engine's. */
    Py_InitializeEx(0);
    int rc = 0;
    if (!Py_IsInitialized()) {
        snprintf(err, errsize, "%s: the interpreter did not start", python);
        rc = -1;
    } else if (restore_python_vars(saved, n_saved) < 0 ||
               lt_pyabi_init() < 0) {
        PyErr_Clear();
        snprintf(err, errsize, "%s: the interpreter started without os or "
                 "types", python);
        rc = -1;
    }
    free_vars(saved, n_saved);
    return rc;
}

/* Contract: see pyabi.h. */
int lt_pyabi_adopt(char *err, size_t errsize)
{
    size_t n = 0;
    struct saved_var *v = vars_with_prefix(
        LT_PYTHON_SAVED_PREFIX, strlen(LT_PYTHON_SAVED_PREFIX), &n);
    if (!v) {
        snprintf(err, errsize, "out of memory");
        return -1;
    }
    /* The prefixed copies go too, through os.environ as the rest. */
    PyObject *os = PyImport_ImportModule("os");
    PyObject *env = os ? PyObject_GetAttrString(os, "environ") : NULL;
    int rc = env ? 0 : -1;
    for (size_t i = 0; env && i < n; i++) {
        PyObject *key = PyUnicode_FromFormat("%s%s", LT_PYTHON_SAVED_PREFIX,
                                             v[i].name);
        if (!key || (PyMapping_HasKey(env, key) &&
                     PyObject_DelItem(env, key) < 0))
            rc = -1;
        Py_XDECREF(key);
    }
    Py_XDECREF(env);
    Py_XDECREF(os);
    if (rc < 0 || restore_python_vars(v, n) < 0 || lt_pyabi_init() < 0) {
        PyErr_Clear();
        snprintf(err, errsize, "the interpreter started without os or "
                 "types");
        rc = -1;
    }
    free_vars(v, n);
    return rc;
}
