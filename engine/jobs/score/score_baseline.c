/* The baseline of `litmus score`: every collected test run on the
 * original code (twice by default, side by side), with each test's
 * times, outcome and line coverage; what it tells about the children the
 * mutants want; and the tests each mutant then selects.
 * SPDX-License-Identifier: MIT */
#include <sys/wait.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "engine/core/clock.h"
#include "engine/core/progress.h"
#include "engine/core/select.h"
#include "engine/jobs/score/score_internal.h"
#include "harness/wire.h"
#include "sandbox/sandbox.h"

/* Chunks of a baseline run: at least this many tests each, at most this
 * many chunks (a fork and a sandbox each). */
#define BASELINE_CHUNK_MIN 16
#define BASELINE_CHUNKS_MAX 8

void lt__baseline_free(struct baseline *b)
{
    for (size_t f = 0; b->by_line && f < b->n_files; f++) {
        for (size_t l = 0; l <= b->n_lines[f]; l++)
            free(b->by_line[f][l].tests);
        free(b->by_line[f]);
    }
    free(b->by_line);
    for (size_t f = 0; b->at_import && f < b->n_files; f++)
        free(b->at_import[f]);
    free(b->at_import);
    free(b->n_lines);
    free(b->wall_ms);
    free(b->cpu_ms);
    free(b->work);
    free(b->runnable);
    free(b->needs);
    free(b->flaky);
    free(b->failing);
    for (size_t f = 0; b->file_reach && f < b->n_files; f++)
        free(b->file_reach[f]);
    free(b->file_reach);
    for (size_t k = 0; k < b->n_narrow; k++)
        free(b->narrow[k].mark);
    free(b->narrow);
    memset(b, 0, sizeof(*b));
}

/*** How many children ***/

int lt__online_cores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

/* Kilobytes of memory available for new processes (MemAvailable), or -1. */
static long mem_available_kb(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f)
        return -1;
    char line[128];
    long kb = -1;
    while (fgets(line, sizeof(line), f))
        if (sscanf(line, "MemAvailable: %ld kB", &kb) == 1)
            break;
    fclose(f);
    return kb;
}

/* Children at once when --jobs is not given: one per core, or more when
 * the baseline shows tests that mostly wait (sleep, I/O) rather than
 * compute: cores / (CPU share of their wall time), at most 8 per core,
 * and no more zygotes (of zygote_kb each) than a quarter of the memory
 * available holds.  On a machine busier than its cores a computing
 * test's share shrinks too (it waits for a CPU), so the share is scaled
 * back up by the load: only waiting that more children can overlap
 * counts. */
static int children_for_share(double cpu_ms, double wall_ms, int cores,
                              long zygote_kb)
{
    if (wall_ms < 200.0) /* too little to tell */
        return cores;
    double share = cpu_ms / wall_ms, load = 0;
    if (getloadavg(&load, 1) == 1 && load > cores)
        share *= load / cores;
    if (share > 0.5)
        return cores;
    double want = cores / (share < 0.05 ? 0.05 : share);
    if (want > 8.0 * cores)
        want = 8.0 * cores;
    long avail = mem_available_kb();
    if (avail > 0 && zygote_kb > 0 && want > (double)avail / 4 / zygote_kb)
        want = (double)avail / 4 / zygote_kb;
    return want < cores ? cores : (int)want;
}

int lt__children_for(const struct baseline *b, size_t nt, int cores,
                     long zygote_kb)
{
    double cpu = 0, wall = 0;
    for (size_t i = 0; i < nt; i++) {
        if (!b->runnable[i])
            continue;
        cpu += b->cpu_ms[i];
        wall += b->wall_ms[i];
    }
    return children_for_share(cpu, wall, cores, zygote_kb);
}

/* The largest peak RSS of the lane's zygotes, in KiB. */
long lt__zygote_peak_kb(const struct lt_lane *lane)
{
    long max = 0;
    for (int i = 0; i < lt_exec_lane_slots(lane); i++) {
        pid_t pid = lt_exec_lane_zygote_pid(lane, i);
        long kb = pid > 0 ? lt__peak_rss_kb(pid) : 0;
        if (kb > max)
            max = kb;
    }
    return max;
}

static void line_add(struct line_tests *lt, uint32_t test)
{
    if (lt->n && lt->tests[lt->n - 1] == test)
        return;
    if (lt->n == lt->cap) {
        lt->cap = lt->cap ? lt->cap * 2 : 4;
        lt->tests = xrealloc(lt->tests, lt->cap * sizeof(uint32_t));
    }
    lt->tests[lt->n++] = test;
}

/* What a failing baseline test's exception suggests the sandbox refused,
 * or "" (the sandbox answers EPERM to process creation, sockets and the
 * like, and EACCES or EROFS to writes outside scratch). */
