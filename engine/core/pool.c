/* The zygote pool: see pool.h.  SPDX-License-Identifier: MIT */
#include "engine/core/pool.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/err.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "engine/core/clock.h"
#include "runners/frames.h"
#include "sandbox/sandbox.h"

volatile sig_atomic_t lt__interrupted;

/* Frees what a spec holds (its tests and per-test arrays) and empties it. */
void lt__run_spec_clear(struct lt_run_spec *s)
{
    free(s->tests);
    free(s->seen);
    if (s->fail_texts) {
        for (size_t i = 0; i < (s->n_cov ? s->n_cov : s->n_tests); i++)
            free(s->fail_texts[i]);
        free(s->fail_texts);
    }
    free(s->test_ns);
    free(s->test_cpu_ns);
    free(s->test_outcome);
    free(s->test_budget_ns);
    if (s->cov) {
        size_t n = s->n_cov ? s->n_cov : s->n_tests;
        for (size_t i = 0; i < n; i++)
            free(s->cov[i].pairs);
        free(s->cov);
    }
    memset(s, 0, sizeof(*s));
}

void lt__job_reset(struct job *j)
{
    lt__run_spec_clear(&j->spec);
    lt_wire_decoder_free(&j->dec);
    lt_buf_free(&j->output);
    free(j->apply_text);
    free(j->fail_text);
    free(j->test_needs);
    free(j->tamper);
    for (size_t i = 0; i < j->n_calls; i++)
        free(j->calls[i]);
    free(j->calls);
    for (size_t i = 0; i < j->n_records; i++)
        free(j->records[i]);
    free(j->records);
    lt_telemetry_sample_clear(&j->tm);
    if (j->answer) {
        lt_jvm_msg_free(j->answer);
        free(j->answer);
    }
    if (j->result_fd >= 0)
        close(j->result_fd);
    if (j->out_fd >= 0)
        close(j->out_fd);
    if (j->pidfd >= 0)
        close(j->pidfd);
    memset(j, 0, sizeof(*j));
    j->result_fd = j->out_fd = j->pidfd = -1;
}

void lt__job_move(struct job *dst, struct job *src)
{
    *dst = *src;
    memset(src, 0, sizeof(*src));
    src->result_fd = src->out_fd = src->pidfd = -1;
}

#define STARTUP_TIMEOUT 600.0 /* s for a zygote to import and collect */

/* A heap copy of a decoded string field, or NULL where it was unreadable. */
static char *text_dup(struct lt_reply_text t)
{
    return t.s ? xstrndup(t.s, t.len) : NULL;
}

/* Keeps the IMPORT_LINES of the first zygote that sends them (they are
 * the same for every zygote).  Hostile input: count capped by the payload
 * and by LT_MAX_IMPORT_LINES, subject indices checked.  0 or LT_EPROTO. */
static int keep_import_lines(struct pool *pool, const uint8_t *payload,
                             size_t len)
{
    struct lt_reply f;
    int rc = lt_reply_decode(LT_FRAME_IMPORT_LINES, payload, len, &f);
    uint64_t ns = f.import_lines.ns;
    uint32_t count = f.import_lines.lines.n;
    if (!f.fields_read || count > LT_MAX_IMPORT_LINES)
        return LT_EPROTO;
    uint32_t *pairs = xmalloc(((size_t)count * 2 + 1) * sizeof(uint32_t));
    for (uint32_t k = 0; k < count; k++) {
        lt_line_pairs_get(&f.import_lines.lines, k, &pairs[2 * k],
                          &pairs[2 * k + 1]);
        if (pairs[2 * k] >= pool->cfg.n_subjects)
            rc = LT_EPROTO;
    }
    if (rc < 0 || ns > (uint64_t)(STARTUP_TIMEOUT * 1e9)) {
        free(pairs);
        return LT_EPROTO;
    }
    if (pool->have_import) {
        free(pairs);
        return 0;
    }
    pool->import_pairs = pairs;
    pool->n_import = count;
    pool->import_s = (double)ns / 1e9;
    pool->have_import = 1;
    return 0;
}

