/* The zygote process and the child it forks per job: embedded CPython
 * (isolated config), the `_litmus` C module the Python shim reports
 * through, the fork server loop, and the engine-side spawn helpers.
 * SPDX-License-Identifier: MIT */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "runners/runner.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/cov.h"
#include "common/err.h"
#include "common/xmalloc.h"
#include "harness/wire.h"
#include "runners/frames.h"
#include "runners/guard.h"
#include "runners/internal.h"
#include "sandbox/sandbox.h"

extern const char lt_shim_py[];
extern const size_t lt_shim_py_len;
extern const char lt_calls_py[];
extern const size_t lt_calls_py_len;
extern const char lt_inputs_py[];
extern const size_t lt_inputs_py_len;

/*** Engine side: spawning and commands ***/

/* Whether the variable `entry` ("NAME=value") goes to the zygote: what
 * Python, pytest and the tests' locale need, and what --pass-env names.
 * Everything else (CI tokens, cloud keys) stays with litmus: the tests,
 * mutants and candidate patches never see it. */
static int env_passes(const char *entry, const struct lt_runner_config *cfg)
{
    static const char *const names[] = {"PATH", "HOME", "TMPDIR", "LANG",
                                        "LANGUAGE", "TZ", "VIRTUAL_ENV"};
    static const char *const prefixes[] = {"LC_", "PYTHON", "PYTEST_"};
    size_t len = strcspn(entry, "=");
    if (entry[len] != '=')
        return 0;
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (strlen(names[i]) == len && strncmp(entry, names[i], len) == 0)
            return 1;
    for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
        if (strncmp(entry, prefixes[i], strlen(prefixes[i])) == 0)
            return 1;
    for (size_t i = 0; i < cfg->n_pass_env; i++)
        if (strlen(cfg->pass_env[i]) == len &&
            strncmp(entry, cfg->pass_env[i], len) == 0)
            return 1;
    return 0;
}

/* The zygote's environment (a NULL-terminated array of pointers into
 * environ; the caller frees the array only). */
static char **zygote_env(const struct lt_runner_config *cfg)
{
    extern char **environ;
    size_t n = 0;
    while (environ[n])
        n++;
    char **env = xcalloc(n + 1, sizeof(char *));
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (env_passes(environ[i], cfg))
            env[k++] = environ[i];
    return env;
}

/* Contract: see runner.h.  The zygote's end of the socketpair becomes fd 3
 * of the new process; everything else of ours is close-on-exec. */
int lt_zygote_spawn(const struct lt_runner_config *cfg, pid_t *pid,
                    int *sock)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
        return -errno;
    char **env = zygote_env(cfg);
    pid_t p = fork();
    if (p < 0) {
        int rc = -errno;
        free(env);
        close(sv[0]);
        close(sv[1]);
        return rc;
    }
    if (p == 0) {
        /* dup2 onto itself would keep close-on-exec: clear it by hand. */
        if (sv[1] == 3 ? fcntl(3, F_SETFD, 0) < 0 : dup2(sv[1], 3) < 0)
            _exit(127);
        char *argv[] = {"litmus-zygote", "__zygote", "3", NULL};
        execve(cfg->exe, argv, env);
        _exit(127);
    }
    free(env);
    close(sv[1]);

    struct lt_wire_writer w;
    lt_init_frame_encode(&w, cfg);
    int rc = lt_wire_send(sv[0], &w, NULL, 0);
    lt_wire_writer_free(&w);
    if (rc < 0) {
        close(sv[0]);
        kill(p, SIGKILL);
        waitpid(p, NULL, 0);
        return rc;
    }
    *pid = p;
    *sock = sv[0];
    return 0;
}

int lt_zygote_send_run(int sock, const struct lt_run_request *req,
                       int result_fd, int output_fd)
{
    struct lt_wire_writer w;
    lt_run_frame_encode(&w, req);
    int fds[2] = {result_fd, output_fd};
    int rc = lt_wire_send(sock, &w, fds, 2);
    lt_wire_writer_free(&w);
    return rc;
}

int lt_zygote_send_quit(int sock)
{
    struct lt_wire_writer w;
    lt_wire_writer_init(&w, LT_FRAME_QUIT);
    lt_wire_finish(&w);
    int rc = lt_wire_send(sock, &w, NULL, 0);
    lt_wire_writer_free(&w);
    return rc;
}

/* Contract: see runner.h. */
int lt_zygote_send_clone(int sock, uint32_t instance, int *clone_sock)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
        return -errno;
    struct lt_wire_writer w;
    lt_wire_writer_init(&w, LT_FRAME_CLONE);
    lt_wire_put_u32(&w, instance);
    lt_wire_finish(&w);
    int rc = lt_wire_send(sock, &w, &sv[1], 1);
    lt_wire_writer_free(&w);
    close(sv[1]);
    if (rc < 0) {
        close(sv[0]);
        return rc;
    }
    *clone_sock = sv[0];
    return 0;
}

/*** Zygote state ***/

static int engine_sock = -1;    /* zygote: to the engine */
static int result_fd = -1;      /* child: its result pipe */
static int ready_sent;
static pid_t zygote_pid;
static pid_t engine_pid;
static struct lt_wire_writer view_note; /* VIEW frame, sent before READY */
static int view_note_ready;
static unsigned zygote_features; /* what the zygote itself set up */
static char *run_cwd;
static char *scratch_base;      /* where this process's children's scratch
                                   directories are made */
static char *scratch_root;      /* the view's scratch path (INIT's) */
static unsigned scratch_instances = 1; /* tmpfs instances below it */

/* Fresh imports (docs/design.md, "Module and class-level mutants"): the
 * zygote's pre-import server, forked while the first subject was being
 * imported, and in the server's children the state of a fresh run. */
static int preimport_sock = -1; /* zygote: to its pre-import server */
static int fresh_child;         /* this is a child of that server */
static int fresh_applied;       /* that child sent APPLIED */
static PyObject *fresh_ids;     /* server: the zygote's test ids */
static int import_tracing;      /* zygote: tracing import and collection */
static struct timespec import_t0;

/*** Line coverage: a C trace function, per test, subject files only ***/

struct cov_file {
    char *path;
    unsigned char *hit; /* per line: executed in the current test */
    uint32_t n_lines;
    uint32_t *units;    /* pairs (first, last) of multi-line statements */
    uint32_t n_units;
};

static struct cov_file *cov_files;
static uint32_t n_cov_files;

/* Code object -> subject index (or -1), with a reference held so that an
 * address is never reused for another code object while cached. */
struct cov_slot {
    PyObject *code;
    int subject;
};
static struct cov_slot *cov_cache;
static size_t cov_cache_cap, cov_cache_used;

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

static void cov_cache_grow(void)
{
    size_t cap = cov_cache_cap ? cov_cache_cap * 2 : 1024;
    struct cov_slot *t = xcalloc(cap, sizeof(*t));
    for (size_t i = 0; i < cov_cache_cap; i++) {
        if (!cov_cache[i].code)
            continue;
        size_t h = ((uintptr_t)cov_cache[i].code >> 4) & (cap - 1);
        while (t[h].code)
            h = (h + 1) & (cap - 1);
        t[h] = cov_cache[i];
    }
    free(cov_cache);
    cov_cache = t;
    cov_cache_cap = cap;
}

static int subject_of_code(PyCodeObject *code)
{
    if (cov_cache_used * 2 >= cov_cache_cap)
        cov_cache_grow();
    size_t h = ((uintptr_t)code >> 4) & (cov_cache_cap - 1);
    while (cov_cache[h].code) {
        if (cov_cache[h].code == (PyObject *)code)
            return cov_cache[h].subject;
        h = (h + 1) & (cov_cache_cap - 1);
    }
    PyObject *filename = PyObject_GetAttrString((PyObject *)code,
                                                "co_filename");
    int subject = filename ? subject_of_filename(filename) : -1;
    Py_XDECREF(filename);
    PyErr_Clear();
    Py_INCREF(code);
    cov_cache[h].code = (PyObject *)code;
    cov_cache[h].subject = subject;
    cov_cache_used++;
    return subject;
}

/* Line events of the current test in any file: a measure of its work
 * that, unlike its time, is the same from run to run. */
static uint64_t cov_line_events;

