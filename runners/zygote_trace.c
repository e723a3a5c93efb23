/* The zygote's line tracers: per-test coverage of the subject files
 * (with multi-line statements counted whole), import-time coverage, and
 * the lines executed in one named file for call evaluation; with the
 * `_litmus` methods that drive them.  SPDX-License-Identifier: MIT */
#include "common/pyabi.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/xmalloc.h"
#include "harness/wire.h"
#include "runners/zygote_internal.h"

/*** Per-test coverage of the subjects ***/

struct cov_file {
    char *path;
    unsigned char *hit; /* per line: executed in the current test */
    uint32_t n_lines;
    uint32_t *units;    /* pairs (first, last) of multi-line statements */
    uint32_t n_units;
};

static struct cov_file *cov_files;
static uint32_t n_cov_files;

/* Code object -> a small int, with a reference held so that an address
 * is never reused for another code object while cached: what the
 * tracers know of a code object, found once (co_filename is an attribute
 * lookup in the limited API). */
struct code_slot {
    PyObject *code;
    int value;
};

struct code_table {
    struct code_slot *slots;
    size_t cap, used; /* cap: a power of two */
};

static void code_table_grow(struct code_table *t)
{
    size_t cap = t->cap ? t->cap * 2 : 1024;
    struct code_slot *s = xcalloc(cap, sizeof(*s));
    for (size_t i = 0; i < t->cap; i++) {
        if (!t->slots[i].code)
            continue;
        size_t h = ((uintptr_t)t->slots[i].code >> 4) & (cap - 1);
        while (s[h].code)
            h = (h + 1) & (cap - 1);
        s[h] = t->slots[i];
    }
    free(t->slots);
    t->slots = s;
    t->cap = cap;
}

/* The slot of code, or the empty one where it goes. */
static struct code_slot *code_table_slot(struct code_table *t,
                                         PyObject *code)
{
    if (t->used * 2 >= t->cap)
        code_table_grow(t);
    size_t h = ((uintptr_t)code >> 4) & (t->cap - 1);
    while (t->slots[h].code && t->slots[h].code != code)
        h = (h + 1) & (t->cap - 1);
    return &t->slots[h];
}

/* 1 and *value when code is cached. */
static int code_table_get(struct code_table *t, PyObject *code, int *value)
{
    struct code_slot *s = code_table_slot(t, code);
    *value = s->value;
    return s->code != NULL;
}

/* Caches a code object missing from t; its slot is looked for again, as
 * finding the value may have run code. */
static void code_table_put(struct code_table *t, PyObject *code, int value)
{
    struct code_slot *s = code_table_slot(t, code);
    if (s->code)
        return;
    s->code = Py_NewRef(code);
    s->value = value;
    t->used++;
}

static void code_table_clear(struct code_table *t)
{
    for (size_t i = 0; i < t->cap; i++)
        Py_CLEAR(t->slots[i].code);
    t->used = 0;
}

/* Code object -> subject index (or -1). */
static struct code_table cov_cache;

static int subject_of_filename(PyObject *filename)
{
    const char *f = PyUnicode_AsUTF8(filename);
    if (!f) {
        PyErr_Clear();
        return -1;
    }
    for (uint32_t i = 0; i < n_cov_files; i++)
        if (strcmp(f, cov_files[i].path) == 0)
            return (int)i;
    char *real = realpath(f, NULL);
    int found = -1;
    for (uint32_t i = 0; real && i < n_cov_files && found < 0; i++)
        if (strcmp(real, cov_files[i].path) == 0)
            found = (int)i;
    free(real);
    return found;
}

static int subject_of_code(PyObject *code)
{
    int subject;
    if (code_table_get(&cov_cache, code, &subject))
        return subject;
    PyObject *filename = PyObject_GetAttrString(code, "co_filename");
    subject = filename ? subject_of_filename(filename) : -1;
    Py_XDECREF(filename);
    PyErr_Clear();
    code_table_put(&cov_cache, code, subject);
    return subject;
}

