/* The executor of `litmus dataset`: lanes of zygotes (the bare lane for
 * call evaluation, one pytest lane per program verified by its tests)
 * sharing the --jobs budget on the engine's executor (a FIFO of tasks per
 * lane, one event loop over every lane), the decoding of each child's
 * evidence (hostile input) into a small JSON result, the loop of a run
 * (Python's and Java's alike), and --floor.  Calls the Java
 * workers (dataset_java.c), the tasks and their caches (dataset_tasks.c)
 * and the helpers (dataset_helpers.c).  SPDX-License-Identifier: MIT */
#include "engine/jobs/dataset/dataset_internal.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/err.h"
#include "common/log.h"
#include "common/sha256.h"
#include "common/xmalloc.h"
#include "engine/core/clock.h"
#include "harness/wire.h"
#include "sandbox/sandbox.h"

#define MAX_REPR 4096          /* longer texts from a child: malformed */
#define MAX_LINES 1000000      /* line numbers a child may report */

/*** Lanes ***/

static const struct lt_lane_ops lane_ops;
static const struct lt_task_ops task_ops;

/* A zygote lane's run hook (lt__ds_submit, for a task no cache answered):
 * the executor runs the task on one of the lane's zygotes. */
static void run_on_zygotes(struct ds_run *r, struct ds_task *t)
{
    t->xt.ops = &task_ops;
    t->xt.lane = t->lane->xl;
    lt_exec_submit(&r->ex, &t->xt);
}

/* Registers a lane whose fields are set with the executor.  NULL when no
 * scratch directory can be made (the run stops). */
static struct ds_lane *lane_add(struct ds_run *r, struct ds_lane *l)
{
    if (lt__ds_scratch(r) < 0) {
        lt_exec_fail(&r->ex, LT_EXIT_ENGINE);
        return NULL;
    }
    l->base_cpu_ms = -1;
    l->run = run_on_zygotes;
    struct lt_runner_config cfg = {
        .cwd = l->cwd, .scratch_base = r->scratch,
        .pytest_args = l->bare ? NULL : l->args,
        .n_pytest_args = l->bare ? 0 : 1,
        .subjects = l->bare ? NULL : &l->subject,
        .n_subjects = l->bare ? 0 : 1, .debug = r->o->debug,
        .bare = l->bare};
    l->xl = lt_exec_lane(&r->ex, &cfg, &lane_ops, l);
    r->lanes = xrealloc(r->lanes, (r->n_lanes + 1) * sizeof(*r->lanes));
    r->lanes[r->n_lanes++] = l;
    return l;
}

static void lane_free(struct ds_lane *l)
{
    for (size_t i = 0; i < l->n_java_tests; i++)
        free(l->java_tests[i]);
    free(l->java_tests);
    free(l->key);
    free(l->path);
    free(l->source);
    free(l->tests);
    free(l->cwd);
    free(l);
}

/* The lane of call-evaluation jobs: bare zygotes (no pytest, no subject).
 * Created on first use; NULL when the run cannot go on. */
struct ds_lane *lt__ds_lane_bare(struct ds_run *r)
{
    if (r->bare)
        return r->bare;
    struct ds_lane *l = xcalloc(1, sizeof(*l));
    l->bare = 1;
    l->key = xstrdup("bare");
    l->cwd = getcwd(NULL, 0);
    if (!l->cwd)
        l->cwd = xstrdup("/");
    if (!lane_add(r, l)) {
        lane_free(l);
        return NULL;
    }
    r->bare = l;
    return l;
}

/* The pytest lane of a program file and its tests (absolute paths), shared
 * by every record naming the same pair.  NULL with *err (caller frees)
 * when the program file cannot be read. */