static int cov_tracer(PyObject *obj, PyFrameObject *frame, int what,
                      PyObject *arg)
{
    if (what != PyTrace_LINE)
        return 0;
    cov_line_events++;
    PyCodeObject *code = PyFrame_GetCode(frame);
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

static PyObject *py_trace_begin(PyObject *self, PyObject *args)
{
    for (uint32_t i = 0; i < n_cov_files; i++)
        memset(cov_files[i].hit, 0, cov_files[i].n_lines + 1);
    cov_line_events = 0;
    PyEval_SetTrace(cov_tracer, NULL);
    Py_RETURN_NONE;
}

/* Installed with threading.settrace(): a new thread calls it once and
 * gets the C tracer from then on. */
static PyObject *py_thread_trace_hook(PyObject *self, PyObject *args)
{
    PyEval_SetTrace(cov_tracer, NULL);
    Py_RETURN_NONE;
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
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(list); k++) {
        long line = PyLong_AsLong(PyList_GET_ITEM(list, k));
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
    Py_ssize_t n = PyList_GET_SIZE(list);
    free(f->units);
    f->units = xcalloc((size_t)n * 2 + 1, sizeof(uint32_t));
    f->n_units = 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        unsigned int a, b;
        if (!PyArg_ParseTuple(PyList_GET_ITEM(list, k), "II", &a, &b))
            return NULL;
        if (a < 1 || b < a || b > f->n_lines)
            continue;
        f->units[2 * f->n_units] = a;
        f->units[2 * f->n_units + 1] = b;
        f->n_units++;
    }
    Py_RETURN_NONE;
}

/* Lines executed in one named file (call evaluation): the file is not a
 * subject of the zygote, so it has its own tracer. */
static PyObject *lines_file;      /* the filename traced */
static PyObject *lines_last_code; /* last code object seen in that file */
static unsigned char *lines_hit;
static size_t lines_cap;