static const char *sandbox_hint(const char *text)
{
    if (strstr(text, "Operation not permitted"))
        return " (refused by the sandbox: no network beyond loopback, no "
               "ptrace, mounts or namespaces)";
    if (strstr(text, "Permission denied") ||
        strstr(text, "Read-only file system"))
        return " (refused by the sandbox: only its scratch directory, the "
               "temporary directory of the tests, is writable)";
    /* Hypothesis times every example against its deadline: a test
     * traced, or on a loaded machine, may miss one that plain pytest
     * meets, and hypothesis then reports the test Flaky. */
    if (strstr(text, "DeadlineExceeded") ||
        strstr(text, "Unreliable test timings") ||
        (strstr(text, "hypothesis.errors.Flaky") &&
         strstr(text, "unreliable results")))
        return " (a hypothesis deadline missed under the tracer or the "
               "machine's load?  deadline=None in the project's "
               "hypothesis settings, or --deselect-failing)";
    if (strstr(text, "Network is unreachable") ||
        strstr(text, "Name or service not known") ||
        strstr(text, "Temporary failure in name resolution") ||
        strstr(text, "Connection refused"))
        return " (no network in the sandbox)";
    return "";
}

/* Tests that fail on the original code: every one is listed with why.
 * Without `deselect`, that stops the run (-1); with it they are left out
 * of the run and recorded (0). */
static int report_failing(const struct lt_suite *suite, int runner,
                          const struct lt_run_report *const *jobs,
                          size_t n_jobs, int deselect, struct baseline *b)
{
    size_t n = 0;
    for (size_t q = 0; q < n_jobs; q++)
        for (size_t k = 0; k < jobs[q]->n_tests; k++)
            n += jobs[q]->test_outcome[jobs[q]->tests[k]] == LT_TEST_FAILED ||
                 jobs[q]->test_outcome[jobs[q]->tests[k]] == LT_TEST_MEMORY;
    if (deselect)
        lt_warn("%zu test%s fail%s on the original code and %s left out "
                "(--deselect-failing):", n, n == 1 ? "" : "s",
                n == 1 ? "s" : "", n == 1 ? "is" : "are");
    else
        lt_error("%zu test%s fail%s on the original code:", n,
                 n == 1 ? "" : "s", n == 1 ? "s" : "");
    size_t shown = 0;
    for (size_t q = 0; q < n_jobs; q++) {
        const struct lt_run_report *j = jobs[q];
        for (size_t k = 0; k < j->n_tests; k++) {
            size_t i = j->tests[k];
            if (j->test_outcome[i] != LT_TEST_FAILED &&
                j->test_outcome[i] != LT_TEST_MEMORY)
                continue;
            if (deselect)
                b->failing[i] = 1;
            if (shown++ >= 50)
                continue;
            const char *why = j->fail_texts && j->fail_texts[i]
                                  ? j->fail_texts[i] : "";
            fprintf(stderr, "  %s: %s%s\n", suite->test_ids[i], why,
                    sandbox_hint(why));
        }
    }
    if (shown > 50)
        fprintf(stderr, "  ... and %zu more\n", shown - 50);
    if (deselect)
        return 0;
    if (runner == LT_TEST_RUNNER_PYTEST)
        fprintf(stderr, "litmus: compare with `python -m pytest`; tests that "
                        "need what the sandbox refuses can be left out with "
                        "--deselect-failing (or -- --deselect ID)\n");
    else
        fprintf(stderr, "litmus: compare with `python -m %s`; tests that "
                        "need what the sandbox refuses can be left out with "
                        "--deselect-failing\n",
                runner == LT_TEST_RUNNER_UNITTEST ? "unittest"
                                                            : "doctest");
    return -1;
}

/* The baseline's progress line (engine/core/progress.h): the test runs
 * done of those to do, counted from the TEST_RESULT frames the children
 * sent, each test once per run.  A test that a chunk runs again (after a
 * whole run gave way to chunks, or when the runs are made again whole)
 * counts once, so the count never goes back. */
struct baseline_count {
    struct lt_progress show;
    unsigned char **seen;    /* per run (from first_run), per test */
    int first_run, runs;
    size_t done, total;
    char details[96];
};

/* The baseline's tasks.  Each run starts whole, in one child, in
 * collection order.  When the early judgement finds that the tests mostly
 * wait (so more zygotes start), the whole runs are stopped and every run
 * is dealt again in chunks, which the new zygotes share: an I/O-bound
 * baseline then takes a fraction of its serial time, and a CPU-bound one
 * pays nothing.  Jobs are kept until every task has ended, then taken in
 * in order. */
struct baseline_set;
static const struct lt_task_ops baseline_ops;

struct baseline_task {
    struct lt_task xt;
    struct baseline_set *set;
    int run;                 /* 0: decides runnable; later: finds flaky */
    int whole;               /* a whole run, not a chunk */
    const uint32_t *tests;   /* the tests to run, in collection order */
    size_t n_tests;
    struct lt_run_report *job; /* the finished run, kept from the
                                  executor (lt_run_report_keep) */
    int ended;
    int superseded;          /* a whole run stopped for the chunks */
    size_t counted;          /* tests[0..counted) are in the count */
};

struct baseline_set {
    const struct lt_plan *plan;
    const struct lt_score_opts *o;
    struct early_jobs *early; /* run 0's children are watched */
    const uint32_t *tests;
    size_t n_tests;
    int first_run, runs;
    int may_split;
    size_t chunks;           /* 0 until split: chunks per run */
    int module_chunks;       /* one run dealt in chunks from the start: a
                                failing test makes it whole again only
                                when its chunk began inside its module */
    struct baseline_task *whole, *parts;
    size_t n_parts;
    struct baseline_count *count;
};