/* Line events of the current test: a measure of its work that, unlike
 * its time, is the same from run to run (see "Tracing only the subjects"
 * below for which lines count). */
static uint64_t cov_line_events;

/*** Tracing only the subjects ***/

/* A line tracer makes CPython 3.11 run every frame of the thread on its
 * slow path (each instruction checked, none specialized), whatever the
 * tracer does with the event: a hypothesis test, which runs mostly
 * hypothesis's own code, took twice as long traced.  So once a test has
 * had WIDE_LINE_EVENTS line events (every file's lines, which order the
 * tests by their work), a frame evaluation hook (PEP 523) goes in until
 * the test ends: every frame that starts from then on runs with the
 * tracer on when its code is a subject's and off when it is not, and
 * puts back, when it returns, the tracer as its caller had it.  The
 * frames already running at the mark keep the tracer (the hook never
 * sees them start or end): the test's function, the library loop that
 * calls it.  A test's work is then its first WIDE_LINE_EVENTS line
 * events plus the traced ones after them: the same from run to run, and
 * unchanged for every test below the mark, which never has the hook.
 * From 3.12 on, sys.monitoring does the same without the tracer (see
 * "Line events from sys.monitoring" below).  When neither can be had
 * (3.9-3.10; another frame evaluator, or another tool on our monitoring
 * id) and when the test installs a tracer of its own, the tracer stays
 * on for the whole test, as before. */
#define WIDE_LINE_EVENTS 65536

static int narrow_known = -1;        /* 3.11, and our audit hook is in */
static _Thread_local int narrow_on;  /* this thread's test is traced */
static _Thread_local int narrow;     /* past the mark: the hook is in */
static _Thread_local int marked;     /* past the mark */
static _Thread_local int traced;     /* our tracer is installed */
static _Thread_local int switching;  /* we are calling PyEval_SetTrace */
static _Thread_local int foreign;    /* the test set a tracer itself */

static int cov_tracer(PyObject *obj, PyFrameObject *frame, int what,
                      PyObject *arg);

/* Installs or removes our tracer in this thread, keeping any exception
 * being raised (PyEval_SetTrace runs the audit hooks). */
static void set_traced(int on)
{
    if (on == traced || foreign)
        return;
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    traced = on;
    switching = 1;
    PyEval_SetTrace(on ? cov_tracer : NULL, NULL);
    switching = 0;
    PyErr_Restore(type, value, tb);
}

/* The frame evaluation hook, past the mark: the frame runs traced when
 * its code is a subject's; its caller's tracer comes back after it. */
static PyObject *narrow_eval(PyThreadState *ts, void *frame, int throwflag)
{
    /* Frames run while we switch are the audit hooks' own; other
     * threads keep what they had. */
    if (!narrow || foreign || switching)
        return lt_pyabi_eval_frame_default(ts, frame, throwflag);
    int outer = traced;
    set_traced(subject_of_code(lt_pyabi_frame_code(frame)) >= 0);
    PyObject *r = lt_pyabi_eval_frame_default(ts, frame, throwflag);
    set_traced(outer);
    return r;
}

/* A tracer set by the test itself (sys.settrace, a coverage tool)
 * replaces ours, as it always did; from then on nothing switches
 * tracers in this test. */
static int narrow_audit(const char *event, PyObject *args, void *data)
{
    (void)args;
    (void)data;
    if (narrow_on && !switching && strcmp(event, "sys.settrace") == 0)
        foreign = 1;
    return 0;
}

/*** Line events from sys.monitoring (3.12 on) ***/