struct ds_lane *lt__ds_lane_tests(struct ds_run *r, const char *path,
                                  const char *tests, char **err)
{
    for (size_t i = 0; i < r->n_lanes; i++) {
        struct ds_lane *l = r->lanes[i];
        if (!l->bare && strcmp(l->path, path) == 0 &&
            strcmp(l->tests, tests) == 0)
            return l;
    }
    char *src = NULL;
    size_t len = 0;
    int rc = lt_read_file(path, &src, &len);
    if (rc < 0) {
        *err = xasprintf("%s: %s", path, lt_strerror(rc));
        return NULL;
    }
    struct ds_lane *l = xcalloc(1, sizeof(*l));
    l->path = xstrdup(path);
    l->tests = xstrdup(tests);
    l->source = src;
    l->len = len;
    char *slash = strrchr(l->path, '/');
    l->cwd = slash && slash != l->path ? xstrndup(l->path,
                                                  (size_t)(slash - l->path))
                                       : xstrdup("/");
    char sha[65];
    lt_sha256_hex(src, len, sha);
    l->key = xasprintf("%s\n%s\n%s", path, tests, sha);
    l->args[0] = l->tests;
    l->subject = (struct lt_subject){l->path, l->source, l->len};
    if (!lane_add(r, l)) {
        lane_free(l);
        *err = xstrdup("cannot create a scratch directory");
        return NULL;
    }
    return l;
}

/*** Tasks ***/

/*** Evidence ***/

