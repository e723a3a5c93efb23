/* Java programs in `litmus dataset` (--lang java): their runs go to warm
 * JVM workers (runners/jvm.h), each a sandboxed process that compiles in
 * memory and runs JUnit 4 tests or call expressions, on the JVM lane of
 * the engine's executor (engine/core/exec.h), which starts the workers,
 * hands each a task, reads its answer as hostile input and enforces the
 * wall deadlines.  This file owns what a run asks (its fields) and what
 * its answer means: the test lines and the worker's end as evidence,
 * decided by lt_verdict_decide(), the call results, the lanes' test ids.
 * The tasks, their cache keys, the store and the callbacks are the
 * dataset's own (dataset_tasks.c).  Calls only dataset_tasks.c,
 * dataset_helpers.c and the table (dataset_store.c): lt__ds_submit
 * reaches it through the hooks of its lanes.
 * SPDX-License-Identifier: MIT */
#include "engine/jobs/dataset/dataset_internal.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/err.h"
#include "common/log.h"
#include "common/sha256.h"
#include "common/xmalloc.h"
#include "engine/core/clock.h"
#include "engine/core/exe.h"
#include "engine/core/verdict.h"
#include "harness/jvm_wire.h"
#include "runners/jvm.h"
#include "sandbox/sandbox.h"

#define MAX_TESTS 100000     /* test ids a worker may report */
#define MAX_TEXT 4096        /* longer reprs and messages are cut */
#define COMPILE_WALL_S 20.0  /* wall time a compile may take, besides the
                                run's own limit */

static const struct lt_task_ops task_ops;
static const struct lt_lane_ops jvm_lane_ops;

/* The executor's JVM lane of the run, made on first use with the run's
 * scratch directory; NULL after an error line when there is none. */
static struct lt_lane *jvm_lane(struct ds_run *r)
{
    if (r->jvm)
        return r->jvm;
    if (lt__ds_scratch(r) < 0)
        return NULL;
    unsigned heap = (unsigned)(r->o->run.memory_mb / 4);
    if (heap < 128)
        heap = 128;
    if (heap > 1024)
        heap = 1024;
    struct lt_jvm_config c = {.exe = lt__engine_exe(),
                              .scratch_base = r->scratch, .heap_mb = heap,
                              .debug = r->o->debug};
    r->jvm = lt_exec_lane_jvm(&r->ex, &c, &jvm_lane_ops, r);
    return r->jvm;
}

/*** Lanes ***/

/* The hooks of a Java lane (struct ds_lane), defined with the workers. */
static void queue_task(struct ds_run *r, struct ds_task *t);
static void known_tests(struct ds_run *r, struct ds_lane *l);

/* The digest of the .java files below dir (names and contents, in name
 * order): what a run compiles besides the program text. */
static void digest_tree(struct lt_sha256 *s, const char *dir, int depth)
{
    struct dirent **names = NULL;
    int n = scandir(dir, &names, NULL, alphasort);
    for (int i = 0; i < n; i++) {
        const char *nm = names[i]->d_name;
        if (nm[0] == '.' || depth > 32) {
            free(names[i]);
            continue;
        }
        char *p = xasprintf("%s/%s", dir, nm);
        struct stat st;
        if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
            digest_tree(s, p, depth + 1);
        } else if (S_ISREG(st.st_mode) && strlen(nm) > 5 &&
                   strcmp(nm + strlen(nm) - 5, ".java") == 0) {
            char *text = NULL;
            size_t len = 0;
            if (lt_read_file(p, &text, &len) == 0) {
                lt_sha256_update(s, p, strlen(p) + 1);
                lt_sha256_update(s, text, len);
                free(text);
            }
        }
        free(p);
        free(names[i]);
    }
    free(names);
}

static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash && slash != path ? xstrndup(path, (size_t)(slash - path))
                                  : xstrdup("/");
}

/* The lane of a Java program: its file (or none: text from a record),
 * its source root (the file's folder above its package folders) and its
 * tests (a JUnit test file or test source root; NULL: calls, or
 * compiling alone).  Shared by the records naming the same ones. */