/* From 3.12 on a line tracer is itself built on sys.monitoring, and
 * litmus takes LINE events from it directly: a callback counts and
 * records each line, and past the mark it turns off every location whose
 * code is not a subject's (sys.monitoring.DISABLE), so that the
 * libraries' code runs uninstrumented, specialized, for the rest of the
 * test; restart_events() at the next test's start turns them back on.
 * Which lines count is the hook's rule made exact: a test's first
 * WIDE_LINE_EVENTS line events in any file, then its subjects' alone
 * (the frames running at the mark are not set apart: a location is off
 * or on for every frame).  The events reach the callback from every
 * thread, so no thread needs a tracer of its own, and a test's own
 * sys.settrace no longer takes the coverage away (it is another tool). */
static int monitor_known = -1; /* -1 not tried; 1 the tool is ours */
static int monitor_refused;    /* 3.12 on, yet the tool id was taken */
static int monitor_told;       /* the engine knows of the refusal */
static int monitor_on;         /* a test is being traced */
static int monitor_disabled;   /* locations were turned off since restart */

static PyObject *monitor_line(PyObject *self, PyObject *const *args,
                              Py_ssize_t nargs)
{
    (void)self;
    if (!monitor_on || nargs != 2)
        Py_RETURN_NONE;
    int subject = subject_of_code(args[0]);
    if (subject < 0) {
        if (cov_line_events >= WIDE_LINE_EVENTS) {
            monitor_disabled = 1;
            return Py_NewRef(lt_pyabi_monitoring_disable());
        }
        cov_line_events++;
        Py_RETURN_NONE;
    }
    cov_line_events++;
    long line = PyLong_AsLong(args[1]);
    if (line == -1 && PyErr_Occurred())
        PyErr_Clear();
    struct cov_file *f = &cov_files[subject];
    if (line > 0 && (unsigned long)line <= f->n_lines)
        f->hit[line] = 1;
    Py_RETURN_NONE;
}

static PyMethodDef monitor_line_def = {
    "litmus_line", (PyCFunction)(void (*)(void))(lt_py_fastcall)monitor_line,
    LT_PY_METH_FASTCALL, "A line of a traced test (sys.monitoring)."};

/* 1 when a test's lines come from sys.monitoring: tried once per process
 * (a child of the zygote), which then keeps the tool. */
static int monitor_usable(void)
{
    if (monitor_known < 0) {
        PyObject *fn = PyCFunction_NewEx(&monitor_line_def, NULL, NULL);
        int rc = fn ? lt_pyabi_monitoring_start("litmus", fn) : -1;
        monitor_known = rc == 0;
        monitor_refused = rc == -2;
        Py_XDECREF(fn);
        PyErr_Clear();
    }
    return monitor_known;
}

/* The first test a process traces with the line tracer although its
 * interpreter has sys.monitoring tells the engine (NEEDS), which warns
 * once a run: the baseline then costs what it cost before 3.12, and
 * nothing else would say why. */
static void monitor_tell_refused(uint32_t test)
{
    if (!monitor_refused || monitor_told)
        return;
    monitor_told = 1;
    lt__send_reply(lt__zygote.result_fd,
                   &(struct lt_reply){.type = LT_FRAME_NEEDS,
                                      .needs = {test,
                                                LT_NEEDS_LINE_TRACER}});
}

/* A test starts with every location on: only a restart makes sure of
 * it (the events turned off and on again leave off the locations of code
 * that did not run meanwhile). */
static void monitor_begin(void)
{
    if (monitor_disabled && lt_pyabi_monitoring_restart() == 0)
        monitor_disabled = 0;
    monitor_on = 1;
    lt_pyabi_monitoring_lines(1);
}

static void monitor_end(void)
{
    monitor_on = 0;
    lt_pyabi_monitoring_lines(0);
}

/*** A test's tracing, either way ***/

/* Starts a test's tracing (every line counted). */
static void narrow_begin(void)
{
    if (monitor_usable()) {
        monitor_begin();
        return;
    }
    if (narrow_known < 0) {
        narrow_known = lt_pyabi_eval_frame_swap(NULL, NULL) == 0 &&
                       PySys_AddAuditHook(narrow_audit, NULL) == 0;
        PyErr_Clear();
    }
    narrow = marked = foreign = 0;
    narrow_on = narrow_known > 0;
    traced = 0;
    set_traced(1);
}