static int lines_tracer(PyObject *obj, PyFrameObject *frame, int what,
                        PyObject *arg)
{
    if (what != PyTrace_LINE)
        return 0;
    PyCodeObject *code = PyFrame_GetCode(frame);
    int ours = (PyObject *)code == lines_last_code;
    if (!ours) {
        ours = code->co_filename == lines_file ||
               PyUnicode_Compare(code->co_filename, lines_file) == 0;
        if (ours)
            Py_XSETREF(lines_last_code, Py_NewRef((PyObject *)code));
    }
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

static PyObject *py_lines_begin(PyObject *self, PyObject *args)
{
    PyObject *file;
    if (!PyArg_ParseTuple(args, "U", &file))
        return NULL;
    Py_XDECREF(lines_file);
    lines_file = Py_NewRef(file);
    Py_CLEAR(lines_last_code);
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

static void send_frame(int fd, struct lt_wire_writer *w);

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

static PyObject *py_trace_end(PyObject *self, PyObject *args)
{
    unsigned int idx;
    if (!PyArg_ParseTuple(args, "I", &idx))
        return NULL;
    PyEval_SetTrace(NULL, NULL);
    cov_expand_units();
    struct lt_wire_writer w;
    lt_wire_writer_init(&w, LT_FRAME_COVERAGE);
    lt_wire_put_u32(&w, idx);
    lt_wire_put_u64(&w, cov_line_events);
    put_hit_lines(&w);
    send_frame(result_fd, &w);
    Py_RETURN_NONE;
}

static void cov_init(char **paths, const size_t *source_lens,
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

static uint64_t cpu_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t test_cpu_start;

/* Settings of the job the current child runs. */
static char *child_scratch;
static uint64_t child_cpu_seconds;
static uint64_t child_memory_bytes;

/* Whether this process may still write the build tree's gcov counts:
 * the zygote until it enters its file-system view (as another uid, in a
 * mount namespace that does not show the build tree writable); never a
 * child, which is sandboxed.  Only coverage builds look at it. */
static int cov_writable = 1;

/* The zygote's _exit() after its counts (coverage builds, see above). */
static _Noreturn void zygote_exit(int code)
{
    if (cov_writable)
        lt_cov_flush();
    _exit(code);
}

static _Noreturn void die(const char *what, int code)
{
    char line[512];
    int n = snprintf(line, sizeof(line), "litmus-zygote: %s: %s\n", what,
                     lt_strerror(code));
    ssize_t ignored = write(2, line, (size_t)(n > 0 ? n : 0));
    (void)ignored;
    zygote_exit(3);
}

static void send_frame(int fd, struct lt_wire_writer *w)
{
    lt_wire_finish(w);
    int rc = lt_wire_send(fd, w, NULL, 0);
    lt_wire_writer_free(w);
    if (rc < 0 && fd == engine_sock)
        die("engine went away", rc);
    /* A child whose pipe broke cannot report: it just ends without END,
     * which the engine never counts as a pass. */
    if (rc < 0)
        _exit(74);
}

/* A fresh child whose import or collection failed before its tests ran:
 * plain pytest reports that as an error (exit status != 0), so it is a
 * kill, like a module that raises when re-executed.  After APPLIED the
 * child just ends without END, which is never a pass. */
static _Noreturn void fresh_abort(const char *msg)
{
    if (fresh_applied)
        _exit(70);
    struct lt_wire_writer w;
    lt_wire_writer_init(&w, LT_FRAME_APPLIED);
    lt_wire_put_u8(&w, LT_APPLY_RAISED);
    lt_wire_put_str(&w, msg, strnlen(msg, 2000));
    send_frame(result_fd, &w);
    lt_wire_writer_init(&w, LT_FRAME_END);
    send_frame(result_fd, &w);
    _exit(0);
}

/* Compiles one of the runner's embedded Python sources and imports it
 * as a module under name; 1, or 0 with the Python error set. */
static int embedded_module(const char *source, const char *file,
                           const char *name)
{
    PyObject *code = Py_CompileString(source, file, Py_file_input);
    PyObject *mod = code ? PyImport_ExecCodeModule(name, code) : NULL;
    Py_XDECREF(code);
    Py_XDECREF(mod);
    return mod != NULL;
}

static void send_failed(const char *msg)
{
    if (fresh_child)
        fresh_abort(msg);
    struct lt_wire_writer w;
    lt_wire_writer_init(&w, LT_FRAME_FAILED);
    lt_wire_put_cstr(&w, msg);
    send_frame(engine_sock, &w);
}

/*** Import-time coverage ***/

/* Starts tracing subject lines in the zygote: called when the first
 * subject is being imported, so everything that runs while the subjects
 * and the tests' modules are imported and the tests collected is seen. */
static void import_trace_begin(void)
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
static void import_trace_send(void)
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
    send_frame(engine_sock, &w);
}

/* The pre-import server is gone or unusable: fresh runs fall back to
 * re-execution in the zygote's own children. */
static void preimport_close(void)
{
    if (preimport_sock >= 0)
        close(preimport_sock);
    preimport_sock = -1;
}

/*** The _litmus module ***/

static PyObject *py_ready(PyObject *self, PyObject *args)
{
    PyObject *list;
    if (!PyArg_ParseTuple(args, "O!", &PyList_Type, &list))
        return NULL;
    import_trace_send();
    struct lt_wire_writer w;
    lt_wire_writer_init(&w, LT_FRAME_READY);
    lt_wire_put_u32(&w, zygote_features);
    Py_ssize_t n = PyList_GET_SIZE(list);
    lt_wire_put_u32(&w, (uint32_t)n);
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_ssize_t len;
        const char *s = PyUnicode_AsUTF8AndSize(PyList_GET_ITEM(list, i), &len);
        if (!s) {
            lt_wire_writer_free(&w);
            return NULL;
        }
        lt_wire_put_str(&w, s, (size_t)len);
    }
    if (view_note_ready) {
        send_frame(engine_sock, &view_note);
        view_note_ready = 0;
    }
    lt_wire_finish(&w);
    /* The pre-import server maps the engine's test indices to its
     * children's own collection by these ids. */
    if (preimport_sock >= 0 && lt_wire_send(preimport_sock, &w, NULL, 0) < 0)
        preimport_close();
    send_frame(engine_sock, &w);
    ready_sent = 1;
    Py_RETURN_NONE;
}

static PyObject *py_fail(PyObject *self, PyObject *args)
{
    const char *msg;
    if (!PyArg_ParseTuple(args, "s", &msg))
        return NULL;
    /* After READY the session is over: pytest unwinding is not a failure. */
    if (!ready_sent)
        send_failed(msg);
    Py_RETURN_NONE;
}

static PyObject *py_applied(PyObject *self, PyObject *args)
{
    int status;
    const char *text;
    if (!PyArg_ParseTuple(args, "is", &status, &text))
        return NULL;
    fresh_applied = 1;
    struct lt_wire_writer w;
    lt_wire_writer_init(&w, LT_FRAME_APPLIED);
    lt_wire_put_u8(&w, (uint8_t)status);
    lt_wire_put_str(&w, text, strnlen(text, 2000));
    send_frame(result_fd, &w);
    Py_RETURN_NONE;
}

/* Process mode, in the child before the sandbox: the namespaces and
 * the worker.  The waiter (this process, seen by the engine) reports the
 * worker's pid and ends as the worker does; the worker waits for that
 * report, so its own frames come after it.  Returns 1 in the worker, 0
 * where process mode could not be had (the plain sandbox follows). */
static int enter_process_mode(struct lt_sandbox_opts *o, const char *bind_src,
                              const char *bind_dst)
{
    static const char *binds[3];
    binds[0] = bind_src;
    binds[1] = bind_dst;
    binds[2] = NULL;
    o->binds = bind_src && bind_dst ? binds : NULL;
    o->private_view = (zygote_features & LT_SBX_FSVIEW) != 0;
    /* Root kept (the project is unreadable by the sandbox's uid): in a
     * user namespace of its own, root would lose its access to scratch,
     * which belongs to that uid.  The plain sandbox follows. */
    if (geteuid() == 0)
        return 0;
    int gate[2];
    if (pipe2(gate, O_CLOEXEC) < 0)
        die("pipe", -errno);
    pid_t worker = lt_sandbox_enter_processes(o);
    if (worker > 0) {
        close(gate[0]);
        struct lt_wire_writer w;
        lt_wire_writer_init(&w, LT_FRAME_WORKER);
        lt_wire_put_u32(&w, (uint32_t)worker);
        send_frame(result_fd, &w);
        close(gate[1]);
        lt_sandbox_wait_worker(worker); /* closes everything else */
    }
    if (worker < 0) {
        close(gate[0]);
        close(gate[1]);
        return 0;
    }
    close(gate[1]);
    char byte;
    while (read(gate[0], &byte, 1) < 0 && errno == EINTR)
        ;
    close(gate[0]);
    o->processes = 1;
    return 1;
}

/* _litmus.enter_sandbox(processes=0, bind_src=None, bind_dst=None):
 * processes asks for process mode, with bind_src (the mutant's text)
 * bound over bind_dst (the subject file). */
static PyObject *py_enter_sandbox(PyObject *self, PyObject *args)
{
    int processes = 0;
    const char *bind_src = NULL, *bind_dst = NULL;
    if (!PyArg_ParseTuple(args, "|izz", &processes, &bind_src, &bind_dst))
        return NULL;
    struct lt_sandbox_opts o;
    lt_sandbox_opts_init(&o);
    o.scratch_dir = child_scratch;
    o.cpu_seconds = child_cpu_seconds;
    /* RLIMIT_CPU counts the whole life of the process: a fresh child has
     * imported and collected already, which is not the tests' budget (the
     * engine's own check counts from SANDBOXED). */
    if (fresh_child && o.cpu_seconds)
        o.cpu_seconds += cpu_now_ns() / 1000000000u + 1;
    o.memory_bytes = child_memory_bytes;
    o.use_netns = 0; /* the zygote entered a fresh netns once for all */
    o.keep_fds[0] = result_fd;
    o.keep_fds[1] = -1;
    o.parent_pid = zygote_pid;
    if (processes)
        enter_process_mode(&o, bind_src, bind_dst);
    unsigned got = 0;
    int rc = lt_sandbox_enter(&o, &got);
    if (rc < 0)
        die("cannot enter the sandbox", rc);
    /* Tests see the directory the user ran from (read-only); their
     * temporary files go to the scratch directory. */
    if (run_cwd && chdir(run_cwd) < 0)
        die("chdir", -errno);
    struct lt_wire_writer w;
    lt_wire_writer_init(&w, LT_FRAME_SANDBOXED);
    lt_wire_put_u32(&w, got | zygote_features);
    send_frame(result_fd, &w);
    Py_RETURN_NONE;
}

static PyObject *py_test_start(PyObject *self, PyObject *args)
{
    unsigned int idx;
    if (!PyArg_ParseTuple(args, "I", &idx))
        return NULL;
    struct lt_wire_writer w;
    lt_wire_writer_init(&w, LT_FRAME_TEST_START);
    lt_wire_put_u32(&w, idx);
    send_frame(result_fd, &w);
    test_cpu_start = cpu_now_ns();
    Py_RETURN_NONE;
}

static PyObject *py_test_result(PyObject *self, PyObject *args)
{
    unsigned int idx;
    int outcome;
    unsigned long long dur_ns;
    const char *text;
    if (!PyArg_ParseTuple(args, "IiKs", &idx, &outcome, &dur_ns, &text))
        return NULL;
    /* The check runs before the result leaves: a candidate that changed
     * the framework never gets a pass reported. */
    if (lt_guard_armed() && (lt_guard_flags() & LT_RUN_GUARD_EACH))
        lt_guard_check();
    struct lt_wire_writer w;
    lt_wire_writer_init(&w, LT_FRAME_TEST_RESULT);
    lt_wire_put_u32(&w, idx);
    lt_wire_put_u8(&w, (uint8_t)outcome);
    lt_wire_put_u64(&w, dur_ns);
    lt_wire_put_u64(&w, cpu_now_ns() - test_cpu_start);
    lt_wire_put_str(&w, text, strnlen(text, 1000));
    send_frame(result_fd, &w);
    Py_RETURN_NONE;
}

static PyObject *py_test_needs(PyObject *self, PyObject *args)
{
    unsigned int idx, bits;
    if (!PyArg_ParseTuple(args, "II", &idx, &bits))
        return NULL;
    struct lt_wire_writer w;
    lt_wire_writer_init(&w, LT_FRAME_NEEDS);
    lt_wire_put_u32(&w, idx);
    lt_wire_put_u8(&w, (uint8_t)bits);
    send_frame(result_fd, &w);
    Py_RETURN_NONE;
}

static void report_tamper(const char *what)
{
    struct lt_wire_writer w;
    lt_wire_writer_init(&w, LT_FRAME_TAMPER);
    lt_wire_put_str(&w, what, strnlen(what, 1000));
    send_frame(result_fd, &w);
}

/* _litmus.arm(flags): arms the guards of an untrusted run (after the
 * sandbox, before the candidate is compiled). */
static PyObject *py_arm(PyObject *self, PyObject *args)
{
    unsigned int flags;
    if (!PyArg_ParseTuple(args, "I", &flags))
        return NULL;
    lt_guard_set_reporter(report_tamper);
    if (lt_guard_arm(flags, (flags & LT_RUN_CHECK_EQ) != 0) < 0)
        die("cannot add the audit hook", LT_EPYTHON);
    Py_RETURN_NONE;
}

/* Frames with one string: CALL (a captured call, base64) and RECORD (a
 * JSON record). */
static PyObject *send_text_frame(PyObject *args, int type, size_t cap)
{
    const char *text;
    Py_ssize_t len;
    if (!PyArg_ParseTuple(args, "s#", &text, &len))
        return NULL;
    if ((size_t)len > cap)
        Py_RETURN_FALSE; /* too large to send: dropped, and the caller knows */
    struct lt_wire_writer w;
    lt_wire_writer_init(&w, (enum lt_frame_type)type);
    lt_wire_put_str(&w, text, (size_t)len);
    send_frame(result_fd, &w);
    Py_RETURN_TRUE;
}

static PyObject *py_send_call(PyObject *self, PyObject *args)
{
    return send_text_frame(args, LT_FRAME_CALL, LT_WIRE_MAX_CHILD_FRAME - 64);
}

static PyObject *py_record(PyObject *self, PyObject *args)
{
    return send_text_frame(args, LT_FRAME_RECORD, LT_WIRE_MAX_CHILD_FRAME - 64);
}

static PyObject *py_probe(PyObject *self, PyObject *args)
{
    unsigned int idx;
    int phase;
    if (!PyArg_ParseTuple(args, "Ii", &idx, &phase))
        return NULL;
    struct lt_wire_writer w;
    lt_wire_writer_init(&w, LT_FRAME_PROBE);
    lt_wire_put_u32(&w, idx);
    lt_wire_put_u8(&w, (uint8_t)phase);
    send_frame(result_fd, &w);
    Py_RETURN_NONE;
}

static void close_quietly(int *fds, int n)
{
    for (int i = 0; i < n; i++)
        if (fds[i] >= 0)
            close(fds[i]);
}

/* The child after fork: wire up its fds, hand over to Python, then end
 * with END and _exit.  Never returns. */
static _Noreturn void run_child(PyObject *callback, PyObject *job_args,
                                int res_fd, int out_fd)
{
    cov_writable = 0;
    close(engine_sock);
    engine_sock = -1;
    /* A sandboxed child must never reach the pre-import server, which
     * forks outside any sandbox. */
    if (preimport_sock >= 0)
        close(preimport_sock);
    preimport_sock = -1;
    result_fd = res_fd;
    if (dup2(out_fd, 1) < 0 || dup2(out_fd, 2) < 0)
        _exit(72);
    close(out_fd);
    PyObject *r = PyObject_CallObject(callback, job_args);
    if (!r) {
        PyErr_Print();
        fflush(stderr);
        _exit(70);
    }
    Py_DECREF(r);
    lt_guard_check();
    fflush(stdout);
    fflush(stderr);
    struct lt_wire_writer w;
    lt_wire_writer_init(&w, LT_FRAME_END);
    send_frame(result_fd, &w);
    _exit(0);
}

/* Collection runs in the zygote, inside the view, where /tmp is not
 * writable: tests that make temporary files at import time (a module-level
 * tempfile, a plugin's cache directory) failed to collect with "No usable
 * temporary directory".  The zygote's own temporary files go to a scratch
 * directory of its own under the run's scratch, as a child's go to its
 * own; the engine removes the run's scratch at the end. */
static void zygote_tmpdir(void)
{
    char *dir = lt_sandbox_scratch_new(scratch_base);
    if (!dir)
        return;
    PyObject *os = PyImport_ImportModule("os");
    PyObject *environ = os ? PyObject_GetAttrString(os, "environ") : NULL;
    PyObject *value = PyUnicode_DecodeFSDefault(dir);
    if (environ && value) {
        PyMapping_SetItemString(environ, "TMPDIR", value);
        /* The tests' home is scratch too, and hypothesis keeps its
         * example database there: its default, under the read-only
         * working directory, would make it warn at collection, which a
         * suite with `filterwarnings = error` turns into errors. */
        PyMapping_SetItemString(environ, "HOME", value);
        PyObject *db = PyUnicode_FromFormat("%U/.hypothesis", value);
        if (db)
            PyMapping_SetItemString(environ, "HYPOTHESIS_STORAGE_DIRECTORY",
                                    db);
        Py_XDECREF(db);
    }
    PyObject *tempfile = PyImport_ImportModule("tempfile");
    if (tempfile && value)
        PyObject_SetAttrString(tempfile, "tempdir", value);
    if (PyErr_Occurred())
        PyErr_Clear();
    Py_XDECREF(tempfile);
    Py_XDECREF(value);
    Py_XDECREF(environ);
    Py_XDECREF(os);
    free(dir);
}

/* The arguments of the shim's child_main for a decoded RUN (a new
 * reference); sets the child's limits and makes its scratch directory. */
static PyObject *run_job_args(const struct lt_run_frame *q)
{
    PyObject *tests = PyList_New(q->n_tests);
    if (!tests)
        return NULL;
    for (uint32_t i = 0; i < q->n_tests; i++)
        PyList_SET_ITEM(tests, i,
                        PyLong_FromUnsignedLong(lt_run_frame_test(q, i)));
    child_cpu_seconds = q->cpu_seconds;
    child_memory_bytes = q->memory_bytes;
    free(child_scratch);
    child_scratch = lt_sandbox_scratch_new(scratch_base);
    if (!child_scratch)
        die("cannot create a scratch directory", -errno);
    return Py_BuildValue(
        "(iIKKs#NiNIs#y#)", q->mode, q->subject,
        (unsigned long long)q->start, (unsigned long long)q->end, q->repl,
        (Py_ssize_t)q->repl_len, tests, q->stop_first,
        PyUnicode_DecodeFSDefault(child_scratch), q->flags, q->extra,
        (Py_ssize_t)q->extra_len, q->swap, (Py_ssize_t)q->swap_len);
}

static void send_started(int fd, uint64_t token, pid_t pid, int err)
{
    struct lt_wire_writer w;
    lt_wire_writer_init(&w, LT_FRAME_STARTED);
    lt_wire_put_u64(&w, token);
    lt_wire_put_u32(&w, pid > 0 ? (uint32_t)pid : 0);
    lt_wire_put_u32(&w, pid > 0 ? 0 : (uint32_t)err);
    send_frame(fd, &w);
}

/* Reaps the child `pid` (if any) and reports EXITED on fd. */
static void reap_and_report(int fd, uint64_t token, pid_t pid,
                            const struct timespec *t0)
{
    int status = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof(ru));
    if (pid > 0) {
        while (wait4(pid, &status, 0, &ru) < 0 && errno == EINTR)
            ;
    }
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    lt_sandbox_scratch_remove(child_scratch);

    struct lt_wire_writer w;
    lt_wire_writer_init(&w, LT_FRAME_EXITED);
    lt_wire_put_u64(&w, token);
    lt_wire_put_u32(&w, (uint32_t)status);
    lt_wire_put_u64(&w, (uint64_t)ru.ru_maxrss);
    lt_wire_put_u64(&w, (uint64_t)ru.ru_utime.tv_sec * 1000000u +
                            (uint64_t)ru.ru_utime.tv_usec);
    lt_wire_put_u64(&w, (uint64_t)ru.ru_stime.tv_sec * 1000000u +
                            (uint64_t)ru.ru_stime.tv_usec);
    lt_wire_put_u64(&w, (uint64_t)(t1.tv_sec - t0->tv_sec) * 1000000000u +
                            (uint64_t)(t1.tv_nsec - t0->tv_nsec));
    lt_wire_put_u64(&w, (uint64_t)ru.ru_minflt);
    lt_wire_put_u64(&w, (uint64_t)ru.ru_majflt);
    send_frame(fd, &w);
}