struct ds_lane *lt__ds_lane_java(struct ds_run *r, const char *path,
                                 const char *root, const char *tests,
                                 char **err)
{
    for (size_t i = 0; i < r->n_lanes; i++) {
        struct ds_lane *l = r->lanes[i];
        if (l->java && !!l->path == !!path &&
            (!path || strcmp(l->path, path) == 0) &&
            !!l->tests == !!tests && (!tests || strcmp(l->tests, tests) == 0))
            return l;
    }
    struct ds_lane *l = xcalloc(1, sizeof(*l));
    l->java = 1;
    l->run = queue_task;
    l->stored = known_tests;
    l->bare = tests == NULL;
    l->base_cpu_ms = -1;
    struct lt_sha256 s;
    lt_sha256_init(&s);
    lt_sha256_update(&s, "java/1\n", 7);
    struct lt_lane *xl = jvm_lane(r);
    if (!xl) {
        *err = xstrdup("cannot create a scratch directory");
        free(l);
        return NULL;
    }
    if (path) {
        int rc = lt_read_file(path, &l->source, &l->len);
        if (rc < 0) {
            *err = xasprintf("%s: %s", path, lt_strerror(rc));
            free(l);
            return NULL;
        }
        l->path = xstrdup(path);
        l->cwd = xstrdup(root ? root : "/");
        lt_sha256_update(&s, path, strlen(path) + 1);
        /* Helper classes on the source path are compiled with it. */
        digest_tree(&s, l->cwd, 0);
        lt_exec_jvm_read(xl, l->cwd);
    }
    lt_sha256_update(&s, "\n", 1);
    if (tests) {
        struct stat st;
        if (stat(tests, &st) < 0) {
            *err = xasprintf("tests %s: %s", tests, strerror(errno));
            free(l->source);
            free(l->path);
            free(l->cwd);
            free(l);
            return NULL;
        }
        l->tests = xstrdup(tests);
        lt_sha256_update(&s, tests, strlen(tests) + 1);
        if (S_ISDIR(st.st_mode)) {
            digest_tree(&s, tests, 0);
            lt_exec_jvm_read(xl, tests);
        } else {
            char *text = NULL;
            size_t len = 0;
            if (lt_read_file(tests, &text, &len) == 0) {
                lt_sha256_update(&s, text, len);
                free(text);
            }
            char *d = dir_of(tests);
            lt_exec_jvm_read(xl, d);
            free(d);
        }
    }
    uint8_t d[32];
    lt_sha256_final(&s, d);
    l->key = xmalloc(65);
    static const char hex[] = "0123456789abcdef";
    for (int i = 0; i < 32; i++) {
        l->key[2 * i] = hex[d[i] >> 4];
        l->key[2 * i + 1] = hex[d[i] & 15];
    }
    l->key[64] = '\0';
    r->lanes = xrealloc(r->lanes, (r->n_lanes + 1) * sizeof(*r->lanes));
    r->lanes[r->n_lanes++] = l;
    return l;
}

/*** Answers ***/

static json_t *error_result(const char *status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static json_t *error_result(const char *status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = NULL;
    if (vasprintf(&msg, fmt, ap) < 0)
        msg = NULL;
    va_end(ap);
    json_t *o = json_pack("{s:s, s:s}", "status", status, "error",
                          msg ? msg : "?");
    free(msg);
    return o;
}

static json_t *text_n(const char *s, size_t n)
{
    if (n > MAX_TEXT)
        n = MAX_TEXT;
    json_t *v = json_stringn(s, n);
    /* Cut inside a UTF-8 sequence, or not UTF-8 at all. */
    while (!v && n > 0)
        v = json_stringn(s, --n);
    return v ? v : json_string("");
}

/* Splits "a\tb\tc\trest" into at most k fields (the last takes the
 * rest); the number found. */
static size_t split_tabs(const char *s, size_t len, size_t k,
                         const char **f, size_t *fl)
{
    size_t n = 0, start = 0;
    for (size_t i = 0; i <= len && n < k; i++) {
        if (i == len || (s[i] == '\t' && n + 1 < k)) {
            f[n] = s + start;
            fl[n] = i - start;
            n++;
            start = i + 1;
        }
    }
    return n;
}

static double number_of(const char *s, size_t n)
{
    char buf[32];
    if (n == 0 || n >= sizeof(buf))
        return -1;
    memcpy(buf, s, n);
    buf[n] = '\0';
    char *end;
    double v = strtod(buf, &end);
    return *end || v < 0 || v > 3600e3 ? -1 : v;
}

static long test_index(const struct ds_lane *l, const char *id, size_t n)
{
    size_t lo = 0, hi = l->n_java_tests;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        const char *m = l->java_tests[mid];
        int c = strncmp(m, id, n);
        if (c == 0)
            c = m[n] ? 1 : 0;
        if (c == 0)
            return (long)mid;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The lane learns its tests from the first answer that lists them; later
 * answers must list the same. */
static int learn_tests(struct ds_lane *l, const char *s, size_t len)
{
    char **ids = NULL;
    size_t n = 0;
    size_t start = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i < len && s[i] != '\n')
            continue;
        if (i > start) {
            if (n == MAX_TESTS || memchr(s + start, '\0', i - start)) {
                for (size_t k = 0; k < n; k++)
                    free(ids[k]);
                free(ids);
                return -1;
            }
            ids = xrealloc(ids, (n + 1) * sizeof(char *));
            ids[n++] = xstrndup(s + start, i - start);
        }
        start = i + 1;
    }
    if (n)
        qsort(ids, n, sizeof(char *), cmp_str);
    int rc = 0;
    if (!l->java_tests_known) {
        l->java_tests = ids;
        l->n_java_tests = n;
        l->java_tests_known = 1;
        return 1;
    }
    if (n != l->n_java_tests)
        rc = -1;
    for (size_t k = 0; k < n && rc == 0; k++)
        if (strcmp(ids[k], l->java_tests[k]) != 0)
            rc = -1;
    for (size_t k = 0; k < n; k++)
        free(ids[k]);
    free(ids);
    return rc;
}