int lt__read_ready(struct pool *pool, struct zygote *z, char **failmsg)
{
    uint8_t *payload = NULL;
    size_t len = 0;
    /* Wait interruptibly: a signal or a hung collection must not leave
     * litmus blocked in a read. */
    double until = lt__now() + STARTUP_TIMEOUT;
    int type;
again:
    for (;;) {
        struct pollfd pf = {z->sock, POLLIN, 0};
        int n = poll(&pf, 1, 200);
        if (lt__interrupted) {
            *failmsg = xstrdup("interrupted; run the same command again to resume");
            return LT_EINTERNAL;
        }
        if (n > 0)
            break;
        if (pool->waiting)
            pool->waiting(pool->waiting_arg);
        if (lt__now() > until) {
            *failmsg = xstrdup("a runner did not finish collecting the "
                               "tests in time");
            return LT_EINTERNAL;
        }
    }
    type = lt_wire_recv(z->sock, LT_WIRE_MAX_FRAME, &payload, &len, NULL,
                        NULL);
    if (type == LT_FRAME_IMPORT_LINES) {
        int krc = keep_import_lines(pool, payload, len);
        free(payload);
        payload = NULL;
        if (krc < 0) {
            *failmsg = xstrdup("malformed import coverage from a zygote");
            return krc;
        }
        goto again;
    }
    struct lt_reply f;
    int decoded = lt_reply_decode(type, payload, len, &f);
    int rc = 0;
    if (type == LT_FRAME_VIEW) {
        /* Before READY: what the zygote's file-system view holds. */
        char *missing = text_dup(f.view.missing);
        char *desc = text_dup(f.view.desc);
        rc = decoded;
        free(payload);
        if (rc < 0 || !missing || !desc) {
            free(missing);
            free(desc);
            *failmsg = xstrdup("malformed frame from a zygote");
            return rc < 0 ? rc : LT_EPROTO;
        }
        lt_debug("zygote %d: view missing: %s; view:\n%s", (int)z->pid,
                 missing ? missing : "?", desc ? desc : "?");
        if (!pool->view && !pool->view_missing) {
            pool->view_missing = *missing ? missing : NULL;
            pool->view = *desc ? desc : NULL;
            if (!*missing)
                free(missing);
            if (!*desc)
                free(desc);
        } else {
            free(missing);
            free(desc);
        }
        return lt__read_ready(pool, z, failmsg);
    }
    if (type == LT_FRAME_FAILED) {
        *failmsg = text_dup(f.failed.text);
        pool->fail_cause = f.failed.cause;
        rc = LT_ENOTESTS;
    } else if (type == LT_FRAME_CLONED && z->copy_of) {
        /* A copy: its tests are its origin's, already checked. */
        uint32_t pid = f.cloned.pid;
        rc = decoded;
        if (rc == 0 && (pid <= 1 || pid > INT32_MAX))
            rc = LT_EPROTO;
        if (rc == 0) {
            z->pid = (pid_t)pid;
            lt_telemetry_watch(z->tm, z->pid);
        } else {
            *failmsg = xstrdup("malformed frame from a zygote");
        }
    } else if (type == LT_FRAME_READY && !z->copy_of) {
        unsigned features = f.ready.features;
        uint32_t n = f.ready.n_ids;
        struct lt_wire_reader r = f.ready.ids;
        if (!f.fields_read) {
            rc = LT_EPROTO;
        } else if (!pool->test_ids) {
            pool->features = features;
            pool->test_ids = xcalloc(n + 1, sizeof(char *));
            pool->n_tests = n;
            for (uint32_t i = 0; i < n; i++)
                pool->test_ids[i] = lt_wire_get_strdup(&r);
            rc = lt_wire_reader_done(&r);
        } else {
            /* Every zygote must have collected the same tests. */
            for (uint32_t i = 0; i < n && rc == 0; i++) {
                char *id = lt_wire_get_strdup(&r);
                if (!id || n != pool->n_tests ||
                    strcmp(id, pool->test_ids[i]) != 0)
                    rc = LT_EPROTO;
                free(id);
            }
            if (rc == 0)
                rc = lt_wire_reader_done(&r);
            if (rc < 0)
                *failmsg = xstrdup("zygotes collected different tests "
                                   "(is the collection order random?)");
        }
    } else {
        rc = type < 0 ? type : LT_EPROTO;
        *failmsg = xstrdup(type == 0 ? "the zygote exited during start-up"
                                     : "malformed frame from a zygote");
    }
    free(payload);
    if (rc == 0)
        z->ready = 1;
    return rc;
}

/* Contract: see pool.h. */
void lt__warn_degraded(const struct pool *pool, unsigned have)
{
    unsigned view_bits = LT_SBX_FSVIEW | LT_SBX_IDENTITY;
    if (!(LT_SBX_ALL & ~have))
        return;
    const char *rest = lt_sandbox_describe_missing(have | view_bits);
    const char *view = (have & view_bits) == view_bits ? NULL
                       : pool->view_missing ? pool->view_missing
                       : "fs_view (not in force)";
    lt_warn("sandbox degraded: %s%s%s", rest, *rest && view ? ", " : "",
            view ? view : "");
}