static int baseline_prepare(struct lt_exec *ex, struct lt_task *xt,
                            struct lt_launch *la)
{
    struct baseline_task *bt = xt->owner;
    const struct baseline_set *set = bt->set;
    size_t nt = lt_exec_lane_suite(xt->lane)->n_tests;
    (void)ex;
    if (bt->whole && set->chunks) {
        bt->superseded = 1; /* dealt in chunks before it started */
        return LT_EUSAGE;
    }
    lt_run_spec_alloc(&la->spec, nt, 1);
    la->spec.is_baseline = 1;
    la->spec.n_tests = bt->n_tests;
    la->spec.n_files = set->plan->n_files;
    la->spec.tests = xcalloc(bt->n_tests + 1, sizeof(uint32_t));
    memcpy(la->spec.tests, bt->tests, bt->n_tests * sizeof(uint32_t));
    la->spec.fail_texts = xcalloc(nt + 1, sizeof(char *));
    la->req = (struct lt_run_request){
        .mode = LT_RUN_BASELINE, .replacement = "",
        .cpu_seconds = lt__cpu_limit_for(set->o->baseline_timeout),
        .memory_bytes = (uint64_t)set->o->run.memory_mb << 20,
        /* Process mode, so that tests that start processes or serve on
         * localhost pass as under pytest, and say so (NEEDS). */
        .flags = LT_RUN_PROCESSES};
    la->wall = set->o->baseline_timeout;
    return 0;
}

/* Deals every run in chunks, once: chunks per run for the children the
 * early judgement wants, each of BASELINE_CHUNK_MIN tests or more. */
static void deal_chunks(struct lt_exec *ex, struct baseline_set *set,
                        struct lt_lane *lane)
{
    if (set->chunks)
        return;
    size_t runs = (size_t)set->runs;
    size_t want = set->early && set->early->want > 0
                      ? (size_t)set->early->want : 2 * runs;
    size_t chunks = (want + runs - 1) / runs;
    if (chunks > set->n_tests / BASELINE_CHUNK_MIN)
        chunks = set->n_tests / BASELINE_CHUNK_MIN;
    if (chunks > BASELINE_CHUNKS_MAX)
        chunks = BASELINE_CHUNKS_MAX;
    if (chunks < 2)
        chunks = 2;
    set->chunks = chunks;
    set->n_parts = runs * chunks;
    set->parts = xcalloc(set->n_parts + 1, sizeof(*set->parts));
    for (size_t k = 0; k < set->n_parts; k++) {
        size_t c = k % chunks;
        size_t from = c * set->n_tests / chunks;
        size_t to = (c + 1) * set->n_tests / chunks;
        struct baseline_task *bt = &set->parts[k];
        bt->xt = (struct lt_task){.ops = &baseline_ops, .lane = lane,
                                  .owner = bt};
        bt->set = set;
        bt->run = set->first_run + (int)(k / chunks);
        bt->tests = set->tests + from;
        bt->n_tests = to - from;
        lt_exec_submit(ex, &bt->xt);
    }
    lt_debug("baseline: the tests mostly wait: each run in %zu chunks",
             chunks);
}

/* Adds to the count the tests of bt's run that j has results of: from
 * where the count stopped, up to the first test without one (a child
 * runs its tests in the order given), or every one (all: the task's
 * child ended). */
static void count_results(struct baseline_task *bt,
                          const struct lt_run_report *j,
                          int all)
{
    struct baseline_count *c = bt->set->count;
    if (!c || !j->seen || bt->run < c->first_run ||
        bt->run >= c->first_run + c->runs)
        return;
    unsigned char *seen = c->seen[bt->run - c->first_run];
    for (size_t k = all ? 0 : bt->counted; k < bt->n_tests; k++) {
        uint32_t t = bt->tests[k];
        if (!j->seen[t]) {
            if (all)
                continue;
            break;
        }
        if (!all)
            bt->counted = k + 1;
        if (!seen[t]) {
            seen[t] = 1;
            c->done++;
        }
    }
    if (all)
        bt->counted = bt->n_tests;
}

/* The executor's progress hook during the baseline: the results its
 * running children sent so far, then the line when one is due (force:
 * the run's end). */
/* Counts what a running child of this baseline reported so far. */
static void count_running(struct lt_task *t, const struct lt_run_report *j,
                          void *set)
{
    if (t->ops == &baseline_ops &&
        ((const struct baseline_task *)t->owner)->set == set)
        count_results(t->owner, j, 0);
}

static void baseline_progress(struct lt_exec *ex, int force)
{
    struct baseline_set *set = ex->owner;
    if (!set || !set->count)
        return;
    lt_exec_each_running(ex, count_running, set);
    struct baseline_count *c = set->count;
    lt__progress_show(&c->show, force, c->done, c->total, "%s",
                      c->details);
}