static json_t *err_result(const char *status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static json_t *err_result(const char *status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = xvasprintf(fmt, ap);
    va_end(ap);
    json_t *o = json_pack("{s:s, s:s}", "status", status, "error",
                          s ? s : "");
    free(s);
    return o;
}

/* Masks the addresses CPython puts in default reprs ("<C object at
 * 0x7f3a...>"): they change from run to run and are not behaviour, so
 * "at 0x7f3a12" becomes "at 0x".  Returns a new string. */
static char *mask_addresses(const char *s)
{
    struct lt_buf b = LT_BUF_INIT;
    const char *p = s;
    for (;;) {
        const char *at = strstr(p, " at 0x");
        if (!at)
            break;
        const char *e = at + 6;
        while ((*e >= '0' && *e <= '9') || (*e >= 'a' && *e <= 'f') ||
               (*e >= 'A' && *e <= 'F'))
            e++;
        lt_buf_append(&b, p, (size_t)(at + 6 - p));
        p = e;
    }
    lt_buf_puts(&b, p);
    return lt_buf_steal(&b);
}

static json_t *masked(const char *s)
{
    char *m = mask_addresses(s);
    json_t *v = json_string(m);
    free(m);
    return v ? v : json_string("");
}

/* A string field of a record no longer than MAX_REPR, or NULL. */
static const char *rec_str(const json_t *rec, const char *key)
{
    const json_t *v = json_object_get(rec, key);
    if (!json_is_string(v) || json_string_length(v) > MAX_REPR)
        return NULL;
    return json_string_value(v);
}

static int cmp_int(const void *a, const void *b)
{
    json_int_t x = *(const json_int_t *)a, y = *(const json_int_t *)b;
    return x < y ? -1 : x > y;
}

/* One "case" record of a child, checked field by field; NULL when it is
 * malformed.  The result keeps only what the engine uses. */
static json_t *check_case(const json_t *rec, int want_lines, int max_line,
                          double *work_ms)
{
    const char *status = rec_str(rec, "status");
    if (!status)
        return NULL;
    json_t *c = json_object();
    if (strcmp(status, "ok") == 0) {
        const char *repr = rec_str(rec, "repr");
        const char *type = rec_str(rec, "type_name");
        if (!repr || !type)
            goto bad;
        json_object_set_new(c, "status", json_string("ok"));
        json_object_set_new(c, "repr", masked(repr));
        json_object_set_new(c, "type", json_string(type));
        json_t *v = json_object_get(rec, "json");
        char *txt = v ? json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
        if (txt && strlen(txt) <= MAX_REPR + 16 && !json_is_null(v))
            json_object_set(c, "json", v);
        free(txt);
    } else if (strcmp(status, "raised") == 0) {
        const char *exc = rec_str(rec, "exception");
        const char *repr = rec_str(rec, "repr");
        if (!exc)
            goto bad;
        json_object_set_new(c, "status", json_string("raised"));
        json_object_set_new(c, "exception", json_string(exc));
        json_object_set_new(c, "repr", masked(repr ? repr : ""));
    } else if (strcmp(status, "timeout") == 0) {
        json_object_set_new(c, "status", json_string("timeout"));
    } else if (strcmp(status, "error") == 0) {
        const char *e = rec_str(rec, "error");
        json_object_set_new(c, "status", json_string("error"));
        json_object_set_new(c, "error", json_string(e ? e : "bad input"));
    } else {
        goto bad;
    }
    /* The CPU times of the call and of the module's load, when given:
     * numbers from 0 to an hour, else the record is refused.  They vary
     * from run to run, so they stay out of the case, whose fields can end
     * up in datasets; *work_ms gets the larger, or -1. */
    static const char *const times[] = {"cpu_ms", "load_cpu_ms"};
    *work_ms = -1;
    for (size_t i = 0; i < 2; i++) {
        const json_t *x = json_object_get(rec, times[i]);
        if (!x)
            continue;
        if (!json_is_number(x) || json_number_value(x) < 0 ||
            json_number_value(x) > 3600e3)
            goto bad;
        if (json_number_value(x) > *work_ms)
            *work_ms = json_number_value(x);
    }
    if (want_lines) {
        const json_t *lines = json_object_get(rec, "lines");
        if (!json_is_array(lines) || json_array_size(lines) > MAX_LINES)
            goto bad;
        size_t n = json_array_size(lines);
        json_int_t *v = xmalloc((n + 1) * sizeof(json_int_t));
        for (size_t i = 0; i < n; i++) {
            const json_t *x = json_array_get(lines, i);
            if (!json_is_integer(x) || json_integer_value(x) < 1 ||
                json_integer_value(x) > max_line) {
                free(v);
                goto bad;
            }
            v[i] = json_integer_value(x);
        }
        qsort(v, n, sizeof(*v), cmp_int);
        json_t *arr = json_array();
        for (size_t i = 0; i < n; i++)
            if (i == 0 || v[i] != v[i - 1])
                json_array_append_new(arr, json_integer(v[i]));
        free(v);
        json_object_set_new(c, "lines", arr);
    }
    return c;
bad:
    json_decref(c);
    return NULL;
}

/* The result of a call-evaluation job from the child's frames. */
static json_t *cases_result(const struct ds_task *t,
                            const struct lt_run_report *j)
{
    int st = j->wait_status;
    if (j->timed_out || (WIFSIGNALED(st) && WTERMSIG(st) == SIGXCPU))
        return json_pack("{s:s}", "status", "timeout");
    if (j->output_overflow)
        return err_result("crashed", "output limit of %u bytes exceeded",
                          LT_OUTPUT_CAP);
    if (j->protocol_error)
        return err_result("error", "malformed frames from the child");
    if (!j->sandboxed)
        return err_result("error", "the child ended before its sandbox "
                          "was in place (status 0x%x)", st);
    size_t n = json_array_size(t->calls);
    int max_line = t->max_line ? t->max_line
                               : lt__ds_count_lines(t->source, t->len) + 1;
    json_t **cases = xcalloc(n + 1, sizeof(json_t *));
    double *work_ms = xcalloc(n + 1, sizeof(double));
    json_t *out = NULL;
    const char *load_error = NULL;
    json_t *load_rec = NULL;
    for (size_t i = 0; i < j->n_records && !out; i++) {
        json_t *rec = json_loads(j->records[i], JSON_REJECT_DUPLICATES, NULL);
        const char *type = rec_str(rec, "type");
        if (!json_is_object(rec) || !type) {
            out = err_result("error", "malformed record from the child");
        } else if (strcmp(type, "load_error") == 0 && !load_rec && i == 0) {
            load_error = rec_str(rec, "error");
            load_rec = rec;
            rec = NULL;
        } else if (strcmp(type, "case") == 0 && !load_rec) {
            const json_t *ix = json_object_get(rec, "index");
            json_int_t k = json_is_integer(ix) ? json_integer_value(ix) : -1;
            json_t *c = k >= 0 && (size_t)k < n && !cases[k]
                            ? check_case(rec, t->trace, max_line,
                                         &work_ms[k])
                            : NULL;
            if (!c)
                out = err_result("error", "malformed case record from the "
                                 "child");
            else
                cases[k] = c;
        } else {
            out = err_result("error", "unexpected record from the child");
        }
        json_decref(rec);
    }
    int clean = j->ended && WIFEXITED(st) && WEXITSTATUS(st) == 0;
    if (!out && load_rec) {
        out = clean ? json_pack("{s:s, s:s}", "status", "load_error", "error",
                                load_error ? load_error : "")
                    : NULL;
    }
    if (!out) {
        size_t got = 0;
        for (size_t i = 0; i < n; i++)
            got += cases[i] != NULL;
        if (clean && got == n) {
            json_t *arr = json_array();
            json_t *work = json_array();
            for (size_t i = 0; i < n; i++) {
                json_array_append_new(arr, cases[i]);
                cases[i] = NULL;
                json_array_append_new(work, json_real(work_ms[i]));
            }
            /* work_ms: per case, the CPU time of the call or the load,
             * whichever is larger (-1: not reported). */
            out = json_pack("{s:s, s:o, s:o}", "status", "ok", "cases", arr,
                            "work_ms", work);
        } else if (WIFSIGNALED(st)) {
            out = err_result("crashed", "killed by signal %d (%s)",
                             WTERMSIG(st), strsignal(WTERMSIG(st)));
        } else {
            /* exit() in the program, or a child that left early. */
            out = err_result("crashed", "the process exited with status %d "
                             "after %zu of %zu calls",
                             WIFEXITED(st) ? WEXITSTATUS(st) : -1, got, n);
        }
    }
    for (size_t i = 0; i < n; i++)
        json_decref(cases[i]);
    free(cases);
    free(work_ms);
    json_decref(load_rec);
    return out;
}

/* The result of a test job: status passed / failed / timeout / crashed /
 * raised / invalid / equivalent / error, the outcome of every test that
 * ran ("outcomes": one letter per collected test: P passed, F failed,
 * S skipped, M memory, '-' not run), the first failing test. */
static json_t *tests_result(const struct ds_task *t,
                            const struct lt_run_report *j)
{
    const struct ds_lane *l = t->lane;
    json_t *o = json_object();
    size_t nt = lt_exec_lane_suite(l->xl)->n_tests;
    char *oc = xmalloc(nt + 1);
    double test_ms = 0;
    for (size_t i = 0; i < nt; i++) {
        static const char letters[] = "PFSM";
        oc[i] = j->seen && j->seen[i] && j->test_outcome[i] < 4
                    ? letters[j->test_outcome[i]]
                    : '-';
        if (j->seen && j->seen[i])
            test_ms += j->test_ns[i] / 1e6;
    }
    oc[nt] = '\0';
    json_object_set_new(o, "outcomes", json_string(oc));
    json_object_set_new(o, "tests_ms", json_real(test_ms));
    free(oc);
    /* The one rule of every job decides; the records keep the dataset's
     * status names (the reasons' table maps each reason onto one,
     * docs/verdicts.md). */
    struct lt_evidence ev;
    struct lt_decision d;
    lt__run_evidence(lt_exec_lane_suite(l->xl), j, &ev);
    ev.need_all = !t->stop_first;
    lt_verdict_decide(&ev, &d);
    lt__evidence_clear(&ev);
    const char *status = lt_reason_ds_status(d.reason);
    json_object_set_new(o, "verdict",
                        json_string(lt_verdict_name(d.verdict)));
    json_object_set_new(o, "reason", json_string(lt_reason_name(d.reason)));
    /* "error": why a run gave no test outcomes (the guard's own words
     * for tamper); failures carry "message", limits nothing. */
    if (j->tamper && d.reason == LT_REASON_TAMPER)
        json_object_set_new(o, "error", json_string(j->tamper));
    else if (d.detail && (d.verdict == LT_VERDICT_INVALID ||
                          d.verdict == LT_VERDICT_ERROR ||
                          d.verdict == LT_VERDICT_CRASHED ||
                          d.reason == LT_REASON_IMPORT ||
                          d.reason == LT_REASON_EXIT_EARLY))
        json_object_set_new(o, "error", json_string(d.detail));
    free(d.detail);
    free(d.killed_by);
    json_object_set_new(o, "status", json_string(status));
    long ft = j->fail_test >= 0 ? j->fail_test : j->current;
    if (ft >= 0 && d.reason != LT_REASON_PASSED) {
        json_object_set_new(o, "test", json_string(lt__ds_test_id(l, ft)));
        if (j->fail_test >= 0 && j->fail_text)
            json_object_set_new(o, "message", masked(j->fail_text));
    }
    double cpu_ms = 0;
    for (size_t i = 0; i < nt; i++)
        if (j->seen && j->seen[i])
            cpu_ms += j->test_cpu_ns[i] / 1e6;
    json_object_set_new(o, "cpu_ms", json_real(cpu_ms));
    return o;
}

/*** Running ***/

static int task_prepare(struct lt_exec *ex, struct lt_task *xt,
                        struct lt_launch *la)
{
    struct ds_run *r = ex->owner;
    struct ds_task *t = xt->owner;
    struct ds_lane *l = t->lane;
    const struct lt_dataset_opts *o = r->o;
    struct lt_run_spec *spec = &la->spec;
    struct lt_run_request *req = &la->req;
    *req = (struct lt_run_request){
        .mode = LT_RUN_MUTANT, .replacement = "",
        .memory_bytes = (uint64_t)o->run.memory_mb << 20};
    size_t nt = lt_exec_lane_suite(l->xl)->n_tests;
    if (t->kind == TK_CASES) {
        json_t *job = json_pack(
            "{s:s, s:s, s:s, s:s%, s:O, s:b, s:f}", "kind", "cases", "path",
            "litmus_case.py", "module", "litmus_case", "source", t->source,
            t->len, "calls", t->calls ? t->calls : json_array(), "trace",
            t->trace, "call_timeout", t->call_timeout);
        if (!job)
            return LT_EUSAGE; /* not UTF-8: checked on input already */
        la->owned[0] = json_dumps(job, JSON_COMPACT);
        json_decref(job);
        req->mode = LT_RUN_CALLS;
        req->extra = la->owned[0];
        req->flags = LT_RUN_UNTRUSTED;
        lt_run_spec_alloc(spec, nt, 0);
        spec->n_files = 1;
    } else {
        int base = t->kind == TK_BASELINE;
        lt_run_spec_alloc(spec, nt, base);
        spec->is_baseline = base;
        spec->n_files = 1;
        if (t->tests) {
            spec->tests = xmalloc((t->n_tests + 1) * sizeof(uint32_t));
            for (size_t i = 0; i < t->n_tests; i++)
                spec->tests[i] = t->tests[i] < nt ? t->tests[i] : 0;
            spec->n_tests = t->n_tests;
        } else {
            spec->tests = xmalloc((nt + 1) * sizeof(uint32_t));
            for (size_t i = 0; i < nt; i++)
                spec->tests[i] = (uint32_t)i;
            spec->n_tests = nt;
        }
        req->mode = base ? LT_RUN_BASELINE : LT_RUN_MUTANT;
        req->end = base ? 0 : l->len;
        req->replacement = base ? "" : t->source;
        req->stop_first = t->stop_first;
        req->flags = t->untrusted && !base ? LT_RUN_UNTRUSTED : 0;
    }
    req->cpu_seconds = lt__cpu_limit_for(t->budget_s);
    spec->cpu_budget_ns = t->budget_s * 1e9;
    la->wall = 3 * t->budget_s + 1;
    if (!r->t_first_job)
        r->t_first_job = lt__now();
    return 0;
}

/* --floor: what this run's work would cost at least.  Runs that hit a
 * limit are charged their wall time; the others count one runner job and
 * their in-process work (call evaluation: run again later, all in one
 * child; tests: the test time the child measured). */
static void floor_account(struct ds_run *r, struct ds_task *t,
                          const json_t *res)
{
    const char *st = json_string_value(json_object_get(res, "status"));
    int limited = st && strcmp(st, "timeout") == 0;
    const json_t *cases = json_object_get(res, "cases");
    for (size_t i = 0; i < json_array_size(cases); i++) {
        const char *cs = json_string_value(
            json_object_get(json_array_get(cases, i), "status"));
        limited |= cs && strcmp(cs, "timeout") == 0;
    }
    if (limited) {
        r->s.floor_timeout_ms += t->wall_ms;
        return;
    }
    if (t->kind == TK_CASES) {
        r->s.floor_runs_cases++;
        r->s.floor_trace |= t->trace;
        json_array_append_new(r->s.floor_cases,
                              json_pack("[s%, O]", t->source, t->len,
                                        t->calls));
        return;
    }
    r->s.floor_runs_tests++;
    r->s.floor_tests_ms += json_real_value(json_object_get(res, "tests_ms"));
    t->lane->ran_tests = 1;
}

static void task_finished(struct lt_exec *ex, struct lt_task *xt,
                          const struct lt_run_report *j)
{
    struct ds_run *r = ex->owner;
    struct ds_task *t = xt->owner;
    json_t *res = t->kind == TK_CASES ? cases_result(t, j)
                                      : tests_result(t, j);
    if (t->kind == TK_CASES && j->child_ns > 0)
        json_object_set_new(res, "child_ms", json_real(j->child_ns / 1e6));
    if (!lt__ds_run_over(r, t, res, j->started_at))
        return;
    if (r->o->floor && !t->nocache)
        floor_account(r, t, res);
    t->result = res;
    lt__ds_result(r, t);
}

static const struct lt_task_ops task_ops = {
    .prepare = task_prepare, .finished = task_finished, .lost = lt__ds_task_lost};

/* A pytest lane whose tests cannot be collected fails: its tasks end in
 * error.  The call-evaluation runner failing stops the run. */
static void lane_start_failed(struct lt_exec *ex, struct lt_lane *xl, int rc,
                              const char *why)
{
    struct ds_lane *l = lt_exec_lane_owner(xl);
    (void)rc;
    char *msg = l->bare ? xasprintf("the call-evaluation runner failed to "
                                    "start: %s", why)
                        : xasprintf("the tests of %s cannot be collected: "
                                    "%s", l->path, why);
    if (l->bare || lt__interrupted) {
        lt_error("%s", msg);
        lt_exec_fail(ex, LT_EXIT_ENGINE);
    } else {
        lt_exec_lane_fail(ex, xl, msg);
    }
    free(msg);
}

static int lane_ready(struct lt_exec *ex, struct lt_lane *xl, int first,
                      char **why)
{
    struct ds_lane *l = lt_exec_lane_owner(xl);
    (void)ex;
    (void)first;
    if (!l->bare && lt_exec_lane_suite(xl)->n_tests == 0) {
        *why = xasprintf("no tests collected from %s", l->tests);
        return -1;
    }
    return 0;
}

static const struct lt_lane_ops lane_ops = {
    .ready = lane_ready, .start_failed = lane_start_failed};

/* Runs the callbacks of finished tasks (they may submit more). */
static size_t run_callbacks(struct lt_exec *ex)
{
    struct ds_run *r = ex->owner;
    while (r->ready && !ex->fatal) {
        struct ds_task *t = r->ready;
        r->ready = t->next_ready;
        if (!r->ready)
            r->ready_tail = NULL;
        r->outstanding--;
        r->tasks_done++;
        t->done(r, t);
    }
    return 0;
}

static void show_progress(struct lt_exec *ex, int force)
{
    struct ds_run *r = ex->owner;
    double el = lt__now() - r->prog.start;
    lt__progress_show(&r->prog, force, r->next_emit, r->n_progs,
                      "%zu runs (%zu cached), %.1f runs/s, %zu items",
                      r->s.jobs_run, r->s.cache_hits,
                      el > 0 ? (double)r->s.jobs_run / el : 0.0,
                      r->s.emitted);
}

/* Runs until every submitted task is done and its callback ran (callbacks
 * may submit more).  0, or an exit code: 3 when every runner died or a
 * write to the store failed (the committed work is kept), 130 when
 * interrupted. */
int lt__ds_loop(struct ds_run *r)
{
    r->ex.owner = r;
    r->ex.st = r->st;
    r->ex.db = r->o->run.db;
    r->ex.idle = run_callbacks;
    r->ex.progress = show_progress;
    return lt_exec_run(&r->ex);
}

void lt__ds_exec_close(struct ds_run *r)
{
    lt__ds_java_close(r);
    lt_exec_close(&r->ex);
    json_decref(r->memo);
    json_decref(r->leaders);
    r->memo = r->leaders = NULL;
    for (size_t i = 0; i < r->n_lanes; i++)
        lane_free(r->lanes[i]);
    free(r->lanes);
    r->lanes = NULL;
    r->n_lanes = 0;
    r->bare = NULL;
    while (r->ready) {
        struct ds_task *t = r->ready;
        r->ready = t->next_ready;
        lt__ds_task_free(t);
    }
    r->ready_tail = NULL;
    if (r->scratch) {
        lt_sandbox_scratch_remove(r->scratch);
        free(r->scratch);
        r->scratch = NULL;
    }
}

/*** The floor (--floor) ***/

/* The child that evaluates every call-evaluation item of the run, one
 * after another: the in-process part of the floor.  Each item's program
 * is compiled under the same file name as in its own run, so the line
 * tracer does the same work. */
static const char floor_py[] =
    "import json as _json\n"
    "_ITEMS = %s\n"
    "def _force(v):\n"
    "    if hasattr(type(v), '__next__') and hasattr(type(v), '__iter__'):\n"
    "        return list(v)\n"
    "    return v\n"
    "def run(k):\n"
    "    src, calls = _ITEMS[k]\n"
    "    g = {'__name__': 'litmus_case', '__file__': 'litmus_case.py'}\n"
    "    try:\n"
    "        exec(compile(src, 'litmus_case.py', 'exec', dont_inherit=True),"
    " g)\n"
    "    except BaseException as exc:\n"
    "        return type(exc).__name__\n"
    "    out = []\n"
    "    for expr in calls:\n"
    "        try:\n"
    "            v = _force(eval(compile(expr, '<input>', 'eval',\n"
    "                                    dont_inherit=True), g))\n"
    "            out.append((repr(v)[:2000], type(v).__name__))\n"
    "            try:\n"
    "                _json.dumps(v)\n"
    "            except Exception:\n"
    "                pass\n"
    "        except Exception as exc:\n"
    "            out.append((type(exc).__name__, repr(exc)[:2000]))\n"
    "    return len(_json.dumps(out))\n";

static void sync_cb(struct ds_run *r, struct ds_task *t)
{
    r->sync_done = t;
}

/* Runs one task to its end, outside the cache; the caller frees it. */
static struct ds_task *run_sync(struct ds_run *r, struct ds_task *t)
{
    t->nocache = 1;
    t->done = sync_cb;
    r->sync_done = NULL;
    lt__ds_submit(r, t);
    if (lt__ds_loop(r) != 0 || !r->sync_done) {
        return NULL;
    }
    return r->sync_done;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Median wall time of a trivial job (an empty program, no calls) on a
 * lane, run one at a time: what the runner costs per item, fork to
 * reaped child.  *child_ms gets the child's own median time. */
static double trivial_ms(struct ds_run *r, struct ds_lane *l, int n,
                         double *child_ms)
{
    double *w = xcalloc((size_t)n, sizeof(double));
    double *c = xcalloc((size_t)n, sizeof(double));
    int got = 0;
    for (int i = 0; i < n + 2; i++) {
        struct ds_task *t = lt__ds_task_new(TK_CASES, l, "", 0);
        t->calls = json_array();
        t->untrusted = 1;
        t->budget_s = 10;
        struct ds_task *d = run_sync(r, t);
        if (!d)
            break;
        /* The first two warm the zygote up. */
        if (i >= 2 && got < n) {
            w[got] = d->wall_ms;
            c[got++] = json_real_value(json_object_get(d->result,
                                                       "child_ms"));
        }
        lt__ds_task_free(d);
    }
    qsort(w, (size_t)got, sizeof(double), cmp_double);
    qsort(c, (size_t)got, sizeof(double), cmp_double);
    double m = got ? w[got / 2] : 0;
    *child_ms = got ? c[got / 2] : 0;
    free(w);
    free(c);
    return m;
}

/* See dataset_internal.h: measures the floor of the run's work after it
 * and adds {"floor": ...} to the summary.  0, or an exit code. */
int lt__ds_floor(struct ds_run *r, json_t *summary)
{
    const struct lt_dataset_opts *o = r->o;
    enum lt_progress_mode saved_progress = r->prog.mode;
    r->prog.mode = LT_PROGRESS_OFF;
    double runs_s = r->t_last_job > r->t_first_job
                        ? r->t_last_job - r->t_first_job
                        : 0;
    double fork_cases = 0, fork_tests = 0, child_trivial = 0, c2 = 0;
    double inproc_cases_ms = 0;
    size_t one_child_items = 0;
    if (r->s.floor_runs_cases) {
        struct ds_lane *l = lt__ds_lane_bare(r);
        fork_cases = trivial_ms(r, l, 30, &child_trivial);
        /* Every item in one child, in chunks a RUN frame can carry. */
        size_t n = json_array_size(r->s.floor_cases);
        size_t i = 0;
        while (i < n && !r->ex.fatal) {
            json_t *chunk = json_array();
            size_t bytes = 0;
            while (i < n &&
                   (bytes < (4u << 20) || json_array_size(chunk) == 0)) {
                json_t *it = json_array_get(r->s.floor_cases, i++);
                bytes += json_string_length(json_array_get(it, 0)) + 64;
                json_array_append(chunk, it);
            }
            char *lit = json_dumps(chunk, JSON_COMPACT);
            char *src = xasprintf(floor_py, lit);
            free(lit);
            struct ds_task *t = lt__ds_task_new(TK_CASES, l, src, strlen(src));
            free(src);
            t->calls = json_array();
            for (size_t k = 0; k < json_array_size(chunk); k++) {
                char call[32];
                snprintf(call, sizeof(call), "run(%zu)", k);
                json_array_append_new(t->calls, json_string(call));
            }
            one_child_items += json_array_size(chunk);
            json_decref(chunk);
            t->trace = r->s.floor_trace;
            t->max_line = MAX_LINES; /* the items' own line numbers */
            t->untrusted = 1;
            t->call_timeout = 600;
            t->budget_s = 3600;
            struct ds_task *d = run_sync(r, t);
            if (!d) {
                lt__ds_task_free(t);
                break;
            }
            const char *st = json_string_value(json_object_get(d->result,
                                                               "status"));
            if (!st || strcmp(st, "ok") != 0)
                lt_warn("--floor: the one-child run ended with %s",
                        st ? st : "?");
            inproc_cases_ms += json_real_value(json_object_get(d->result,
                                                               "child_ms")) -
                               child_trivial;
            lt__ds_task_free(d);
        }
    }
    size_t measured = 0;
    for (size_t i = 0; i < r->n_lanes && measured < 3 && !r->ex.fatal; i++) {
        struct ds_lane *l = r->lanes[i];
        if (!l->ran_tests || lt_exec_lane_failed(l->xl))
            continue;
        fork_tests += trivial_ms(r, l, 20, &c2);
        measured++;
    }
    if (measured)
        fork_tests /= (double)measured;
    r->prog.mode = saved_progress;
    if (r->ex.fatal)
        return r->ex.fatal;
    int jobs = o->run.jobs < 1 ? 1 : o->run.jobs;
    size_t runs = r->s.floor_runs_cases + r->s.floor_runs_tests;
    double inproc_s = (inproc_cases_ms + r->s.floor_tests_ms) / 1000.0;
    double fork_s = ((double)r->s.floor_runs_cases * fork_cases +
                     (double)r->s.floor_runs_tests * fork_tests) /
                    1000.0;
    double floor_s = (fork_s + inproc_s) / jobs;
    double timeouts_s = r->s.floor_timeout_ms / 1000.0;
    double floor_to = floor_s + timeouts_s / jobs;
    json_t *f = json_object();
    json_object_set_new(f, "runs", json_integer((json_int_t)runs));
    json_object_set_new(f, "runs_cases",
                        json_integer((json_int_t)r->s.floor_runs_cases));
    json_object_set_new(f, "runs_tests",
                        json_integer((json_int_t)r->s.floor_runs_tests));
    json_object_set_new(f, "fork_ms", json_real(r->s.floor_runs_cases
                                                    ? fork_cases
                                                    : fork_tests));
    json_object_set_new(f, "fork_cases_ms", json_real(fork_cases));
    json_object_set_new(f, "fork_tests_ms", json_real(fork_tests));
    json_object_set_new(f, "one_child_items",
                        json_integer((json_int_t)one_child_items));
    json_object_set_new(f, "inproc_s", json_real(inproc_s));
    json_object_set_new(f, "timeouts_s", json_real(timeouts_s));
    json_object_set_new(f, "floor_s", json_real(floor_s));
    json_object_set_new(f, "floor_with_timeouts_s", json_real(floor_to));
    json_object_set_new(f, "runs_s", json_real(runs_s));
    json_object_set_new(f, "ratio", json_real(floor_s > 0 ? runs_s / floor_s
                                                          : 0));
    json_object_set_new(f, "ratio_with_timeouts",
                        json_real(floor_to > 0 ? runs_s / floor_to : 0));
    json_object_set_new(summary, "floor", f);
    return 0;
}