int lt__zygote_start(struct pool *pool, struct zygote *z)
{
    memset(z, 0, sizeof(*z));
    z->sock = -1;
    z->job.result_fd = z->job.out_fd = z->job.pidfd = -1;
    z->tm = pool->tm;
    int rc = lt_zygote_spawn(&pool->cfg, &z->pid, &z->sock);
    /* The zygote has not forked yet: it is still reading INIT. */
    if (rc == 0)
        lt_telemetry_watch(z->tm, z->pid);
    return rc;
}

int lt__zygote_clone(struct pool *pool, struct zygote *from, int from_slot,
                     unsigned instance, struct zygote *z)
{
    int sock;
    int rc = lt_zygote_send_clone(from->sock, instance, &sock);
    if (rc < 0)
        return rc;
    memset(z, 0, sizeof(*z));
    z->sock = sock;
    z->copy_of = from_slot + 1;
    z->instance = instance;
    z->job.result_fd = z->job.out_fd = z->job.pidfd = -1;
    z->tm = pool->tm;
    from->copies++;
    return 0;
}

void lt__zygote_stop(struct zygote *z)
{
    if (z->sock >= 0) {
        lt_zygote_send_quit(z->sock);
        close(z->sock);
        z->sock = -1;
    }
    if (z->pid > 0) {
        kill(z->pid, SIGKILL);
        while (waitpid(z->pid, NULL, 0) < 0 && errno == EINTR)
            ;
        lt_telemetry_unwatch(z->tm, z->pid);
        z->pid = 0;
    }
    lt__job_reset(&z->job);
}

/* Starts a job on an idle zygote: pipes, RUN frame, deadline. */
int lt__job_start(struct zygote *z, const struct lt_run_spec *spec,
                  uint64_t token, const struct lt_run_request *req_in,
                  double timeout)
{
    int res[2] = {-1, -1}, out[2] = {-1, -1};
    if (pipe2(res, O_CLOEXEC) < 0 || pipe2(out, O_CLOEXEC) < 0) {
        int rc = -errno;
        for (int i = 0; i < 2; i++) {
            if (res[i] >= 0)
                close(res[i]);
            if (out[i] >= 0)
                close(out[i]);
        }
        return rc;
    }
    struct lt_run_request req = *req_in;
    req.token = token;
    int rc = lt_zygote_send_run(z->sock, &req, res[1], out[1]);
    close(res[1]);
    close(out[1]);
    if (rc < 0) {
        close(res[0]);
        close(out[0]);
        return rc;
    }
    fcntl(res[0], F_SETFL, O_NONBLOCK);
    fcntl(out[0], F_SETFL, O_NONBLOCK);
    struct job *j = &z->job;
    lt__job_begin(j, spec, timeout);
    j->result_fd = res[0];
    j->out_fd = out[0];
    lt_wire_decoder_init(&j->dec, j->is_baseline ? LT_WIRE_MAX_FRAME
                                                 : LT_WIRE_MAX_CHILD_FRAME);
    return 0;
}

/* Contract: see pool.h. */
void lt__job_begin(struct job *j, const struct lt_run_spec *spec,
                   double timeout)
{
    memset(j, 0, sizeof(*j));
    j->spec = *spec;
    j->active = 1;
    j->result_fd = j->out_fd = j->pidfd = -1;
    j->apply_status = -1;
    j->current = -1;
    j->fail_test = -1;
    j->probe_index = -1;
    j->cpu_base_ns = -1;
    j->test_cpu_base_ns = -1;
    j->started_at = lt__now();
    j->deadline = j->started_at + timeout;
}

void lt__job_kill(struct job *j)
{
    if (j->pid > 0 && !j->got_exited)
        lt_sandbox_kill(j->pid, j->pidfd);
    j->killed_by_us = 1;
}

/* Reads a non-blocking pipe until it would block, handing each chunk to
 * sink; sets *eof at end of file or on a read error. */
static void drain(struct job *j, int fd, int *eof,
                  void (*sink)(struct job *, const void *, size_t))
{
    uint8_t chunk[8192];
    for (;;) {
        ssize_t k = read(fd, chunk, sizeof(chunk));
        if (k < 0) {
            if (errno == EINTR)
                continue;
            if (errno != EAGAIN)
                *eof = 1;
            return;
        }
        if (k == 0) {
            *eof = 1;
            return;
        }
        sink(j, chunk, (size_t)k);
    }
}

/* Reads the child's result frames; anything malformed marks the job as a
 * protocol error and kills the child.  Nothing here is trusted beyond
 * what the engine checks. */