static void baseline_finished(struct lt_exec *ex, struct lt_task *xt,
                              const struct lt_run_report *j)
{
    struct baseline_task *bt = xt->owner;
    count_results(bt, j, 1);
    /* The executor resets j after this: the run moves here. */
    bt->job = lt_run_report_keep(j);
    bt->ended = 1;
    if (bt->superseded)
        deal_chunks(ex, bt->set, xt->lane);
}

static void baseline_lost(struct lt_exec *ex, struct lt_task *xt,
                          const char *why)
{
    struct baseline_task *bt = xt->owner;
    if (bt->superseded) {
        bt->ended = 1;
        return;
    }
    lt_error("the baseline run did not complete: %s", why);
    lt_exec_fail(ex, LT_EXIT_ENGINE);
}

/* Half a second into the first run's tests, their CPU share of the wall
 * time says whether the mutants will want more children; when they do,
 * the whole runs give way to chunks (every whole run's watch stops its
 * own child). */
static int baseline_watch(struct lt_exec *ex, struct lt_task *xt,
                           const struct lt_run_report *j, double now)
{
    struct baseline_task *bt = xt->owner;
    struct baseline_set *set = bt->set;
    struct early_jobs *e = set->early;
    if (bt->whole && !bt->superseded && e && e->want > 0 &&
        set->may_split) {
        bt->superseded = 1;
        return 1;
    }
    if (bt->run != 0 || !e || !e->on || e->want || !j->sandboxed ||
        j->pid <= 0)
        return 0;
    double cpu = lt_run_cpu_ns(j);
    if (cpu < 0)
        return 0;
    if (e->t0 == 0 || e->pid != j->pid) {
        /* The first look at this child (a chunk that ended early hands
         * the watch to the next one). */
        e->pid = j->pid;
        e->t0 = now;
        e->cpu0 = cpu;
        return 0;
    }
    if (now - e->t0 < 0.5)
        return 0;
    int want = children_for_share((cpu - e->cpu0) / 1e6,
                                  (now - e->t0) * 1e3, lt__online_cores(),
                                  lt__zygote_peak_kb(xt->lane));
    if (want > e->cap)
        want = e->cap;
    e->want = want > ex->jobs ? want : -1;
    return 0;
}

static const struct lt_task_ops baseline_ops = {
    .prepare = baseline_prepare, .finished = baseline_finished,
    .lost = baseline_lost, .watch = baseline_watch};

/* The executor's idle hook during the baseline: starts the zygotes the
 * early judgement asked for (outside the executor's rounds). */
static size_t baseline_idle(struct lt_exec *ex)
{
    const struct baseline_set *set = ex->owner;
    struct early_jobs *e = set ? set->early : NULL;
    if (e && e->want > ex->jobs && !e->applied) {
        e->applied = 1;
        struct lt_lane *l = ex->lanes[0];
        lt_exec_set_jobs(ex, e->want);
        lt_exec_warm(ex, l, e->want);
        lt_debug("the baseline's tests mostly wait: %d children", e->want);
    }
    return 0;
}

/* Takes in one finished baseline run or chunk (run 0 decides which tests are
 * runnable; later ones find the flaky).  0, or an exit code after
 * printing why. */
static int baseline_finish(const struct lt_suite *suite,
                           const struct lt_run_report *j,
                           const struct lt_score_opts *o, int run,
                           int first_chunk, struct baseline *b)
{
    size_t nt = j->n_tests;
    if (j->timed_out) {
        lt_error("the baseline did not finish within %.0f s (test %s); "
                 "raise --baseline-timeout",
                 o->baseline_timeout,
                 j->current >= 0 ? suite->test_ids[j->current] : "?");
        return LT_EXIT_USAGE;
    }
    if (j->output_overflow) {
        lt_error("the baseline run was stopped: test %s wrote more than "
                 "%u bytes of output (litmus's cap for one test)",
                 j->current >= 0 ? suite->test_ids[j->current] : "?",
                 LT_OUTPUT_CAP);
        return LT_EXIT_USAGE;
    }
    if (!j->ended || j->protocol_error || !WIFEXITED(j->wait_status) ||
        WEXITSTATUS(j->wait_status) != 0 || (size_t)j->n_results != nt) {
        const char *out = j->output.len ? j->output.data : "";
        const char *tail = out + (strlen(out) > 600 ? strlen(out) - 600 : 0);
        char counts[96];
        snprintf(counts, sizeof(counts), ", %d of %zu results%s%s",
                 j->n_results, nt, j->protocol_error ? ", bad frames" : "",
                 j->ended ? "" : ", no end");
        lt_error("the baseline run did not complete (status 0x%x%s%s%s)%s%s",
                 j->wait_status, counts, j->current >= 0 ? ", during " : "",
                 j->current >= 0 ? suite->test_ids[j->current] : "",
                 *tail ? "; output: " : "", tail);
        return j->sandboxed ? LT_EXIT_USAGE : LT_EXIT_ENGINE;
    }
    b->features = j->sandbox & ~(unsigned)LT_SBX_PROCESSES;
    b->have_features = 1;
    if (run == 0 && first_chunk && !(j->sandbox & LT_SBX_PROCESSES))
        lt_warn("the tests cannot start processes or use loopback sockets "
                "in this run: process mode needs user, pid, mount and "
                "network namespaces and the sandbox's own uid (see "
                "docs/threat-model.md); such tests fail");
    for (size_t t = 0; t < nt; t++) {
        size_t i = j->tests[t];
        if (j->test_needs)
            b->needs[i] |= j->test_needs[i];
        int passed = j->test_outcome[i] == LT_TEST_PASSED;
        int skipped = j->test_outcome[i] == LT_TEST_SKIPPED;
        if (run == 0) {
            b->runnable[i] = (unsigned char)passed;
        } else if (b->runnable[i] != passed && !skipped) {
            b->flaky[i] = 1;
            b->runnable[i] = 0;
        }
        double wall = j->test_ns[i] / 1e6, cpu = j->test_cpu_ns[i] / 1e6;
        if (wall > b->wall_ms[i])
            b->wall_ms[i] = wall;
        if (cpu > b->cpu_ms[i])
            b->cpu_ms[i] = cpu;
        if (run == 0)
            b->work[i] = (double)j->cov[i].line_events;
        for (size_t k = 0; k < j->cov[i].n; k++) {
            uint32_t f = j->cov[i].pairs[2 * k];
            uint32_t line = j->cov[i].pairs[2 * k + 1];
            if (f < b->n_files && line <= b->n_lines[f])
                line_add(&b->by_line[f][line], (uint32_t)i);
        }
    }
    return 0;
}