/* Hands a RUN to the pre-import server together with the child's fds,
 * then relays the server's STARTED and EXITED to the engine unchanged:
 * the engine sees the server's child as if it were the zygote's own (it
 * kills it by pid or pidfd, it reads its CPU time from /proc).  0 when
 * the server took the job; a negative code when it could not be reached,
 * in which case nothing started and the caller runs the job itself.  A
 * server that fails after taking the job ends the zygote: the engine then
 * retries the mutant once on a fresh zygote. */
static int relay_fresh(const uint8_t *payload, size_t len, int *fds,
                       uint64_t token)
{
    struct lt_wire_writer w;
    lt_wire_writer_init(&w, LT_FRAME_RUN);
    lt_wire_put_bytes(&w, payload, len);
    lt_wire_finish(&w);
    int rc = lt_wire_send(preimport_sock, &w, fds, 2);
    lt_wire_writer_free(&w);
    if (rc < 0) {
        preimport_close();
        return rc;
    }
    for (int want = LT_FRAME_STARTED; want <= LT_FRAME_EXITED; want++) {
        uint8_t *p = NULL;
        size_t n = 0;
        int type = lt_wire_recv(preimport_sock, 4096, &p, &n, NULL, NULL);
        struct lt_wire_reader r;
        lt_wire_reader_init(&r, p, n);
        if (type != want || lt_wire_get_u64(&r) != token || r.bad) {
            free(p);
            die("the pre-import server failed during a job",
                type < 0 ? type : LT_EPROTO);
        }
        lt_wire_writer_init(&w, (enum lt_frame_type)type);
        lt_wire_put_bytes(&w, p, n);
        free(p);
        send_frame(engine_sock, &w);
    }
    return 0;
}


/* fork() with CPython's hooks: the interpreter's locks are taken before
 * and reset in the child, released in the parent.  errno is fork's. */