/* Ends it: no tracer, no hook, no events. */
static void narrow_end(void)
{
    if (monitor_on) {
        monitor_end();
        return;
    }
    if (narrow)
        lt_pyabi_eval_frame_swap(narrow_eval, NULL);
    narrow = marked = narrow_on = foreign = 0;
    switching = 1;
    PyEval_SetTrace(NULL, NULL);
    switching = 0;
    traced = 0;
}

static int cov_tracer(PyObject *obj, PyFrameObject *frame, int what,
                      PyObject *arg)
{
    if (what != LT_PY_TRACE_LINE)
        return 0;
    cov_line_events++;
    /* The mark: the hook goes in (the tracer stays on for the frames
     * already running). */
    if (narrow_on && !marked && cov_line_events >= WIDE_LINE_EVENTS) {
        marked = 1;
        narrow = lt_pyabi_eval_frame_swap(NULL, narrow_eval) == 0;
    }
    PyObject *code = (PyObject *)PyFrame_GetCode(frame);
    int subject = subject_of_code(code);
    Py_DECREF(code);
    if (subject < 0)
        return 0;
    int line = PyFrame_GetLineNumber(frame);
    struct cov_file *f = &cov_files[subject];
    if (line > 0 && (uint32_t)line <= f->n_lines)
        f->hit[line] = 1;
    return 0;
}

/* _litmus.trace_begin(): a test starts; its line set starts empty and
 * the C tracer goes in. */
static PyObject *py_trace_begin(PyObject *self, PyObject *args)
{
    for (uint32_t i = 0; i < n_cov_files; i++)
        memset(cov_files[i].hit, 0, cov_files[i].n_lines + 1);
    cov_line_events = 0;
    narrow_begin();
    Py_RETURN_NONE;
}

/* Installed with threading.settrace(): a new thread calls it once and
 * gets the C tracer from then on; with sys.monitoring, whose events come
 * from every thread, no tracer at all. */
static PyObject *py_thread_trace_hook(PyObject *self, PyObject *args)
{
    PyEval_SetTrace(monitor_known > 0 ? NULL : cov_tracer, NULL);
    Py_RETURN_NONE;
}

/* _litmus.threads_need_tracer(): whether the tests' threads need
 * thread_trace_hook (not with sys.monitoring: on 3.12 a thread's
 * sys.settrace, even undone at once, re-instruments every code object
 * twice). */
static PyObject *py_threads_need_tracer(PyObject *self, PyObject *args)
{
    return PyBool_FromLong(!monitor_usable());
}

/* A multi-line simple statement (or a compound statement's header, or a
 * decorator) counts as executed when any of its lines is: the tracer only
 * sees the lines where bytecode starts, so a list literal's continuation
 * lines or a decorator's arguments would otherwise never be covered. */
static void cov_expand_units(void)
{
    for (uint32_t i = 0; i < n_cov_files; i++) {
        struct cov_file *f = &cov_files[i];
        for (uint32_t u = 0; u < f->n_units; u++) {
            uint32_t a = f->units[2 * u], b = f->units[2 * u + 1];
            int any = 0;
            for (uint32_t l = a; l <= b && !any; l++)
                any = f->hit[l];
            for (uint32_t l = a; any && l <= b; l++)
                f->hit[l] = 1;
        }
    }
}

/* _litmus.cover_add(index, [line, ...]): lines of subject `index` that
 * the current test executed elsewhere than under the tracer (in a
 * process it started); they join its coverage.  Lines outside the file
 * are dropped. */