void lt__baseline_init(struct baseline *b, const struct lt_plan *plan,
                       const struct lt_suite *suite)
{
    size_t nt = suite->n_tests;
    b->wall_ms = xcalloc(nt + 1, sizeof(double));
    b->cpu_ms = xcalloc(nt + 1, sizeof(double));
    b->work = xcalloc(nt + 1, sizeof(double));
    b->runnable = xcalloc(nt + 1, 1);
    b->needs = xcalloc(nt + 1, 1);
    b->flaky = xcalloc(nt + 1, 1);
    b->failing = xcalloc(nt + 1, 1);
    b->n_files = plan->n_files;
    b->by_line = xcalloc(plan->n_files + 1, sizeof(*b->by_line));
    b->n_lines = xcalloc(plan->n_files + 1, sizeof(size_t));
    for (size_t f = 0; f < plan->n_files; f++) {
        size_t lines = 1;
        for (size_t k = 0; k < plan->files[f].len; k++)
            lines += plan->files[f].source[k] == '\n';
        b->n_lines[f] = lines;
        b->by_line[f] = xcalloc(lines + 1, sizeof(struct line_tests));
    }
    /* Import-time lines (the zygote's IMPORT_LINES, hostile input: lines
     * outside a file are dropped) count for every collected test. */
    b->at_import = xcalloc(plan->n_files + 1, sizeof(*b->at_import));
    for (size_t f = 0; f < plan->n_files; f++)
        b->at_import[f] = xcalloc(b->n_lines[f] + 1, 1);
    for (size_t k = 0; k < suite->n_import; k++) {
        uint32_t f = suite->import_pairs[2 * k];
        uint32_t line = suite->import_pairs[2 * k + 1];
        if (f < b->n_files && line <= b->n_lines[f])
            b->at_import[f][line] = 1;
    }
}

void lt__baseline_cover(struct baseline *b, size_t file, size_t line,
                        uint32_t test)
{
    if (file < b->n_files && line <= b->n_lines[file])
        line_add(&b->by_line[file][line], test);
}

/* 1 when a finished baseline child did not end cleanly with a result per
 * test, or a test failed in it. */
static int baseline_trouble(const struct lt_run_report *j)
{
    return j->timed_out || j->fail_test >= 0 || !j->ended ||
           j->protocol_error || !WIFEXITED(j->wait_status) ||
           WEXITSTATUS(j->wait_status) != 0 ||
           (size_t)j->n_results != j->n_tests;
}

/* The length of the test module part of a node id ("tests/t.py" of
 * "tests/t.py::test_x"), the whole id when it has none. */
static size_t module_len(const char *id)
{
    const char *sep = strstr(id, "::");
    return sep ? (size_t)(sep - id) : strlen(id);
}

/* 1 when tests[i - 1] and tests[i] are of one test module. */
static int same_module(const struct lt_suite *suite, const uint32_t *tests,
                       size_t i)
{
    const char *a = suite->test_ids[tests[i - 1]];
    const char *b = suite->test_ids[tests[i]];
    size_t la = module_len(a);
    return la == module_len(b) && strncmp(a, b, la) == 0;
}

/* Runs tests[0..n_tests) `runs` times, numbered from first_run (see
 * lt__baseline_run); may_split: whole runs may give way to chunks. */