static pid_t py_fork(void)
{
    PyOS_BeforeFork();
    pid_t pid = fork();
    int saved = errno;
    if (pid == 0)
        PyOS_AfterFork_Child();
    else
        PyOS_AfterFork_Parent();
    errno = saved;
    return pid;
}

static PyObject *handle_run(PyObject *callback, const uint8_t *payload,
                            size_t len, int *fds, int nfds)
{
    struct lt_run_frame q;
    if (nfds != 2 || lt_run_frame_decode(payload, len, &q) < 0) {
        close_quietly(fds, nfds);
        die("malformed RUN frame", LT_EPROTO);
    }
    if ((q.flags & LT_RUN_FRESH) && !(q.flags & LT_RUN_UNTRUSTED) &&
        q.mode == LT_RUN_MUTANT && preimport_sock >= 0 &&
        relay_fresh(payload, len, fds, q.token) == 0) {
        close_quietly(fds, nfds);
        Py_RETURN_NONE;
    }
    PyObject *job_args = run_job_args(&q);
    if (!job_args) {
        close_quietly(fds, nfds);
        return NULL;
    }

    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid_t pid = py_fork();
    if (pid == 0)
        run_child(callback, job_args, fds[0], fds[1]);
    int fork_errno = errno;
    Py_DECREF(job_args);
    close_quietly(fds, nfds);
    send_started(engine_sock, q.token, pid, fork_errno);
    reap_and_report(engine_sock, q.token, pid, &t0);
    Py_RETURN_NONE;
}

/*** The pre-import server ***/

/* Keeps the zygote's test ids (a READY frame it relayed) as a list. */
static void server_keep_ids(const uint8_t *payload, size_t len)
{
    struct lt_wire_reader r;
    lt_wire_reader_init(&r, payload, len);
    (void)lt_wire_get_u32(&r);
    uint32_t n = lt_wire_get_u32(&r);
    if (r.bad || n > r.left / 4)
        _exit(3);
    PyObject *ids = PyList_New(n);
    for (uint32_t i = 0; ids && i < n; i++) {
        size_t k;
        const char *s = lt_wire_get_str(&r, &k);
        PyObject *id = r.bad ? NULL
                             : PyUnicode_DecodeUTF8(s, (Py_ssize_t)k,
                                                    "surrogateescape");
        if (!id)
            _exit(3);
        PyList_SET_ITEM(ids, i, id);
    }
    if (!ids || lt_wire_reader_done(&r) < 0)
        _exit(3);
    Py_XSETREF(fresh_ids, ids);
}

/*** Copies of a ready zygote ***/

/* Children of this process make their scratch directories in instance i
 * of the view's scratch (without a view, in the one scratch path). */
static void use_scratch_instance(uint32_t i)
{
    if (scratch_instances <= 1)
        return;
    free(scratch_base);
    scratch_base = xasprintf("%s/%u", scratch_root, (unsigned)i);
}

/* A CLONE frame: the scratch instance, and one fd (the copy's socket). */
static int read_clone(const uint8_t *payload, size_t len, int nfds,
                      uint32_t *instance)
{
    struct lt_wire_reader r;
    lt_wire_reader_init(&r, payload, len);
    *instance = lt_wire_get_u32(&r);
    if (nfds != 1 || lt_wire_reader_done(&r) < 0)
        return -1;
    if (scratch_instances > 1 &&
        (*instance == 0 || *instance >= scratch_instances))
        return -1;
    return 0;
}

/* A copy's first frame: its pid. */
static void send_cloned(int fd)
{
    struct lt_wire_writer w;
    lt_wire_writer_init(&w, LT_FRAME_CLONED);
    lt_wire_put_u32(&w, (uint32_t)getpid());
    send_frame(fd, &w);
}

/* Forks a copy of this process that serves `copy_sock` in place of
 * *sock, dies with this process, and makes its children's scratch in
 * scratch instance `instance`.  0 in the copy; in this process the
 * copy's pid (or -1), with copy_sock closed. */
static pid_t fork_copy(int *sock, int copy_sock, uint32_t instance)
{
    pid_t parent = getpid();
    pid_t pid = py_fork();
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(0);
        close(*sock);
        *sock = copy_sock;
        zygote_pid = getpid();
        use_scratch_instance(instance);
        return 0;
    }
    close(copy_sock);
    return pid;
}

/* Children of ours that ended unwaited: copies of this zygote or server
 * (a job's child is always waited for before the next frame is read). */
static void reap_copies(void)
{
    while (waitpid(-1, NULL, WNOHANG) > 0)
        ;
}

/* The pre-import server's half of a CLONE: a copy of the server that
 * serves the copy of its zygote on the socket passed, and says CLONED
 * there first.  The copy dies with this server (and so with the original
 * zygote), and ends at EOF when the zygote's copy ends.  *sock becomes
 * the copy's socket in the copy; the original keeps its own. */
static void server_clone(const uint8_t *payload, size_t len, int *fds,
                         int nfds, int *sock)
{
    uint32_t instance;
    if (read_clone(payload, len, nfds, &instance) < 0)
        _exit(3);
    /* A failed fork: the zygote's copy sees EOF and says FAILED. */
    if (fork_copy(sock, fds[0], instance) == 0)
        send_cloned(*sock);
}

/* The server's loop, in the process forked inside the first import of a
 * subject.  It runs nothing of the project: it waits for the zygote's
 * frames, forks a child per RUN and reports STARTED and EXITED back.  It
 * returns only in such a child, with the arguments of the job (a new
 * reference), so that the child goes on with the import it was paused
 * in, the mutant's loader patch in place.  It ends with the zygote (EOF,
 * QUIT, or PDEATHSIG when the zygote is killed). */
static PyObject *preimport_serve(int sock, pid_t zygote)
{
    cov_writable = 0;
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != zygote)
        _exit(0);
    /* Only the zygote speaks to the engine; the engine must see EOF on it
     * as soon as the zygote dies. */
    close(engine_sock);
    engine_sock = -1;
    /* The parent that this server's children check in the sandbox. */
    zygote_pid = getpid();
    /* Everything the server holds is shared by its children: frozen, the
     * collections of a child (its own, before the sandbox) do not walk
     * it, and its pages are not copied. */
    PyObject *gc = PyImport_ImportModule("gc");
    PyObject *r = gc ? PyObject_CallMethod(gc, "freeze", NULL) : NULL;
    Py_XDECREF(r);
    Py_XDECREF(gc);
    PyErr_Clear();
    for (;;) {
        uint8_t *payload = NULL;
        size_t len = 0;
        int fds[LT_WIRE_MAX_FDS];
        int nfds = 0;
        int type = lt_wire_recv(sock, LT_WIRE_MAX_FRAME, &payload, &len, fds,
                                &nfds);
        if (type <= 0 || type == LT_FRAME_QUIT)
            _exit(0);
        reap_copies();
        if (type == LT_FRAME_CLONE) {
            server_clone(payload, len, fds, nfds, &sock);
            free(payload);
            continue;
        }
        if (type == LT_FRAME_READY && nfds == 0) {
            server_keep_ids(payload, len);
            free(payload);
            continue;
        }
        struct lt_run_frame q;
        if (type != LT_FRAME_RUN || nfds != 2 || !fresh_ids ||
            lt_run_frame_decode(payload, len, &q) < 0)
            _exit(3);
        PyObject *job_args = run_job_args(&q);
        if (!job_args)
            _exit(3);
        struct timespec t0;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        pid_t pid = py_fork();
        if (pid == 0) {
            /* Die with the server (which dies with the zygote); the
             * sandbox arms this again and checks the parent. */
            prctl(PR_SET_PDEATHSIG, SIGKILL);
            if (getppid() != zygote_pid)
                _exit(3);
            close(sock);
            fresh_child = 1;
            result_fd = fds[0];
            if (dup2(fds[1], 1) < 0 || dup2(fds[1], 2) < 0)
                _exit(72);
            close(fds[1]);
            free(payload);
            return job_args;
        }
        int fork_errno = errno;
        Py_DECREF(job_args);
        close_quietly(fds, nfds);
        free(payload);
        send_started(sock, q.token, pid, fork_errno);
        reap_and_report(sock, q.token, pid, &t0);
    }
}