static void feed_decoder(struct job *j, const void *p, size_t n)
{
    lt_wire_decoder_feed(&j->dec, p, n);
}

/* A frame out of turn or malformed: the run ends as a protocol error;
 * LITMUS_DEBUG=1 says which frame. */
static void protocol_error(struct job *j, const char *where)
{
    j->protocol_error = 1;
    lt_debug("job %p: protocol error in %s", (void *)j, where);
}

/* APPLIED: the change was applied (or not, and why); once. */
static void take_applied(const struct pool *pool, struct job *j,
                         const struct lt_reply *f)
{
    if (j->apply_status >= 0) {
        protocol_error(j, "take_applied");
        return;
    }
    j->apply_status = f->applied.status;
    j->apply_text = text_dup(f->applied.text);
}

/* SANDBOXED: the child is in the sandbox; its CPU budget and, for a
 * fresh import, its wall deadline count from here. */
static void take_sandboxed(const struct pool *pool, struct job *j,
                           const struct lt_reply *f)
{
    j->sandbox = f->sandboxed.features;
    j->sandboxed = 1;
    if (j->sandbox_wall_s > 0 &&
        lt__now() + j->sandbox_wall_s > j->deadline)
        j->deadline = lt__now() + j->sandbox_wall_s;
    /* A fresh run imports and collects after this: its CPU budget
     * counts from its first test (take_test_start), as its tests'
     * baseline times do; the wall deadline bounds the import. */
    if (j->pid > 0 && !(j->sandbox_wall_s > 0))
        j->cpu_base_ns = lt__job_cpu_ns(j);
    j->warmup_allow_ns = lt__pool_warmup_allowance(pool);
}

/* WORKER: the process-mode worker whose CPU time the engine reads. */
static void take_worker(const struct pool *pool, struct job *j,
                        const struct lt_reply *f)
{
    /* Only once, before SANDBOXED, and only a grandchild of the
     * child (sent by the waiter before the worker runs anything):
     * what the engine then reads the CPU time of. */
    uint32_t w = f->worker.pid;
    pid_t parent = w > 0 && w <= INT32_MAX
                       ? lt__proc_parent((pid_t)w) : 0;
    /* Its parent is the namespace's init, a child of the child.
     * -1: the worker is gone already (a short run, read late);
     * the child's own pid may not be known yet either (STARTED
     * comes on the zygote's socket, which may be read later). */
    pid_t grand = parent > 0 ? lt__proc_parent(parent) : -1;
    if (!f->fields_read || j->worker || j->sandboxed || parent == 0 ||
        (j->pid > 0 && parent != -1 && grand != -1 &&
         grand != j->pid)) {
        protocol_error(j, "take_worker");
        return;
    }
    j->worker = (pid_t)w;
}

/* Once a run, the first time a child says it traced with the line
 * tracer where sys.monitoring refused litmus its tool id (3.12 on): the
 * baseline is then slower (a test of json and fractions calls, 3.12:
 * 0.47 s against 0.11 s with sys.monitoring and under plain pytest),
 * which nothing else would explain.  A process-wide flag: one litmus is
 * one run, and every pool and zygote of it would say the same. */
static void warn_line_tracer(void)
{
    static int told;
    if (told)
        return;
    told = 1;
    /* 3: LT_PY_MONITORING_TOOL (common/pyabi.h, the runners' side). */
    lt_warn("sys.monitoring's tool id 3 is taken in the test process (a "
            "pytest plugin or conftest.py called "
            "sys.monitoring.use_tool_id(3, ...)): the baseline falls back "
            "to the line tracer, which traces every line of every frame, "
            "the libraries' included, for the whole test: the same "
            "coverage, but a slower baseline (several times as long on "
            "tests that run mostly library code)");
}

/* NEEDS: what the current test needed (processes, network, untraced
 * interpreters), or how its process traced it. */
static void take_needs(const struct pool *pool, struct job *j,
                       const struct lt_reply *f)
{
    uint32_t idx = f->needs.test;
    uint8_t bits = f->needs.bits;
    if (!f->fields_read || idx >= pool->n_tests ||
        (int)idx != j->current) {
        protocol_error(j, "take_needs");
        return;
    }
    if (bits & LT_NEEDS_LINE_TRACER)
        warn_line_tracer();
    if (!j->test_needs)
        j->test_needs = xcalloc(pool->n_tests + 1, 1);
    j->test_needs[idx] |= bits & (LT_NEEDS_PROCESSES |
                                  LT_NEEDS_NETWORK |
                                  LT_NEEDS_UNTRACED);
}