static int run_baseline(struct lt_exec *ex, struct lt_lane *lane,
                        const struct lt_plan *plan,
                        const struct lt_score_opts *o, struct baseline *b,
                        struct early_jobs *early, const uint32_t *tests,
                        size_t n_tests, int first_run, int runs,
                        int may_split, struct baseline_count *count)
{
    const struct lt_suite *suite = lt_exec_lane_suite(lane);
    struct baseline_set set = {
        .plan = plan, .o = o, .early = early, .tests = tests,
        .n_tests = n_tests, .first_run = first_run, .runs = runs,
        .may_split = may_split && early && early->on &&
                     n_tests >= 2 * BASELINE_CHUNK_MIN,
        .count = count};
    /* One run with zygotes to spare: its tests are shared out at once,
     * in chunks of about equal size, two a zygote (so that one slow chunk
     * does not hold the run alone). */
    size_t n_chunks = 2 * (size_t)ex->jobs;
    if (n_chunks > n_tests / BASELINE_CHUNK_MIN)
        n_chunks = n_tests / BASELINE_CHUNK_MIN;
    if (runs == 1 && ex->jobs > 1 && n_chunks > 1) {
        lt_debug("baseline: run %d in %zu chunks", first_run, n_chunks);
        set.may_split = 0;
        set.module_chunks = 1;
        set.chunks = n_chunks;
        set.n_parts = n_chunks;
        set.parts = xcalloc(n_chunks + 1, sizeof(*set.parts));
        for (size_t k = 0; k < n_chunks; k++) {
            size_t from = k * n_tests / n_chunks;
            struct baseline_task *bt = &set.parts[k];
            bt->xt = (struct lt_task){.ops = &baseline_ops, .lane = lane,
                                      .owner = bt};
            bt->set = &set;
            bt->run = first_run;
            bt->tests = tests + from;
            bt->n_tests = (k + 1) * n_tests / n_chunks - from;
            lt_exec_submit(ex, &bt->xt);
        }
    } else {
        set.whole = xcalloc((size_t)runs + 1, sizeof(*set.whole));
        for (int k = 0; k < runs; k++) {
            struct baseline_task *bt = &set.whole[k];
            bt->xt = (struct lt_task){.ops = &baseline_ops, .lane = lane,
                                      .owner = bt};
            bt->set = &set;
            bt->run = first_run + k;
            bt->whole = 1;
            bt->tests = tests;
            bt->n_tests = n_tests;
            lt_exec_submit(ex, &bt->xt);
        }
    }
    ex->owner = &set;
    ex->idle = baseline_idle;
    ex->progress = baseline_progress;
    int rc = lt_exec_run(ex);
    ex->progress = NULL;
    ex->idle = NULL;
    ex->owner = NULL;
    struct baseline_task *done = set.chunks ? set.parts : set.whole;
    size_t n_done = set.chunks ? set.n_parts : (size_t)runs;
    for (size_t k = 0; rc == 0 && k < n_done; k++)
        if (!done[k].ended)
            rc = LT_EXIT_ENGINE;
    /* A test that fails in a chunk that began inside its test module
     * may owe it to the tests of that module the chunk left out (the
     * runs are made again whole, in collection order, which decides as
     * plain pytest would); so may any trouble in the chunks the early
     * judgement dealt. */
    int again = 0;
    for (size_t k = 0; rc == 0 && set.chunks && k < n_done; k++) {
        const struct lt_run_report *j = done[k].job;
        size_t from = (size_t)(done[k].tests - tests);
        if (!set.module_chunks) {
            again |= baseline_trouble(j);
            continue;
        }
        if (j->fail_test < 0 || from == 0 || !same_module(suite, tests, from))
            continue;
        for (size_t t = from; t < from + done[k].n_tests && !again; t++) {
            if (t > from && !same_module(suite, tests, t))
                break;
            again = j->test_outcome[tests[t]] == LT_TEST_FAILED ||
                    j->test_outcome[tests[t]] == LT_TEST_MEMORY;
        }
    }
    /* The first run's failing tests, said once for all its chunks. */
    if (rc == 0 && !again && first_run == 0) {
        const struct lt_run_report **failed = xcalloc(n_done + 1,
                                                      sizeof(*failed));
        size_t n_failed = 0;
        for (size_t k = 0; k < n_done; k++)
            if (done[k].run == 0 && done[k].job->fail_test >= 0 &&
                !done[k].job->timed_out)
                failed[n_failed++] = done[k].job;
        if (n_failed &&
            report_failing(suite, lt_exec_lane_config(lane)->runner, failed,
                           n_failed,
                           o->deselect_failing, b) < 0)
            rc = LT_EXIT_USAGE;
        free(failed);
    }
    for (size_t k = 0; k < n_done; k++) {
        int first = k == 0 || done[k].run != done[k - 1].run;
        if (rc == 0 && !again)
            rc = baseline_finish(suite, done[k].job, o, done[k].run, first,
                                 b);
        /* Taken in: its per-test arrays can go now. */
        lt_run_report_free(done[k].job);
        done[k].job = NULL;
    }
    for (size_t k = 0; set.whole && k < (size_t)runs; k++)
        lt_run_report_free(set.whole[k].job);
    for (size_t k = 0; k < set.n_parts; k++)
        lt_run_report_free(set.parts[k].job);
    free(set.whole);
    free(set.parts);
    if (rc == 0 && again) {
        lt_debug("baseline: a chunk had a failing test: the runs are made "
                 "again whole");
        return run_baseline(ex, lane, plan, o, b, early, tests, n_tests,
                            first_run, runs, 0, count);
    }
    return rc;
}