/* _litmus.preimport_fork(): called by the shim's import hook when a
 * subject is about to be imported for the first time.  In the zygote it
 * forks the pre-import server, starts tracing import-time lines and
 * returns None; in a child of the server it returns that child's job
 * arguments (see preimport_serve).  Once per zygote; None when the fork
 * fails (fresh runs then fall back to re-execution). */
static PyObject *py_preimport_fork(PyObject *self, PyObject *args)
{
    if (preimport_sock >= 0 || engine_sock < 0 || fresh_child || ready_sent)
        Py_RETURN_NONE;
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
        Py_RETURN_NONE;
    pid_t zygote = getpid();
    pid_t pid = py_fork();
    if (pid == 0) {
        close(sv[0]);
        return preimport_serve(sv[1], zygote);
    }
    close(sv[1]);
    if (pid < 0) {
        close(sv[0]);
        Py_RETURN_NONE;
    }
    preimport_sock = sv[0];
    import_trace_begin();
    Py_RETURN_NONE;
}

/* _litmus.fresh_ids(): in a fresh child, the zygote's test ids, by which
 * the engine's indices are mapped to this child's own collection. */
static PyObject *py_fresh_ids(PyObject *self, PyObject *args)
{
    if (!fresh_ids)
        return PyList_New(0);
    return Py_NewRef(fresh_ids);
}

/* _litmus.functions_by_file(objects): the function objects among
 * `objects` (gc.get_objects()), grouped by their code's co_filename, in
 * the order found.  Indexing the subjects walks the zygote's whole heap,
 * a few hundred thousand objects: in C that costs a few milliseconds,
 * in Python tens. */