static PyObject *py_cover_add(PyObject *self, PyObject *args)
{
    unsigned int idx;
    PyObject *list;
    if (!PyArg_ParseTuple(args, "IO!", &idx, &PyList_Type, &list))
        return NULL;
    if (idx >= n_cov_files)
        Py_RETURN_NONE;
    struct cov_file *f = &cov_files[idx];
    for (Py_ssize_t k = 0; k < PyList_Size(list); k++) {
        PyObject *item = PyList_GetItem(list, k);
        long line = item ? PyLong_AsLong(item) : -1;
        if (line == -1 && PyErr_Occurred())
            return NULL;
        if (line >= 1 && (unsigned long)line <= f->n_lines)
            f->hit[line] = 1;
    }
    Py_RETURN_NONE;
}

/* _litmus.set_units(index, [(first, last), ...]): the multi-line
 * statements of a subject (from the shim's ast walk).  Units outside the
 * file are dropped. */
static PyObject *py_set_units(PyObject *self, PyObject *args)
{
    unsigned int idx;
    PyObject *list;
    if (!PyArg_ParseTuple(args, "IO!", &idx, &PyList_Type, &list))
        return NULL;
    if (idx >= n_cov_files)
        Py_RETURN_NONE;
    struct cov_file *f = &cov_files[idx];
    Py_ssize_t n = PyList_Size(list);
    free(f->units);
    f->units = xcalloc((size_t)n * 2 + 1, sizeof(uint32_t));
    f->n_units = 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        unsigned int a, b;
        PyObject *item = PyList_GetItem(list, k);
        if (!item || !PyArg_ParseTuple(item, "II", &a, &b))
            return NULL;
        if (a < 1 || b < a || b > f->n_lines)
            continue;
        f->units[2 * f->n_units] = a;
        f->units[2 * f->n_units + 1] = b;
        f->n_units++;
    }
    Py_RETURN_NONE;
}

/*** Lines of one named file (call evaluation) ***/

/* Lines executed in one named file (call evaluation): the file is not a
 * subject of the zygote, so it has its own tracer. */
static PyObject *lines_file;      /* the filename traced */
static PyObject *lines_last_code; /* last code object seen in that file */
static struct code_table lines_cache; /* code object -> in that file */
static unsigned char *lines_hit;
static size_t lines_cap;

static int lines_tracer(PyObject *obj, PyFrameObject *frame, int what,
                        PyObject *arg)
{
    if (what != LT_PY_TRACE_LINE)
        return 0;
    PyObject *code = (PyObject *)PyFrame_GetCode(frame);
    int ours = code == lines_last_code;
    if (!ours && !code_table_get(&lines_cache, code, &ours)) {
        PyObject *f = PyObject_GetAttrString(code, "co_filename");
        ours = f && (f == lines_file ||
                     PyUnicode_Compare(f, lines_file) == 0);
        Py_XDECREF(f);
        PyErr_Clear();
        code_table_put(&lines_cache, code, ours);
    }
    if (ours && code != lines_last_code)
        Py_XSETREF(lines_last_code, Py_NewRef(code));
    Py_DECREF(code);
    if (!ours)
        return 0;
    int line = PyFrame_GetLineNumber(frame);
    if (line <= 0)
        return 0;
    if ((size_t)line >= lines_cap) {
        size_t cap = lines_cap ? lines_cap : 256;
        while (cap <= (size_t)line)
            cap *= 2;
        lines_hit = xrealloc(lines_hit, cap);
        memset(lines_hit + lines_cap, 0, cap - lines_cap);
        lines_cap = cap;
    }
    lines_hit[line] = 1;
    return 0;
}

/* _litmus.lines_begin(filename): traces the lines executed in that file
 * alone, from an empty set. */
static PyObject *py_lines_begin(PyObject *self, PyObject *args)
{
    PyObject *file;
    if (!PyArg_ParseTuple(args, "U", &file))
        return NULL;
    Py_XDECREF(lines_file);
    lines_file = Py_NewRef(file);
    Py_CLEAR(lines_last_code);
    code_table_clear(&lines_cache);
    if (lines_hit)
        memset(lines_hit, 0, lines_cap);
    PyEval_SetTrace(lines_tracer, NULL);
    Py_RETURN_NONE;
}