int lt__baseline_staged(const struct lt_exec *ex, size_t n_tests)
{
    /* Below a few hundred tests a run takes less than a chunked one's
     * extra children cost. */
    return ex->jobs > 1 && n_tests >= 8 * BASELINE_CHUNK_MIN;
}

int lt__baseline_run(struct lt_exec *ex, struct lt_lane *lane,
                     const struct lt_plan *plan, const struct lt_score_opts *o,
                     struct baseline *b, struct early_jobs *early,
                     const uint32_t *tests, size_t n_tests, int first_run,
                     int runs)
{
    if (n_tests == 0 || runs <= 0)
        return 0;
    /* The progress line of these runs: "120/400 baseline test runs, 200
     * tests x 2 runs; 45s elapsed, about 1m left" (a baseline over in a
     * moment writes none). */
    size_t nt = lt_exec_lane_suite(lane)->n_tests;
    struct baseline_count count = {
        .first_run = first_run, .runs = runs,
        .total = n_tests * (size_t)runs};
    count.seen = xcalloc((size_t)runs + 1, sizeof(*count.seen));
    for (int k = 0; k < runs; k++)
        count.seen[k] = xcalloc(nt + 1, 1);
    lt__progress_init(&count.show, o->run.progress,
                      runs > 1 ? "baseline test runs" : "baseline tests");
    lt__progress_hold(&count.show, 0);
    if (runs > 1)
        snprintf(count.details, sizeof(count.details),
                 "%zu test%s x %d %sruns%s", n_tests, n_tests == 1 ? "" : "s",
                 runs, first_run > 0 ? "more " : "",
                 first_run > 0 ? " to find flaky tests" : "");
    else if (first_run > 0)
        snprintf(count.details, sizeof(count.details),
                 "run again to find flaky tests");
    int rc = run_baseline(ex, lane, plan, o, b, early, tests, n_tests,
                          first_run, runs, 1, &count);
    for (int k = 0; k < runs; k++)
        free(count.seen[k]);
    free(count.seen);
    return rc;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

void lt__baseline_index(const struct lt_suite *suite,
                        const struct lt_plan *plan,
                        struct baseline *b)
{
    size_t nt = suite->n_tests;
    /* Reused and fresh tests fill the lines in two passes: each line's
     * tests go back to collection order, once each. */
    for (size_t f = 0; f < plan->n_files; f++) {
        for (size_t l = 0; l <= b->n_lines[f]; l++) {
            struct line_tests *lt = &b->by_line[f][l];
            if (lt->n < 2)
                continue;
            qsort(lt->tests, lt->n, sizeof(uint32_t), cmp_u32);
            size_t w = 1;
            for (size_t k = 1; k < lt->n; k++)
                if (lt->tests[k] != lt->tests[w - 1])
                    lt->tests[w++] = lt->tests[k];
            lt->n = w;
        }
    }
    for (size_t f = 0; b->file_reach && f < plan->n_files; f++)
        free(b->file_reach[f]);
    free(b->file_reach);
    b->file_reach = xcalloc(plan->n_files + 1, sizeof(unsigned char *));
    for (size_t f = 0; f < plan->n_files; f++) {
        b->file_reach[f] = xcalloc(nt + 1, 1);
        for (size_t l = 0; l <= b->n_lines[f]; l++)
            for (size_t k = 0; k < b->by_line[f][l].n; k++)
                b->file_reach[f][b->by_line[f][l].tests[k]] = 1;
    }
}

int lt__baseline_settle(const struct lt_suite *suite,
                        const struct lt_plan *plan,
                        struct baseline *b)
{
    size_t nt = suite->n_tests;
    lt__baseline_index(suite, plan, b);
    size_t usable = 0;
    for (size_t i = 0; i < nt; i++) {
        usable += b->runnable[i];
        if (b->flaky[i])
            lt_warn("test %s is flaky (its outcome changed between "
                    "baseline runs); it is left out of selection",
                    suite->test_ids[i]);
    }
    if (usable == 0) {
        lt_error("no test passes reliably on the original code");
        return LT_EXIT_USAGE;
    }
    return 0;
}

/* Coverage of one subject file of the baseline, for lt__select_tests. */
struct file_cover {
    const struct baseline *b;
    size_t file;
};

static size_t line_cover(const void *ctx, long line, const uint32_t **tests)
{
    const struct file_cover *fc = ctx;
    if (line < 0 || (size_t)line > fc->b->n_lines[fc->file])
        return 0;
    const struct line_tests *lt = &fc->b->by_line[fc->file][line];
    *tests = lt->tests;
    return lt->n;
}

/* The order of a mutant that runs every test (module or class-body code,
 * import-time lines): first the tests that executed lines of the
 * mutant's file themselves, then the others, each group cheapest first.
 * A module constant's mutant then meets its killer among the tests of
 * its module instead of after every cheaper test of other modules.  It
 * depends on the baseline alone, so the reported killer does not depend
 * on --jobs or on which mutants finished first. */
static void file_tests_first(uint32_t *tests, size_t n,
                             const unsigned char *reach)
{
    uint32_t *rest = xmalloc((n + 1) * sizeof(uint32_t));
    size_t w = 0, nr = 0;
    for (size_t i = 0; i < n; i++) {
        if (reach[tests[i]])
            tests[w++] = tests[i];
        else
            rest[nr++] = tests[i];
    }
    memcpy(tests + w, rest, nr * sizeof(uint32_t));
    free(rest);
}

static const double *sort_cost; /* for by_cost(): baseline wall times */

static int by_cost(const void *a, const void *b)
{
    double x = sort_cost[*(const uint32_t *)a];
    double y = sort_cost[*(const uint32_t *)b];
    return (x > y) - (x < y);
}

/* The lines that Python processes started by a test ran are in its
 * coverage (the baseline traces them too), but not those of a forked
 * copy of the test's process, nor of an interpreter that ran isolated or
 * ended without reporting: such a test may reach any line, so it joins
 * every mutant's selection after the covering tests, cheapest first. */
static size_t add_process_tests(const struct lt_suite *suite,
                                const struct baseline *b, uint32_t **out,
                                size_t n)
{
    size_t nt = suite->n_tests, extra = 0;
    for (size_t i = 0; i < nt; i++)
        extra += b->runnable[i] && (b->needs[i] & LT_NEEDS_UNTRACED);
    if (!extra)
        return n;
    unsigned char *have = xcalloc(nt + 1, 1);
    for (size_t k = 0; k < n; k++)
        have[(*out)[k]] = 1;
    *out = xrealloc(*out, (n + extra + 1) * sizeof(uint32_t));
    size_t first = n;
    for (size_t i = 0; i < nt; i++)
        if (b->runnable[i] && (b->needs[i] & LT_NEEDS_UNTRACED) && !have[i])
            (*out)[n++] = (uint32_t)i;
    free(have);
    sort_cost = b->wall_ms;
    qsort(*out + first, n - first, sizeof(uint32_t), by_cost);
    return n;
}

/* The tests a mutant runs: those covering its lines (every runnable test
 * for a change to module or class-body code, or to a line that runs at
 * import), fastest first.  Returns the count; *out is the caller's to
 * free. */
size_t lt__baseline_select(const struct lt_suite *suite,
                           const struct baseline *b,
                           const struct lt_mutant *m, size_t file,
                           int structural, uint32_t **out)
{
    struct file_cover fc = {b, file};
    int wide = structural || lt__baseline_at_import(b, m, file);
    /* A wide mutant runs the tests that can observe it, when they are
     * known, else every test. */
    const unsigned char *only =
        wide ? lt__baseline_narrow(b, file, m->line, m->end_line) : NULL;
    struct lt__selection sel = {suite->n_tests, b->runnable, b->work,
                                line_cover, &fc, only};
    size_t n = lt__select_tests(&sel, m->line, m->end_line, wide, out);
    if (only && n == 0) {
        /* No test can observe it: the cheapest one still makes its child
         * import and collect afresh, which kills a mutant that breaks
         * the import, as under pytest. */
        struct lt__selection any = sel;
        any.only = NULL;
        free(*out);
        n = lt__select_tests(&any, m->line, m->end_line, 1, out);
        if (n > 1)
            n = 1;
    }
    if (wide && b->file_reach)
        file_tests_first(*out, n, b->file_reach[file]);
    return wide ? n : add_process_tests(suite, b, out, n);
}

size_t lt__mutant_select(const struct score_run *r, size_t i, uint32_t **out)
{
    return lt__baseline_select(r->suite, &r->base, &r->plan.mutants.items[i],
                               r->plan.mutant_file[i], r->mp[i].a.structural,
                               out);
}

/* Encodes a baseline's coverage of one test for the store:
 * "FILE:1-4,9\n" per subject file it touched. */
char *lt__baseline_coverage_text(const struct baseline *b,
                                 const struct lt_plan *plan, uint32_t test)
{
    struct lt_buf t = LT_BUF_INIT;
    for (size_t f = 0; f < b->n_files; f++) {
        int first = 1;
        long run_start = -1, prev = -1;
        for (size_t l = 1; l <= b->n_lines[f]; l++) {
            const struct line_tests *lt = &b->by_line[f][l];
            int hit = 0;
            for (size_t k = 0; k < lt->n && !hit; k++)
                hit = lt->tests[k] == test;
            if (hit && prev == (long)l - 1 && run_start >= 0) {
                prev = (long)l;
                continue;
            }
            if (run_start >= 0) {
                if (prev > run_start)
                    lt_buf_printf(&t, "-%ld", prev);
                run_start = -1;
            }
            if (hit) {
                if (first)
                    lt_buf_printf(&t, "%s:", plan->files[f].path);
                lt_buf_printf(&t, "%s%zu", first ? "" : ",", l);
                first = 0;
                run_start = prev = (long)l;
            }
        }
        if (run_start >= 0 && prev > run_start)
            lt_buf_printf(&t, "-%ld", prev);
        if (!first)
            lt_buf_puts(&t, "\n");
    }
    return t.len ? lt_buf_steal(&t) : (lt_buf_free(&t), NULL);
}