static PyObject *py_functions_by_file(PyObject *self, PyObject *objects)
{
    (void)self;
    if (!PyList_Check(objects)) {
        PyErr_SetString(PyExc_TypeError, "functions_by_file: a list");
        return NULL;
    }
    PyObject *out = PyDict_New();
    if (!out)
        return NULL;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(objects); i++) {
        PyObject *obj = PyList_GET_ITEM(objects, i);
        if (!PyFunction_Check(obj))
            continue;
        PyObject *code = PyFunction_GET_CODE(obj);
        if (!code || !PyCode_Check(code))
            continue;
        PyObject *file = ((PyCodeObject *)code)->co_filename;
        PyObject *group = PyDict_GetItemWithError(out, file);
        if (!group) {
            if (PyErr_Occurred())
                goto fail;
            group = PyList_New(0);
            if (!group)
                goto fail;
            int rc = PyDict_SetItem(out, file, group);
            Py_DECREF(group);
            if (rc < 0)
                goto fail;
        }
        if (PyList_Append(group, obj) < 0)
            goto fail;
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

/* _litmus.fresh_end(): a fresh child is done (its tests ran, or applying
 * the mutant was refused): END and _exit, as run_child ends. */
static PyObject *py_fresh_end(PyObject *self, PyObject *args)
{
    fflush(stdout);
    fflush(stderr);
    struct lt_wire_writer w;
    lt_wire_writer_init(&w, LT_FRAME_END);
    send_frame(result_fd, &w);
    _exit(0);
}

/* _litmus.fresh_abort(message): a fresh child's collection failed. */
static PyObject *py_fresh_abort(PyObject *self, PyObject *args)
{
    const char *msg;
    if (!PyArg_ParseTuple(args, "s", &msg))
        return NULL;
    fresh_abort(msg);
}

/* CLONE: forks a copy of this ready zygote that serves the socket
 * passed, with its own scratch instance and, when this zygote has a
 * pre-import server, its own copy of that server.  The copy says CLONED
 * (or FAILED when the server could not be copied: its fresh runs would
 * otherwise fall back to re-execution and differ from this zygote's) and
 * goes on in the serve loop; so does this zygote.  The copy dies with
 * this zygote. */
static void handle_clone(const uint8_t *payload, size_t len, int *fds,
                         int nfds)
{
    uint32_t instance;
    if (read_clone(payload, len, nfds, &instance) < 0) {
        close_quietly(fds, nfds);
        die("malformed CLONE frame", LT_EPROTO);
    }
    /* The server is asked as the engine asks a zygote. */
    int server = -1;
    if (preimport_sock >= 0 &&
        lt_zygote_send_clone(preimport_sock, instance, &server) < 0)
        server = -1;
    if (fork_copy(&engine_sock, fds[0], instance) == 0) {
        if (preimport_sock >= 0) {
            close(preimport_sock);
            preimport_sock = server;
            uint8_t *p = NULL;
            size_t n = 0;
            int type = server < 0 ? -1
                                  : lt_wire_recv(server, 64, &p, &n, NULL,
                                                 NULL);
            free(p);
            if (type != LT_FRAME_CLONED) {
                send_failed("the pre-import server could not be copied");
                zygote_exit(3);
            }
        }
        send_cloned(engine_sock);
        return;
    }
    /* A failed fork: the engine sees EOF on the copy's socket. */
    if (server >= 0)
        close(server);
}

/* The fork server: RUN frames until QUIT or EOF.  Returns None. */
static PyObject *py_serve(PyObject *self, PyObject *args)
{
    PyObject *callback;
    if (!PyArg_ParseTuple(args, "O", &callback))
        return NULL;
    for (;;) {
        uint8_t *payload = NULL;
        size_t len = 0;
        int fds[LT_WIRE_MAX_FDS];
        int nfds = 0;
        int type = lt_wire_recv(engine_sock, LT_WIRE_MAX_FRAME, &payload,
                                &len, fds, &nfds);
        if (type <= 0 || type == LT_FRAME_QUIT) {
            free(payload);
            close_quietly(fds, nfds);
            Py_RETURN_NONE;
        }
        reap_copies();
        if (type == LT_FRAME_CLONE) {
            handle_clone(payload, len, fds, nfds);
            free(payload);
            continue;
        }
        if (type != LT_FRAME_RUN) {
            free(payload);
            close_quietly(fds, nfds);
            die("unexpected frame from the engine", LT_EPROTO);
        }
        PyObject *r = handle_run(callback, payload, len, fds, nfds);
        free(payload);
        if (!r)
            return NULL;
        Py_DECREF(r);
    }
}

static PyMethodDef litmus_methods[] = {
    {"ready", py_ready, METH_VARARGS, "Send the collected test ids."},
    {"fail", py_fail, METH_VARARGS, "Report a start-up failure."},
    {"serve", py_serve, METH_VARARGS, "Run the fork server loop."},
    {"applied", py_applied, METH_VARARGS, "Report how applying went."},
    {"enter_sandbox", py_enter_sandbox, METH_VARARGS, "Enter the sandbox."},
    {"test_needs", py_test_needs, METH_VARARGS,
     "What a baseline test used that only process mode allows."},
    {"test_start", py_test_start, METH_VARARGS, "A test starts."},
    {"test_result", py_test_result, METH_VARARGS, "A test ended."},
    {"trace_begin", py_trace_begin, METH_NOARGS, "Start line coverage."},
    {"trace_end", py_trace_end, METH_VARARGS, "Send a test's coverage."},
    {"lines_begin", py_lines_begin, METH_VARARGS,
     "Trace the lines executed in one file."},
    {"lines_end", py_lines_end, METH_NOARGS, "Stop; the lines executed."},
    {"guard_set", lt_guard_py_set, METH_VARARGS,
     "Pin the framework's state (zygote)."},
    {"arm", py_arm, METH_VARARGS, "Arm the guards of an untrusted run."},
    {"tamper", lt_guard_py_tamper, METH_VARARGS, "Report tampering; ends."},
    {"equal_to_anything", lt_guard_py_equal_to_anything, METH_O,
     "True for a value that compares equal to anything."},
    {"send_call", py_send_call, METH_VARARGS, "Send a captured call."},
    {"record", py_record, METH_VARARGS, "Send a JSON record."},
    {"probe", py_probe, METH_VARARGS, "About to evaluate input i."},
    {"cover_add", py_cover_add, METH_VARARGS,
     "Lines a test's own processes executed."},
    {"set_units", py_set_units, METH_VARARGS,
     "Multi-line statements of a subject, for coverage."},
    {"preimport_fork", py_preimport_fork, METH_NOARGS,
     "Fork the pre-import server (zygote) or get a fresh job (child)."},
    {"fresh_ids", py_fresh_ids, METH_NOARGS, "The zygote's test ids."},
    {"functions_by_file", py_functions_by_file, METH_O,
     "Function objects of a list, by co_filename."},
    {"fresh_end", py_fresh_end, METH_NOARGS, "End a fresh child."},
    {"fresh_abort", py_fresh_abort, METH_VARARGS,
     "A fresh child's collection failed: a kill."},
    {"thread_trace_hook", py_thread_trace_hook, METH_VARARGS,
     "threading.settrace hook that installs the C tracer."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef litmus_module = {
    PyModuleDef_HEAD_INIT, "_litmus", "litmus runner bridge", -1,
    litmus_methods, NULL, NULL, NULL, NULL,
};

static PyObject *init_litmus_module(void)
{
    return PyModule_Create(&litmus_module);
}

/*** Zygote start-up ***/

static void check_status(PyStatus st, PyConfig *cfg)
{
    if (PyStatus_Exception(st)) {
        PyConfig_Clear(cfg);
        send_failed(st.err_msg ? st.err_msg : "Python initialisation failed");
        _exit(3);
    }
}

#define LT_STR_(x) #x
#define LT_STR(x) LT_STR_(x)

const char *lt_runner_python_version(void)
{
    return LT_STR(PY_MAJOR_VERSION) "." LT_STR(PY_MINOR_VERSION);
}

const char *lt_runner_python_prefix(void)
{
    return LT_PYTHON_PREFIX;
}

/* Starts the embedded interpreter as `python` would start: its prefix,
 * and for a venv (a pyvenv.cfg beside or above it) the venv's
 * site-packages, its .pth files and, when the venv says so, the system's
 * site-packages.  The engine has checked that `python` is of our
 * major.minor and our build.  Everything else from the environment that
 * steers Python (PYTHONHOME, PYTHONSTARTUP, user site, ...) stays out. */
static void start_python(const char *python)
{
    if (PyImport_AppendInittab("_litmus", init_litmus_module) < 0) {
        send_failed("cannot register the _litmus module");
        _exit(3);
    }
    /* UTF-8 mode: text I/O and file names as under `python -m pytest` on
     * a UTF-8 system, whatever locale litmus itself was started in. */
    PyPreConfig pre;
    PyPreConfig_InitIsolatedConfig(&pre);
    pre.utf8_mode = 1;
    PyStatus pst = Py_PreInitialize(&pre);
    if (PyStatus_Exception(pst)) {
        send_failed(pst.err_msg ? pst.err_msg
                                : "Python pre-initialisation failed");
        _exit(3);
    }
    PyConfig cfg;
    /* Isolated: the environment cannot steer the interpreter, and it
     * installs no signal handlers. */
    PyConfig_InitIsolatedConfig(&cfg);
    /* The path configuration derives the prefix and a venv's
     * site-packages from the executable, as the interpreter itself
     * does. */
    check_status(PyConfig_SetBytesString(&cfg, &cfg.program_name, python),
                 &cfg);
    check_status(PyConfig_SetBytesString(&cfg, &cfg.executable, python),
                 &cfg);
    /* A fixed hash seed: every zygote iterates sets the same way, so
     * verdicts do not depend on which zygote ran a mutant. */
    cfg.use_hash_seed = 1;
    cfg.hash_seed = 0;
    cfg.write_bytecode = 0;
    cfg.buffered_stdio = 0;
    check_status(Py_InitializeFromConfig(&cfg), &cfg);
    PyConfig_Clear(&cfg);
}

/* sys.path as `python -m pytest` run in `cwd` has it: the working
 * directory first, then the `prefix` entries (PYTHONPATH's, made absolute
 * by the engine), then what the interpreter computed.  0 or -1 with a
 * Python exception set. */
static int insert_path(PyObject *path, Py_ssize_t at, const char *dir,
                       size_t len)
{
    PyObject *entry = PyUnicode_DecodeFSDefaultAndSize(dir, (Py_ssize_t)len);
    int rc = entry ? PyList_Insert(path, at, entry) : -1;
    Py_XDECREF(entry);
    return rc;
}

static int put_on_path(const char *cwd, const char *prefix)
{
    PyObject *path = PySys_GetObject("path"); /* borrowed */
    if (!path || !PyList_Check(path)) {
        PyErr_SetString(PyExc_RuntimeError, "sys.path is not a list");
        return -1;
    }
    Py_ssize_t at = 0;
    if (insert_path(path, at++, cwd, strlen(cwd)) < 0)
        return -1;
    for (const char *p = prefix; *p;) {
        size_t n = strcspn(p, ":");
        if (n > 0 && insert_path(path, at++, p, n) < 0)
            return -1;
        p += n + (p[n] == ':');
    }
    return 0;
}

/*** The file-system view ***/

static void add_path(char ***list, size_t *n, size_t *cap, const char *p)
{
    char real[PATH_MAX];
    if (!p || p[0] != '/' || !realpath(p, real))
        return;
    for (size_t i = 0; i < *n; i++)
        if (strcmp((*list)[i], real) == 0)
            return;
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 32;
        *list = xrealloc(*list, *cap * sizeof(char *));
    }
    (*list)[(*n)++] = xstrdup(real);
}

static void add_py_path(char ***list, size_t *n, size_t *cap, PyObject *o)
{
    if (o && PyUnicode_Check(o)) {
        PyObject *b = PyUnicode_EncodeFSDefault(o);
        if (b) {
            add_path(list, n, cap, PyBytes_AS_STRING(b));
            Py_DECREF(b);
        }
    }
    PyErr_Clear();
}

/* The project's root as pytest would find it from `cwd`: the nearest
 * directory above it with pytest's configuration or a .git, or NULL.
 * Never "/" or $HOME, which would show everything below them.  A static
 * buffer. */
static const char *project_root(const char *cwd)
{
    static const char *const markers[] = {"pytest.ini", "pyproject.toml",
                                          "tox.ini", "setup.cfg", ".git"};
    static char dir[PATH_MAX];
    const char *home = getenv("HOME");
    snprintf(dir, sizeof(dir), "%s", cwd);
    for (;;) {
        char *slash = strrchr(dir, '/');
        if (!slash || slash == dir)
            return NULL;
        *slash = '\0';
        if (home && strcmp(dir, home) == 0)
            return NULL;
        for (size_t i = 0; i < sizeof(markers) / sizeof(markers[0]); i++) {
            char path[PATH_MAX + 32];
            snprintf(path, sizeof(path), "%s/%s", dir, markers[i]);
            if (access(path, F_OK) == 0)
                return dir;
        }
    }
}

/* What the tests may read: the working directory, the project's root, the subjects' and the
 * test paths' directories, every sys.path entry and the interpreter's
 * prefixes, and --allow-read.  Then the view is entered; where it cannot
 * be, the reason goes to the engine and the run goes on degraded. */
static void enter_view(char **args, uint32_t nargs, char **subjects,
                       uint32_t nsub, char **allow, uint32_t nallow,
                       uint32_t uid, uint32_t scratch_mb)
{
    char **ro = NULL;
    size_t n = 0, cap = 0;
    add_path(&ro, &n, &cap, run_cwd);
    add_path(&ro, &n, &cap, project_root(run_cwd));
    for (uint32_t i = 0; i < nsub; i++) {
        char *dir = xstrdup(subjects[i]);
        char *slash = strrchr(dir, '/');
        if (slash && slash != dir)
            *slash = '\0';
        add_path(&ro, &n, &cap, dir);
        free(dir);
    }
    for (uint32_t i = 0; i < nargs; i++) {
        struct stat sb;
        if (args[i][0] == '-' || stat(args[i], &sb) < 0)
            continue;
        char *abs = args[i][0] == '/' ? xstrdup(args[i])
                                      : xasprintf("%s/%s", run_cwd, args[i]);
        if (!S_ISDIR(sb.st_mode)) {
            char *slash = strrchr(abs, '/');
            if (slash && slash != abs)
                *slash = '\0';
        }
        add_path(&ro, &n, &cap, abs);
        free(abs);
    }
    PyObject *path = PySys_GetObject("path"); /* borrowed */
    for (Py_ssize_t i = 0; path && PyList_Check(path) &&
                           i < PyList_GET_SIZE(path); i++)
        add_py_path(&ro, &n, &cap, PyList_GET_ITEM(path, i));
    static const char *const prefixes[] = {"prefix", "base_prefix",
                                           "exec_prefix", "base_exec_prefix",
                                           "executable"};
    for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
        add_py_path(&ro, &n, &cap, PySys_GetObject(prefixes[i]));
    for (uint32_t i = 0; i < nallow; i++)
        add_path(&ro, &n, &cap, allow[i]);

    struct lt_view_opts vo = {
        .root_dir = scratch_base, .ro_paths = (const char *const *)ro,
        .n_ro_paths = n, .scratch_dir = scratch_base,
        .scratch_bytes = (unsigned long long)scratch_mb << 20,
        .scratch_inodes = 16384, .scratch_instances = LT_RUNNER_SCRATCH_SLOTS,
        .uid = (uid_t)uid, .gid = (gid_t)uid};
    unsigned got = 0;
    char err[256];
    char *desc = NULL;
    int rc = lt_sandbox_view_enter(&vo, &got, err, sizeof(err), &desc);
    if (rc < 0 && (got & LT_SBX_FSVIEW)) {
        /* Half-built: nothing sandboxed may be forked from here. */
        send_failed(err);
        _exit(3);
    }
    if (rc < 0) {
        /* No namespace entered: the run goes on degraded, and says so. */
        zygote_features &= ~(unsigned)(LT_SBX_FSVIEW | LT_SBX_IDENTITY);
    } else {
        zygote_features |= got;
        if (got & LT_SBX_FSVIEW) {
            scratch_instances = LT_RUNNER_SCRATCH_SLOTS;
            use_scratch_instance(0);
        }
    }
    /* Not dumpable: no child reads the zygote's memory or environment
     * through /proc, whatever uid it runs as. */
    prctl(PR_SET_DUMPABLE, 0);
    /* A change of uid clears the parent-death signal. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != engine_pid)
        _exit(3);
    if (chdir(run_cwd) < 0)
        die("chdir", -errno);
    lt_wire_writer_init(&view_note, LT_FRAME_VIEW);
    lt_wire_put_u32(&view_note, zygote_features);
    unsigned view_bits = LT_SBX_FSVIEW | LT_SBX_IDENTITY;
    lt_wire_put_cstr(&view_note, lt_sandbox_describe_missing(
                                     (LT_SBX_ALL & ~view_bits) |
                                     (zygote_features & view_bits)));
    lt_wire_put_cstr(&view_note, desc ? desc : "");
    view_note_ready = 1;
    free(desc);
    for (size_t i = 0; i < n; i++)
        free(ro[i]);
    free(ro);
}

_Noreturn void lt_zygote_main(int sock)
{
    engine_sock = sock;
    zygote_pid = getpid();
    fcntl(sock, F_SETFD, FD_CLOEXEC);
    /* The zygote must not outlive litmus. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    engine_pid = getppid();
    if (engine_pid == 1)
        _exit(3);

    uint8_t *payload = NULL;
    size_t len = 0;
    int type = lt_wire_recv(sock, LT_WIRE_MAX_FRAME, &payload, &len, NULL,
                            NULL);
    if (type != LT_FRAME_INIT)
        die("no INIT frame", type < 0 ? type : LT_EPROTO);
    /* The frame stays: the subjects' sources point into it. */
    struct lt_init_frame init;
    if (lt_init_frame_decode(payload, len, &init) < 0)
        die("malformed INIT frame", LT_EPROTO);
    run_cwd = init.cwd;
    scratch_base = init.scratch_base;
    scratch_root = xstrdup(scratch_base);
    int debug = init.debug;
    int bare = init.flags; /* bit 0 bare, bit 1 preload, bits 2-3 the
                              runner (shim.main) */
    const char *python = init.python;
    const char *path_prefix = init.path_prefix;
    char **allow = init.allow_read, **args = init.args;
    char **paths = init.paths;
    const char **sources = init.sources;
    const size_t *source_lens = init.source_lens;
    uint32_t nallow = init.n_allow_read, nargs = init.n_args;
    uint32_t nsub = init.n_subjects;
    cov_init(paths, source_lens, sources, nsub);

    /* Output of the collection phase goes nowhere: the shim catches what
     * matters and reports it in frames. */
    int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (devnull >= 0) {
        dup2(devnull, 0);
        dup2(devnull, 1);
        if (!debug)
            dup2(devnull, 2);
        close(devnull);
    }
    if (chdir(run_cwd) < 0)
        die("chdir", -errno);
    /* One fresh network namespace for the zygote and all its children:
     * no interface but a downed loopback, so no packet leaves. */
    if (unshare(CLONE_NEWNET) == 0)
        zygote_features |= LT_SBX_NETNS;

    /* Compile the seccomp filter once for every child to come. */
    struct lt_sandbox_opts sbx;
    lt_sandbox_opts_init(&sbx);
    if (lt_sandbox_prepare(&sbx) < 0 && debug)
        fprintf(stderr, "litmus-zygote: no prepared seccomp filter; each "
                        "child compiles its own\n");

    /* The processes the tests start import from the same places: the
     * engine's prefix (PYTHONPATH's entries made absolute, and an src/
     * root it added) becomes their PYTHONPATH.  The embedded interpreter
     * itself starts isolated and ignores it. */
    if (path_prefix[0])
        setenv("PYTHONPATH", path_prefix, 1);
    start_python(python);
    if (put_on_path(run_cwd, path_prefix) < 0) {
        PyErr_Print();
        send_failed("cannot set the import path");
        _exit(3);
    }
    if (!init.no_view) {
        /* The last moment the build tree is writable: coverage builds
         * write what start-up ran; the rest of this zygote's counts are
         * lost (it leaves from inside the view). */
        lt_cov_flush();
        cov_writable = 0;
        enter_view(args, nargs, paths, nsub, allow, nallow, init.sandbox_uid,
                   init.scratch_mb);
        if (zygote_features & LT_SBX_FSVIEW)
            zygote_tmpdir();
    } else {
        char note[] = "fs_view (turned off by --no-fs-view), identity (no "
                      "file-system view)";
        lt_wire_writer_init(&view_note, LT_FRAME_VIEW);
        lt_wire_put_u32(&view_note, 0);
        lt_wire_put_cstr(&view_note, note);
        lt_wire_put_cstr(&view_note, "");
        view_note_ready = 1;
    }
    if (!lt__codediff_module()) {
        PyErr_Print();
        send_failed("the code comparison module failed to load");
        _exit(3);
    }
    /* litmus_inputs first: litmus_calls imports it. */
    if (!embedded_module(lt_inputs_py, "<litmus inputs>", "litmus_inputs") ||
        !embedded_module(lt_calls_py, "<litmus calls>", "litmus_calls")) {
        PyErr_Print();
        send_failed("the call evaluation module failed to load");
        _exit(3);
    }
    PyObject *code = Py_CompileString(lt_shim_py, "<litmus shim>",
                                      Py_file_input);
    PyObject *mod = code ? PyImport_ExecCodeModule("litmus_shim", code)
                         : NULL;
    Py_XDECREF(code);
    if (!mod) {
        PyErr_Print();
        send_failed("the runner shim failed to load");
        _exit(3);
    }
    PyObject *py_args = PyList_New(nargs);
    for (uint32_t i = 0; i < nargs; i++)
        PyList_SET_ITEM(py_args, i, PyUnicode_DecodeFSDefault(args[i]));
    PyObject *py_subjects = PyList_New(nsub);
    for (uint32_t i = 0; i < nsub; i++) {
        PyObject *src = PyUnicode_DecodeUTF8(sources[i],
                                             (Py_ssize_t)source_lens[i],
                                             "surrogateescape");
        PyList_SET_ITEM(py_subjects, i,
                        Py_BuildValue("(NN)",
                                      PyUnicode_DecodeFSDefault(paths[i]),
                                      src));
    }
    PyObject *res = PyObject_CallMethod(mod, "main", "(NNi)", py_args,
                                        py_subjects, bare);
    if (!res) {
        PyErr_Print();
        if (!ready_sent)
            send_failed("the runner shim raised; run with LITMUS_DEBUG=1");
        _exit(3);
    }
    /* No Py_Finalize: nothing of ours needs it, and it could run user
     * atexit hooks. */
    zygote_exit(0);
}