/* A lane's test ids go to the store beside its results, so that a run
 * whose results all come from the store (a resumed or merged run) names
 * the tests of its witnesses without starting a worker. */
static void tests_key(const struct ds_lane *l, char *key)
{
    char *k = xasprintf("java-tests\n%s", l->key);
    lt_sha256_hex(k, strlen(k), key);
    free(k);
}

static void store_tests(struct ds_run *r, const struct ds_lane *l,
                        const char *all, size_t len)
{
    if (!r->st || lt_exec_write(&r->ex) < 0)
        return;
    char key[65];
    tests_key(l, key);
    json_t *v = json_pack("{s:s%}", "tests", all, len);
    char *json = v ? json_dumps(v, JSON_COMPACT) : NULL;
    if (json)
        lt_exec_wrote(&r->ex, lt_store_put_dataset(r->st, key, json));
    free(json);
    json_decref(v);
}

/* A Java lane's stored hook (lt__ds_submit, for a result from the
 * store): the lane's test ids from the store, when a worker has not said
 * them in this run. */
static void known_tests(struct ds_run *r, struct ds_lane *l)
{
    if (l->java_tests_known || !r->st)
        return;
    char key[65];
    tests_key(l, key);
    char *json = NULL;
    if (lt_store_get_dataset(r->st, key, &json) < 0 || !json)
        return;
    json_t *v = json_loads(json, 0, NULL);
    free(json);
    const json_t *t = json_object_get(v, "tests");
    if (json_is_string(t))
        learn_tests(l, json_string_value(t), json_string_length(t));
    json_decref(v);
}

/* Whether test index k is among those a task's run selects: as
 * worker_send() sends them, the task's indices below the lane's count,
 * or every test when none is. */
static int selects(const struct ds_task *t, size_t k, size_t *n_selected)
{
    const struct ds_lane *l = t->lane;
    size_t n = 0;
    int in = 0;
    for (size_t i = 0; t->tests && i < t->n_tests; i++) {
        if (t->tests[i] < l->n_java_tests) {
            n++;
            in |= t->tests[i] == k;
        }
    }
    if (n_selected)
        *n_selected = n ? n : l->n_java_tests;
    return n ? in : 1;
}

/* The result of a test run from the worker's answer, in the shape of
 * dataset_exec.c's tests_result(): the test lines (hostile input,
 * checked against the lane's test ids) become the evidence that
 * lt_verdict_decide(), the rule of every job, decides.  The worker runs
 * the selected tests in order and stops early on its own at a test over
 * the CPU budget (T), at an OutOfMemoryError (M) and, with stop_first,
 * at the first failure: an answer is the runner's END. */