/* TEST_START: a selected test begins; its CPU time counts from here. */
static void take_test_start(const struct pool *pool, struct job *j,
                            const struct lt_reply *f)
{
    uint32_t idx = f->test_start.test;
    if (!j->sandboxed || idx >= pool->n_tests || j->current >= 0) {
        protocol_error(j, "take_test_start");
        return;
    }
    j->current = (int)idx;
    j->test_cpu_base_ns = j->pid > 0 ? lt__job_cpu_ns(j) : -1;
    if (j->cpu_base_ns < 0)
        j->cpu_base_ns = j->test_cpu_base_ns;
    j->output_in_test = 0;
}

/* TEST_RESULT: the current test's outcome, times and failure text. */
static void take_test_result(const struct pool *pool, struct job *j,
                             const struct lt_reply *f)
{
    uint32_t idx = f->test_result.test;
    uint8_t outcome = f->test_result.outcome;
    uint64_t ns = f->test_result.ns;
    uint64_t cpu_ns = f->test_result.cpu_ns;
    char *text = text_dup(f->test_result.text);
    if (!f->fields_read || idx >= pool->n_tests ||
        (int)idx != j->current || j->seen[idx] ||
        outcome > LT_TEST_MEMORY) {
        free(text);
        protocol_error(j, "take_test_result");
        return;
    }
    j->seen[idx] = 1;
    j->current = -1;
    j->n_results++;
    j->test_ns[idx] = (double)ns;
    j->test_cpu_ns[idx] = (double)cpu_ns;
    j->test_outcome[idx] = outcome;
    if ((outcome == LT_TEST_FAILED || outcome == LT_TEST_MEMORY) &&
        j->fail_texts && idx < (j->n_cov ? j->n_cov : j->n_tests) &&
        !j->fail_texts[idx])
        j->fail_texts[idx] = xstrdup(text ? text : "");
    if ((outcome == LT_TEST_FAILED || outcome == LT_TEST_MEMORY) &&
        j->fail_test < 0) {
        j->fail_test = (int)idx;
        j->fail_outcome = outcome;
        j->fail_text = text;
        text = NULL;
    }
    free(text);
}

/* COVERAGE: the subject lines the current test executed (baseline). */
static void take_coverage(const struct pool *pool, struct job *j,
                          const struct lt_reply *f)
{
    uint32_t idx = f->coverage.test;
    uint64_t events = f->coverage.line_events;
    uint32_t count = f->coverage.lines.n;
    if (!j->cov || !f->fields_read ||
        idx >= (j->n_cov ? j->n_cov : j->n_tests) ||
        (int)idx != j->current || j->cov[idx].pairs) {
        protocol_error(j, "take_coverage");
        return;
    }
    uint32_t *pairs = xmalloc(((size_t)count * 2 + 1) *
                              sizeof(uint32_t));
    for (uint32_t k = 0; k < count; k++) {
        lt_line_pairs_get(&f->coverage.lines, k, &pairs[2 * k],
                          &pairs[2 * k + 1]);
        if (pairs[2 * k] >= (j->n_files ? j->n_files
                                         : pool->cfg.n_subjects))
            protocol_error(j, "take_coverage");
    }
    j->cov[idx].pairs = pairs;
    j->cov[idx].n = count;
    j->cov[idx].line_events = events;
}

/* TAMPER: a guard's report (the first one is kept). */
static void take_tamper(const struct pool *pool, struct job *j,
                        const struct lt_reply *f)
{
    char *what = text_dup(f->tamper);
    if (!j->tamper)
        j->tamper = what ? what : xstrdup("unreadable report");
    else
        free(what);
}

/* CALL: a captured call into the subject (differential testing). */
static void take_call(const struct pool *pool, struct job *j,
                      const struct lt_reply *f)
{
    char *blob = text_dup(f->call);
    if (!blob) {
        protocol_error(j, "take_call");
        return;
    }
    if (j->n_calls >= LT_MAX_CALLS) {
        free(blob);
        return;
    }
    if (j->n_calls == j->cap_calls) {
        j->cap_calls = j->cap_calls ? j->cap_calls * 2 : 64;
        j->calls = xrealloc(j->calls,
                            j->cap_calls * sizeof(*j->calls));
    }
    j->calls[j->n_calls++] = blob;
}