/* Stops tracing; the sorted executed line numbers. */
static PyObject *py_lines_end(PyObject *self, PyObject *args)
{
    PyEval_SetTrace(NULL, NULL);
    PyObject *out = PyList_New(0);
    for (size_t l = 1; out && l < lines_cap; l++) {
        if (!lines_hit[l])
            continue;
        PyObject *n = PyLong_FromSize_t(l);
        if (!n || PyList_Append(out, n) < 0) {
            Py_XDECREF(n);
            Py_CLEAR(out);
            break;
        }
        Py_DECREF(n);
    }
    return out;
}

/* Appends the lines hit in the subjects: a count, then (subject, line)
 * pairs. */
static void put_hit_lines(struct lt_wire_writer *w)
{
    uint32_t count = 0;
    for (uint32_t i = 0; i < n_cov_files; i++)
        for (uint32_t l = 1; l <= cov_files[i].n_lines; l++)
            count += cov_files[i].hit[l];
    lt_wire_put_u32(w, count);
    for (uint32_t i = 0; i < n_cov_files; i++)
        for (uint32_t l = 1; l <= cov_files[i].n_lines; l++)
            if (cov_files[i].hit[l]) {
                lt_wire_put_u32(w, i);
                lt_wire_put_u32(w, l);
            }
}

/* _litmus.trace_end(test): stops tracing and sends the test's COVERAGE
 * (its line events, then its lines) on the result pipe. */
static PyObject *py_trace_end(PyObject *self, PyObject *args)
{
    unsigned int idx;
    if (!PyArg_ParseTuple(args, "I", &idx))
        return NULL;
    narrow_end();
    monitor_tell_refused(idx);
    cov_expand_units();
    struct lt_wire_writer w;
    lt_wire_writer_init(&w, LT_FRAME_COVERAGE);
    lt_wire_put_u32(&w, idx);
    lt_wire_put_u64(&w, cov_line_events);
    put_hit_lines(&w);
    lt__send_frame(lt__zygote.result_fd, &w);
    Py_RETURN_NONE;
}

/* Per-test line sets for the n subjects of INIT, sized by their
 * sources. */
void lt__trace_init(char **paths, const size_t *source_lens,
                    const char **sources, uint32_t n)
{
    cov_files = xcalloc(n + 1, sizeof(*cov_files));
    n_cov_files = n;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t lines = 1;
        for (size_t k = 0; k < source_lens[i]; k++)
            lines += sources[i][k] == '\n';
        cov_files[i].path = xstrdup(paths[i]);
        cov_files[i].n_lines = lines;
        cov_files[i].hit = xcalloc(lines + 2, 1);
    }
}

/*** Import-time coverage ***/

static int import_tracing; /* zygote: tracing import and collection */
static struct timespec import_t0;

/* Starts tracing subject lines in the zygote: called when the first
 * subject is being imported, so everything that runs while the subjects
 * and the tests' modules are imported and the tests collected is seen. */
void lt__import_trace_begin(void)
{
    for (uint32_t i = 0; i < n_cov_files; i++)
        memset(cov_files[i].hit, 0, cov_files[i].n_lines + 1);
    clock_gettime(CLOCK_MONOTONIC, &import_t0);
    PyEval_SetTrace(cov_tracer, NULL);
    import_tracing = 1;
}

/* Stops that tracing and sends IMPORT_LINES (before READY): how long the
 * import and collection took from the first subject on (a fresh child
 * does it again, the engine allows for it), then (subject, line) pairs. */
void lt__import_trace_send(void)
{
    if (!import_tracing)
        return;
    PyEval_SetTrace(NULL, NULL);
    import_tracing = 0;
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    cov_expand_units();
    struct lt_wire_writer w;
    lt_wire_writer_init(&w, LT_FRAME_IMPORT_LINES);
    lt_wire_put_u64(&w, (uint64_t)(t1.tv_sec - import_t0.tv_sec) *
                            1000000000u +
                        (uint64_t)(t1.tv_nsec - import_t0.tv_nsec));
    put_hit_lines(&w);
    lt__send_frame(lt__zygote.engine_sock, &w);
}