static json_t *tests_answer(struct ds_run *r, struct ds_task *t,
                            const struct lt_jvm_msg *m, const char *wstatus)
{
    struct ds_lane *l = t->lane;
    size_t len;
    const char *all = lt_jvm_msg_get(m, "tests_all", &len);
    int learnt = all ? learn_tests(l, all, len) : -1;
    if (learnt < 0)
        return error_result("error", "the Java worker listed %s tests",
                            all ? "other" : "no");
    if (learnt)
        store_tests(r, l, all, len);
    if (l->n_java_tests == 0)
        return error_result("crashed", "no JUnit 4 tests collected from %s",
                            l->tests);
    size_t nt = l->n_java_tests;
    char *oc = xmalloc(nt + 1);
    memset(oc, '-', nt);
    oc[nt] = '\0';
    double cpu = 0;
    long first_bad = -1, timed = -1, first_fail = -1;
    int memory = 0;
    json_t *message = NULL;
    struct lt_evidence ev = {.apply = LT_EV_APPLY_OK, .sandboxed = 1,
                             .ended = 1};
    const char *fail_text = NULL;
    size_t fail_len = 0;
    selects(t, 0, &ev.n_tests);
    for (size_t i = 0; i < m->n; i++) {
        if (strcmp(m->f[i].name, "test") != 0)
            continue;
        const char *f[4];
        size_t fl[4];
        if (split_tabs(m->f[i].val, m->f[i].len, 4, f, fl) != 4 ||
            fl[0] != 1 || !strchr("PFSTM", f[0][0])) {
            free(oc);
            json_decref(message);
            return error_result("error", "malformed test result from the "
                                "Java worker");
        }
        long k = test_index(l, f[2], fl[2]);
        double ms = number_of(f[1], fl[1]);
        if (k < 0 || ms < 0 || oc[k] != '-') {
            free(oc);
            json_decref(message);
            return error_result("error", "malformed test result from the "
                                "Java worker");
        }
        char c = f[0][0];
        cpu += ms;
        oc[k] = c == 'T' ? 'F' : c;
        ev.n_results++;
        ev.n_selected_seen += selects(t, (size_t)k, NULL);
        if (c == 'T' && timed < 0)
            timed = k;
        memory |= c == 'M';
        if ((c == 'F' || c == 'M' || c == 'T') && first_bad < 0) {
            first_bad = k;
            message = text_n(f[3], fl[3]);
        }
        if ((c == 'F' || c == 'M') && first_fail < 0) {
            first_fail = k;
            ev.fail_memory = c == 'M';
            fail_text = f[3];
            fail_len = fl[3];
        }
    }
    /* A test over the run's CPU budget (the worker watches each test's
     * thread), or a thread that would not stop: the limit, with the test
     * that was running. */
    ev.timed_out = timed >= 0 || strcmp(wstatus, "timeout") == 0;
    ev.cpu_over = ev.timed_out;
    ev.cpu_budget_s = t->budget_s;
    ev.current_test = timed >= 0 ? l->java_tests[timed] : NULL;
    ev.fail_test = first_fail >= 0 ? l->java_tests[first_fail] : NULL;
    char *ftext = fail_text ? xstrndup(fail_text, fail_len) : NULL;
    ev.fail_text = ftext;
    /* After an OutOfMemoryError the worker stops (its heap is suspect):
     * its list ends there, as with stop_first at a failure. */
    ev.need_all = !t->stop_first && !memory;
    struct lt_decision d;
    lt_verdict_decide(&ev, &d);
    free(ftext);
    const char *status = lt_reason_ds_status(d.reason);
    free(d.killed_by);
    free(d.detail);
    json_t *o = json_pack("{s:s, s:s, s:f, s:f}", "status", status,
                          "outcomes", oc, "cpu_ms", cpu, "tests_ms", cpu);
    free(oc);
    long ft = timed >= 0 ? timed : first_bad;
    if (ft >= 0) {
        json_object_set_new(o, "test", json_string(l->java_tests[ft]));
        if (message && timed < 0)
            json_object_set(o, "message", message);
    }
    json_decref(message);
    return o;
}

/* The result of a call-evaluation run, in the shape of dataset_exec.c's
 * cases_result(). */