/* RECORD: a call evaluation's result (JSON). */
static void take_record(const struct pool *pool, struct job *j,
                        const struct lt_reply *f)
{
    char *text = text_dup(f->record);
    if (!text || j->n_records >= LT_MAX_RECORDS) {
        free(text);
        protocol_error(j, "take_record");
        return;
    }
    if (j->n_records == j->cap_records) {
        j->cap_records = j->cap_records ? j->cap_records * 2 : 64;
        j->records = xrealloc(j->records,
                              j->cap_records * sizeof(*j->records));
    }
    j->records[j->n_records++] = text;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Contract: see pool.h.  Twice the median of the last samples: the
 * load that stretched them may grow; none before three samples. */
double lt__pool_warmup_allowance(const struct pool *pool)
{
    int n = pool->n_warmup < LT__WARMUP_SAMPLES ? pool->n_warmup
                                                : LT__WARMUP_SAMPLES;
    if (n < 3)
        return 0;
    double v[LT__WARMUP_SAMPLES];
    memcpy(v, pool->warmup_ns, (size_t)n * sizeof(double));
    qsort(v, (size_t)n, sizeof(double), cmp_double);
    return 2 * v[n / 2];
}

/* After a TEST_RESULT that take_test_result() accepted: a test that was
 * not its child's first gives its steady time, a first one whose steady
 * time is known gives a warm-up sample (struct pool). */
static void learn_warmup(struct pool *pool, struct job *j,
                         const struct lt_reply *f)
{
    uint32_t idx = f->test_result.test;
    if (!f->fields_read || idx >= pool->n_tests || j->protocol_error ||
        !j->seen[idx] || j->current >= 0)
        return;
    if (!pool->steady_ns) {
        pool->n_steady = pool->n_tests;
        pool->steady_ns = xmalloc((pool->n_steady + 1) * sizeof(double));
        for (size_t t = 0; t <= pool->n_steady; t++)
            pool->steady_ns[t] = -1;
    }
    if (idx >= pool->n_steady)
        return;
    double ns = (double)f->test_result.cpu_ns;
    double *steady = &pool->steady_ns[idx];
    if (j->n_results > 1) {
        if (*steady < 0 || ns < *steady)
            *steady = ns;
    } else if (*steady >= 0) {
        pool->warmup_ns[pool->n_warmup++ % LT__WARMUP_SAMPLES] =
            ns > *steady ? ns - *steady : 0;
    }
}

void lt__job_read_results(struct pool *pool, struct job *j)
{
    drain(j, j->result_fd, &j->result_eof, feed_decoder);
    int type;
    const uint8_t *payload;
    size_t len;
    int rc;
    while ((rc = lt_wire_decoder_pop(&j->dec, &type, &payload, &len)) > 0) {
        /* A malformed frame is refused below, after the switch, yet acted
         * on as far as it was read, as the verdict rules expect. */
        struct lt_reply f;
        int decoded = lt_reply_decode(type, payload, len, &f);
        if (j->ended) {
            j->protocol_error = 1; /* nothing may follow END */
            break;
        }
        switch (type) {
        case LT_FRAME_APPLIED:
            take_applied(pool, j, &f);
            break;
        case LT_FRAME_SANDBOXED:
            take_sandboxed(pool, j, &f);
            break;
        case LT_FRAME_WORKER:
            take_worker(pool, j, &f);
            break;
        case LT_FRAME_NEEDS:
            take_needs(pool, j, &f);
            break;
        case LT_FRAME_TEST_START:
            take_test_start(pool, j, &f);
            break;
        case LT_FRAME_TEST_RESULT:
            take_test_result(pool, j, &f);
            learn_warmup(pool, j, &f);
            break;
        case LT_FRAME_COVERAGE:
            take_coverage(pool, j, &f);
            break;
        case LT_FRAME_END:
            j->ended = 1;
            break;
        case LT_FRAME_TAMPER:
            take_tamper(pool, j, &f);
            break;
        case LT_FRAME_CALL:
            take_call(pool, j, &f);
            break;
        case LT_FRAME_PROBE:
            j->probe_index = (long)f.probe.index;
            j->probe_phase = f.probe.phase;
            break;
        case LT_FRAME_RECORD:
            take_record(pool, j, &f);
            break;
        default:
            protocol_error(j, "lt__job_read_results");
            break;
        }
        if (decoded < 0)
            protocol_error(j, "lt__job_read_results");
        if (j->protocol_error)
            break;
    }
    if (rc < 0)
        protocol_error(j, "lt__job_read_results");
    if (j->protocol_error) {
        lt__job_kill(j);
        j->result_eof = 1;
    }
}

/* Keeps the first LT_OUTPUT_KEEP bytes of a child's output and kills it
 * once it has written more than LT_OUTPUT_CAP since its current test
 * started (or since it started, before its first test).  The cap is per
 * test so that a suite whose every test prints a little (a documentation
 * builder's log, say) runs as long as plain pytest runs it, while one
 * test printing in a loop is still stopped at once. */
static void keep_output(struct job *j, const void *p, size_t n)
{
    if (j->output.len < LT_OUTPUT_KEEP) {
        size_t room = LT_OUTPUT_KEEP - j->output.len;
        lt_buf_append(&j->output, p, n < room ? n : room);
    }
    j->output_in_test += n;
    if (j->output_in_test > LT_OUTPUT_CAP && !j->output_overflow) {
        j->output_overflow = 1;
        lt__job_kill(j);
    }
}

void lt__job_read_output(struct job *j)
{
    drain(j, j->out_fd, &j->out_eof, keep_output);
}

/* Reads one frame from a zygote: STARTED or EXITED of its current job.
 * Returns < 0 when the zygote is gone or misbehaves. */
int lt__zygote_read(struct zygote *z)
{
    uint8_t *payload = NULL;
    size_t len = 0;
    int type = lt_wire_recv(z->sock, 4096, &payload, &len, NULL, NULL);
    struct lt_reply f;
    int decoded = lt_reply_decode(type, payload, len, &f);
    int rc = 0;
    struct job *j = &z->job;
    if (type == LT_FRAME_STARTED && j->active && !j->got_started) {
        uint32_t pid = f.started.pid;
        uint32_t err = f.started.err;
        rc = decoded;
        j->got_started = 1;
        if (pid > 0 && pid <= INT_MAX) {
            j->pid = (pid_t)pid;
            int fd = lt_sandbox_pidfd_open(j->pid);
            j->pidfd = fd >= 0 ? fd : -1;
        } else {
            lt_warn("a zygote could not fork: %s", strerror((int)err));
        }
    } else if (type == LT_FRAME_EXITED && j->active && j->got_started) {
        j->wait_status = (int)f.exited.status;
        j->maxrss_kb = (long)f.exited.maxrss_kb;
        j->child_ns = (double)f.exited.wall_ns;
        uint64_t minflt = f.exited.minflt;
        uint64_t majflt = f.exited.majflt;
        rc = decoded;
        j->got_exited = 1;
        j->exited_at = lt__now();
        /* Reaped: its counts are complete, and its pid may be reused. */
        if (j->pid > 0) {
            lt_telemetry_sample_clear(&j->tm);
            lt_telemetry_take(z->tm, j->pid, &j->tm);
            /* Page faults come from the child's rusage, which the zygote
             * reaped: cheaper than a tracepoint per fault. */
            if (rc == 0 && j->tm.summary) {
                char *with = xasprintf("%s; page faults: %llu minor, %llu "
                                       "major", j->tm.summary,
                                       (unsigned long long)minflt,
                                       (unsigned long long)majflt);
                free(j->tm.summary);
                j->tm.summary = with;
            }
        }
    } else {
        rc = type <= 0 ? (type == 0 ? -EPIPE : type) : LT_EPROTO;
    }
    free(payload);
    return rc;
}

#define EXIT_GRACE 0.25 /* s to drain the pipes after the child exited */

/* A child that exited but whose pipes stay open (something it left behind
 * holds them) gets a short grace period; then its pipes count as closed. */
void lt__job_expire_pipes(struct job *j, double now)
{
    if (j->active && j->got_exited && now - j->exited_at > EXIT_GRACE) {
        j->result_eof = 1;
        j->out_eof = 1;
    }
}

int lt__job_done(const struct job *j)
{
    return j->active && j->got_exited && j->result_eof && j->out_eof;
}

/* When the job next needs attention without any fd becoming ready. */
double lt__job_wakeup(const struct job *j)
{
    if (!j->active)
        return 1e300;
    if (j->got_exited)
        return j->exited_at + EXIT_GRACE;
    if (!j->timed_out)
        return j->deadline;
    return 1e300;
}

/* RLIMIT_CPU is whole seconds: a backstop above the engine's own, finer
 * CPU check. */
uint64_t lt__cpu_limit_for(double seconds)
{
    return (uint64_t)ceil(seconds) + 1;
}

/* The fields of /proc/PID/stat after the command name (which may hold
 * spaces and parens), in buf; NULL when the process is gone. */
static const char *proc_stat_fields(pid_t pid, char *buf, size_t len)
{
    char path[64];
    snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    ssize_t n = read(fd, buf, len - 1);
    close(fd);
    if (n <= 0)
        return NULL;
    buf[n] = '\0';
    char *p = strrchr(buf, ')');
    return p && p[1] == ' ' ? p + 2 : NULL;
}

/* Contract: see pool.h. */
double lt__proc_cpu_ns(pid_t pid)
{
    char buf[1024];
    const char *p = proc_stat_fields(pid, buf, sizeof(buf));
    if (!p)
        return -1;
    /* Its own time and that of the children it waited for (a process
     * mode worker's subprocesses). */
    unsigned long utime = 0, stime = 0;
    long cutime = 0, cstime = 0;
    if (sscanf(p, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu %ld %ld",
               &utime, &stime, &cutime, &cstime) != 4)
        return -1;
    static long ticks;
    if (!ticks)
        ticks = sysconf(_SC_CLK_TCK);
    return (double)(utime + stime + (unsigned long)(cutime + cstime)) *
           1e9 / (double)ticks;
}

double lt__job_cpu_ns(const struct job *j)
{
    return lt__proc_cpu_ns(j->worker > 0 ? j->worker : j->pid);
}

/* Contract: see pool.h. */
struct job *lt__job_of(const struct lt_run_report *r)
{
    return (struct job *)((char *)(uintptr_t)r - offsetof(struct job, report));
}

/* Contract: see run.h. */
double lt_run_cpu_ns(const struct lt_run_report *r)
{
    const struct job *j = lt__job_of(r);
    return j->pid > 0 ? lt__job_cpu_ns(j) : -1;
}

/* Contract: see run.h.  The executor resets the slot's job after the
 * callback; the moved job keeps its fds until lt_run_report_free. */
struct lt_run_report *lt_run_report_keep(const struct lt_run_report *r)
{
    struct job *kept = xmalloc(sizeof(*kept));
    lt__job_move(kept, lt__job_of(r));
    return &kept->report;
}

/* Contract: see run.h. */
void lt_run_report_free(struct lt_run_report *r)
{
    if (!r)
        return;
    struct job *j = lt__job_of(r);
    lt__job_reset(j);
    free(j);
}

/* The parent pid of `pid` from /proc, or -1. */
pid_t lt__proc_parent(pid_t pid)
{
    char buf[1024];
    const char *p = proc_stat_fields(pid, buf, sizeof(buf));
    int ppid = -1;
    if (!p || sscanf(p, "%*c %d", &ppid) != 1)
        return -1;
    return (pid_t)ppid;
}


/* Contract: see run.h. */
void lt_run_spec_alloc(struct lt_run_spec *spec, size_t nt,
                       int with_coverage)
{
    spec->seen = xcalloc(nt + 1, 1);
    spec->test_ns = xcalloc(nt + 1, sizeof(double));
    spec->test_cpu_ns = xcalloc(nt + 1, sizeof(double));
    spec->test_outcome = xcalloc(nt + 1, 1);
    if (with_coverage) {
        spec->cov = xcalloc(nt + 1, sizeof(struct lt_cov_list));
        spec->n_cov = nt;
    }
}

/* Contract: see pool.h.  Before SANDBOXED only the wall deadline counts:
 * a mutant that loops while being applied still meets it.  When the pid
 * came after SANDBOXED (the zygote's STARTED frame and the child's pipe
 * are read in either order), the base is read at the first check, which
 * can only give the tests more time, never less. */
int lt__job_check_limits(struct job *j, double now)
{
    if (!j->active || j->timed_out || j->got_exited)
        return 0;
    int over = now >= j->deadline;
    if (!over && j->pid > 0 && j->cpu_budget_ns > 0 && j->sandboxed) {
        double cpu = lt__job_cpu_ns(j);
        /* A fresh run's budget waits for its first test. */
        int fresh_before_tests = j->sandbox_wall_s > 0 && j->current < 0 &&
                                 j->n_results == 0;
        if (cpu >= 0 && !fresh_before_tests) {
            if (j->cpu_base_ns < 0)
                j->cpu_base_ns = cpu;
            over = j->cpu_over = cpu - j->cpu_base_ns >
                                 j->cpu_budget_ns + j->warmup_allow_ns;
            /* A test that loops is caught on its own budget, without
             * waiting for the budget of every test selected after it. */
            double tb = j->test_budget_ns && j->current >= 0
                            ? j->test_budget_ns[j->current]
                            : 0;
            /* The child's first test pays its warm-up (struct pool). */
            if (tb > 0 && j->n_results == 0)
                tb += j->warmup_allow_ns;
            if (!over && tb > 0) {
                if (j->test_cpu_base_ns < 0)
                    j->test_cpu_base_ns = cpu;
                if (cpu - j->test_cpu_base_ns > tb) {
                    over = j->cpu_over = 1;
                    j->test_over_ns = tb;
                }
            }
        }
    }
    if (!over)
        return 0;
    j->timed_out = 1;
    lt__job_kill(j);
    return 1;
}