/*** Audit events the baseline watches ***/

/* A Python audit hook is called for every audit event, and each call
 * builds the event's name and arguments as objects: the baseline's watch
 * of what the tests need (processes, sockets) cost a Python call for
 * every `open`, `compile`, `exec`, `sys._getframe` of the tests and their
 * libraries, and for every switch of the tracer above.  Here a C hook
 * picks the few events the watch wants by name and calls it for those
 * alone. */
#define AUDIT_WATCH_MAX 32

static PyObject *audit_watcher;               /* the Python callable */
static char *audit_events[AUDIT_WATCH_MAX];   /* the names it wants */
static size_t n_audit_events;

static int audit_watch_hook(const char *event, PyObject *args, void *data)
{
    (void)data;
    /* While the tracer switches (millions of times in a suite) the event
     * is our own sys.settrace, which the watch does not want. */
    if (!audit_watcher || switching)
        return 0;
    size_t k = 0;
    while (k < n_audit_events && strcmp(event, audit_events[k]) != 0)
        k++;
    if (k == n_audit_events)
        return 0;
    PyObject *r = PyObject_CallFunction(audit_watcher, "sO", event, args);
    Py_XDECREF(r);
    return r ? 0 : -1;
}

/* _litmus.audit_watch(callable, (event, ...)): callable(event, args) for
 * those audit events from now on, as sys.addaudithook would give it
 * every event (an exception it raises fails the audited operation, as
 * there).  A later call replaces the callable and the names. */
static PyObject *py_audit_watch(PyObject *self, PyObject *args)
{
    PyObject *fn, *names;
    if (!PyArg_ParseTuple(args, "OO!", &fn, &PyTuple_Type, &names))
        return NULL;
    Py_ssize_t n = PyTuple_Size(names);
    if (n > AUDIT_WATCH_MAX) {
        PyErr_SetString(PyExc_ValueError, "too many audit events");
        return NULL;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *item = PyTuple_GetItem(names, k);
        if (!item || !PyUnicode_Check(item) || !PyUnicode_AsUTF8(item)) {
            PyErr_SetString(PyExc_TypeError, "event names are str");
            return NULL;
        }
    }
    static int added;
    if (!added) {
        if (PySys_AddAuditHook(audit_watch_hook, NULL) < 0)
            return NULL;
        added = 1;
    }
    for (size_t k = 0; k < n_audit_events; k++)
        free(audit_events[k]);
    n_audit_events = 0;
    for (Py_ssize_t k = 0; k < n; k++)
        audit_events[n_audit_events++] =
            xstrdup(PyUnicode_AsUTF8(PyTuple_GetItem(names, k)));
    Py_XSETREF(audit_watcher, Py_NewRef(fn));
    Py_RETURN_NONE;
}

PyMethodDef lt__trace_methods[] = {
    {"trace_begin", py_trace_begin, METH_NOARGS, "Start line coverage."},
    {"trace_end", py_trace_end, METH_VARARGS, "Send a test's coverage."},
    {"lines_begin", py_lines_begin, METH_VARARGS,
     "Trace the lines executed in one file."},
    {"lines_end", py_lines_end, METH_NOARGS, "Stop; the lines executed."},
    {"cover_add", py_cover_add, METH_VARARGS,
     "Lines a test's own processes executed."},
    {"set_units", py_set_units, METH_VARARGS,
     "Multi-line statements of a subject, for coverage."},
    {"audit_watch", py_audit_watch, METH_VARARGS,
     "Call a function for the named audit events only."},
    {"thread_trace_hook", py_thread_trace_hook, METH_VARARGS,
     "threading.settrace hook that installs the C tracer."},
    {"threads_need_tracer", py_threads_need_tracer, METH_NOARGS,
     "Whether the tests' threads need thread_trace_hook."},
    {NULL, NULL, 0, NULL},
};