static json_t *cases_answer(struct ds_task *t, const struct lt_jvm_msg *m,
                            const char *wstatus)
{
    size_t n = json_array_size(t->calls);
    json_t *cases = json_array(), *work = json_array();
    double child = 0;
    for (size_t i = 0; i < m->n; i++) {
        if (strcmp(m->f[i].name, "call") != 0)
            continue;
        const char *f[4];
        size_t fl[4];
        double ms;
        if (json_array_size(cases) == n ||
            split_tabs(m->f[i].val, m->f[i].len, 4, f, fl) != 4 ||
            (ms = number_of(f[1], fl[1])) < 0)
            goto bad;
        json_t *c;
        if (fl[0] == 2 && memcmp(f[0], "ok", 2) == 0)
            c = json_pack("{s:s, s:o, s:o}", "status", "ok", "repr",
                          text_n(f[3], fl[3]), "type", text_n(f[2], fl[2]));
        else if (fl[0] == 6 && memcmp(f[0], "raised", 6) == 0)
            c = json_pack("{s:s, s:o, s:o}", "status", "raised", "exception",
                          text_n(f[2], fl[2]), "repr", text_n(f[3], fl[3]));
        else if (fl[0] == 7 && memcmp(f[0], "timeout", 7) == 0)
            c = json_pack("{s:s}", "status", "timeout");
        else if (fl[0] == 5 && memcmp(f[0], "error", 5) == 0)
            c = json_pack("{s:s, s:o}", "status", "error", "error",
                          text_n(f[3], fl[3]));
        else
            goto bad;
        json_array_append_new(cases, c);
        json_array_append_new(work, json_real(ms));
        child += ms;
    }
    if (strcmp(wstatus, "timeout") == 0 && json_array_size(cases) < n) {
        json_decref(cases);
        json_decref(work);
        return json_pack("{s:s}", "status", "timeout");
    }
    if (json_array_size(cases) != n) {
        json_decref(cases);
        json_decref(work);
        return error_result("crashed", "the Java worker answered %zu of %zu "
                            "calls", json_array_size(cases), n);
    }
    return json_pack("{s:s, s:o, s:o, s:f}", "status", "ok", "cases", cases,
                     "work_ms", work, "child_ms", child);
bad:
    json_decref(cases);
    json_decref(work);
    return error_result("error", "malformed call result from the Java "
                        "worker");
}

/* The result of a run that got no answer, decided by lt_verdict_decide()
 * as every run is: past its wall deadline (wall_s > 0: the worker was
 * killed there), or the worker ended while it ran (status: its wait
 * status; the worker answers every compile, so a worker that ends has
 * compiled the program, and what ended it is the program's doing: an
 * exit, a signal).  A worker killed by SIGKILL that we did not send is
 * not decided here: the runner died (task_done runs the task again). */
static json_t *no_answer(double wall_s, int status)
{
    struct lt_evidence ev = {.apply = LT_EV_APPLY_OK, .sandboxed = 1,
                             .timed_out = wall_s > 0, .wall_limit_s = wall_s};
    ev.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    ev.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    struct lt_decision d;
    lt_verdict_decide(&ev, &d);
    const char *st = lt_reason_ds_status(d.reason);
    json_t *o = d.verdict == LT_VERDICT_TIMEOUT
                    ? json_pack("{s:s}", "status", st)
                : ev.signal ? json_pack("{s:s, s:s}", "status", st, "error",
                                        d.detail ? d.detail : "")
                            : error_result(st, "the process exited with "
                                           "status %d", ev.exit_code);
    free(d.killed_by);
    free(d.detail);
    return o;
}

/*** Runs on the executor ***/

/* A Java lane's run hook (lt__ds_submit, after the caches missed): the
 * executor runs the task on one of the JVM lane's workers. */
static void queue_task(struct ds_run *r, struct ds_task *t)
{
    t->xt.ops = &task_ops;
    t->xt.lane = r->jvm;
    lt_exec_submit(&r->ex, &t->xt);
}

/* The run's request: the program (its text, or the file as on disk for
 * the baseline), its tests and the selected ones, the budgets, the
 * calls; its wall deadline gives the compile its own time besides. */
static int task_prepare(struct lt_exec *ex, struct lt_task *xt,
                        struct lt_launch *la)
{
    struct ds_run *r = ex->owner;
    struct ds_task *t = xt->owner;
    struct ds_lane *l = t->lane;
    struct lt_buf sel = LT_BUF_INIT;
    for (size_t i = 0; t->tests && i < t->n_tests; i++) {
        if (t->tests[i] < l->n_java_tests) {
            lt_buf_append(&sel, l->java_tests[t->tests[i]],
                          strlen(l->java_tests[t->tests[i]]));
            lt_buf_append(&sel, "\n", 1);
        }
    }
    size_t n_sel = sel.len;
    la->owned[0] = lt_buf_steal(&sel);
    la->owned[1] = xasprintf("%.0f", t->budget_s * 1000.0);
    la->owned[2] = xasprintf("%.0f", t->call_timeout * 1000.0);
    size_t nc = json_array_size(t->calls);
    struct lt_jvm_field *f = xcalloc(10 + nc, sizeof(*f));
    size_t n = 0;
    const char *text = t->kind == TK_BASELINE ? l->source : t->source;
    size_t tlen = t->kind == TK_BASELINE ? l->len : t->len;
#define FIELD(nm, v, ln) f[n++] = (struct lt_jvm_field){nm, v, ln}
#define FIELDS(nm, v) FIELD(nm, v, strlen(v))
    FIELD("program", text ? text : "", text ? tlen : 0);
    FIELDS("program_path", l->path ? l->path : "");
    FIELDS("tests", l->tests ? l->tests : "");
    if (t->tests && n_sel)
        FIELD("select", la->owned[0], n_sel);
    FIELDS("stop_first", t->stop_first ? "1" : "0");
    FIELDS("budget_ms", la->owned[1]);
    FIELDS("call_budget_ms", la->owned[2]);
    for (size_t i = 0; i < nc; i++)
        FIELDS("call", json_string_value(json_array_get(t->calls, i)));
#undef FIELD
#undef FIELDS
    la->jvm = f;
    la->n_jvm = n;
    la->wall = COMPILE_WALL_S + 3 * t->budget_s + 1;
    if (!r->t_first_job)
        r->t_first_job = lt__now();
    return 0;
}

/* The result of a run from the worker's answer. */
static json_t *answer_result(struct ds_run *r, struct ds_task *t,
                             const struct lt_jvm_msg *m)
{
    size_t len;
    const char *compile = lt_jvm_msg_get(m, "compile", &len);
    const char *ws = lt_jvm_msg_get(m, "status", &len);
    json_t *res;
    if (strcmp(compile, "ok") != 0) {
        const char *e = lt_jvm_msg_get(m, "error", &len);
        json_t *text = e ? text_n(e, len) : json_string("does not compile");
        struct lt_evidence ev = {.apply = LT_EV_APPLY_INVALID,
                                 .apply_text = json_string_value(text)};
        struct lt_decision d;
        lt_verdict_decide(&ev, &d);
        res = json_pack("{s:s, s:b, s:o}", "status",
                        lt_reason_ds_status(d.reason),
                        "compile_error", 1, "error", text);
        free(d.killed_by);
        free(d.detail);
    } else if (t->kind == TK_CASES) {
        res = cases_answer(t, m, ws);
    } else {
        res = tests_answer(r, t, m, ws);
    }
    const char *cms = lt_jvm_msg_get(m, "compile_ms", &len);
    double c = cms ? number_of(cms, len) : -1;
    if (c >= 0) {
        r->s.java_compile_ms += c;
        r->s.java_compiles++;
    }
    r->s.java_run_ms += json_real_value(json_object_get(res, "cpu_ms")) +
                        json_real_value(json_object_get(res, "child_ms"));
    return res;
}

/* The run is over: its answer, or how it ended without one, becomes its
 * result.  An engine failure (error) runs once more, then it stands. */
static void task_finished(struct lt_exec *ex, struct lt_task *xt,
                          const struct lt_run_report *j)
{
    struct ds_run *r = ex->owner;
    struct ds_task *t = xt->owner;
    json_t *res;
    if (j->answer)
        res = answer_result(r, t, j->answer);
    else if (j->protocol_error)
        res = error_result("error", "malformed answer from the Java worker");
    else if (j->timed_out)
        res = no_answer(j->deadline - j->started_at, 0);
    else
        res = no_answer(0, j->wait_status);
    if (!lt__ds_run_over(r, t, res, j->started_at))
        return;
    t->result = res;
    lt__ds_result(r, t);
}

static const struct lt_task_ops task_ops = {
    .prepare = task_prepare, .finished = task_finished,
    .lost = lt__ds_task_lost};

/* A worker started: the summary counts them. */
static void worker_started(struct lt_exec *ex, struct lt_lane *xl,
                           struct lt_task *t)
{
    struct ds_run *r = ex->owner;
    (void)xl;
    if (!t)
        r->s.java_workers++;
}

static const struct lt_lane_ops jvm_lane_ops = {.started = worker_started};

static void drop_task(struct lt_task *xt)
{
    lt__ds_task_free(xt->owner);
}

/* The tasks the executor still holds when a run stops early (queued, or
 * running on a worker) are freed; the executor stops the workers. */
void lt__ds_java_close(struct ds_run *r)
{
    if (r->jvm)
        lt_exec_lane_drop_tasks(&r->ex, r->jvm, drop_task);
    r->jvm = NULL;
}
