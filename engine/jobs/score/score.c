/* `litmus score`: plans the mutants of the subject files, runs the
 * baseline and every pending mutant on a pool of zygotes, decides each
 * verdict from the evidence the child sent, and stores it.
 * SPDX-License-Identifier: MIT */
#include "engine/engine.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/log.h"
#include "common/sha256.h"
#include "common/xmalloc.h"
#include "engine/jobs/score/incr.h"
#include "engine/jobs/score/score_internal.h"
#include "engine/core/internal.h"
#include "engine/core/exec.h"
#include "engine/core/mutate.h"
#include "engine/core/pool.h"
#include "engine/core/progress.h"
#include "engine/core/pyenv.h"
#include "engine/core/select.h"
#include "engine/core/store.h"
#include "engine/core/verdict.h"
#include "engine/report/report.h"
#include "harness/wire.h"
#include "operators/operators.h"
#include "runners/runner.h"
#include "sandbox/sandbox.h"

#define BATCH_RESULTS 64
#define BATCH_SECONDS 0.5


/* Bytes of precompiled swap payloads the engine keeps for one run: about
 * 1 KB a mutant, so enough for tens of thousands of mutants and within the
 * engine's memory target. */
#define SWAP_BUDGET ((size_t)16 << 20)


void lt_score_opts_init(struct lt_score_opts *o)
{
    memset(o, 0, sizeof(*o));
    o->db = ".litmus.db";
    o->operators = "mutmut";
    o->jobs = 0; /* as many as cores, more when the tests mostly wait */
    o->format = LT_FORMAT_TEXT;
    o->fail_under = -1;
    o->timeout_factor = 5.0;
    o->timeout_const = LT_SCORE_TIMEOUT_CONST;
    o->baseline_timeout = 300.0;
    o->memory_mb = LT_MEMORY_MB_DEFAULT;
    o->progress = -1;
    o->baseline_runs = 2;
}

/*** Planning: subject files ***/

static int is_test_file(const char *name)
{
    size_t n = strlen(name);
    return strncmp(name, "test_", 5) == 0 || strcmp(name, "conftest.py") == 0 ||
           (n > 8 && strcmp(name + n - 8, "_test.py") == 0);
}

static int add_tree(const char *path, char ***files, size_t *n, size_t *cap)
{
    struct stat st;
    if (stat(path, &st) < 0)
        return -errno;
    if (S_ISREG(st.st_mode)) {
        char *real = realpath(path, NULL);
        if (!real)
            return -errno;
        if (*n == *cap) {
            *cap = *cap ? *cap * 2 : 16;
            *files = xrealloc(*files, *cap * sizeof(char *));
        }
        (*files)[(*n)++] = real;
        return 0;
    }
    if (!S_ISDIR(st.st_mode))
        return -EINVAL;
    struct dirent **ents = NULL;
    int cnt = scandir(path, &ents, NULL, alphasort);
    if (cnt < 0)
        return -errno;
    int rc = 0;
    for (int i = 0; i < cnt; i++) {
        const char *name = ents[i]->d_name;
        if (rc == 0 && name[0] != '.' && strcmp(name, "__pycache__") != 0) {
            char *child = xasprintf("%s/%s", path, name);
            struct stat cs;
            if (lstat(child, &cs) == 0) {
                size_t len = strlen(name);
                if (S_ISDIR(cs.st_mode))
                    rc = add_tree(child, files, n, cap);
                else if (S_ISREG(cs.st_mode) && len > 3 &&
                         strcmp(name + len - 3, ".py") == 0 &&
                         !is_test_file(name))
                    rc = add_tree(child, files, n, cap);
            }
            free(child);
        }
        free(ents[i]);
    }
    free(ents);
    return rc;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Strict UTF-8 check; returns the 1-based line of the first bad byte or 0
 * when the text is valid. */
static int bad_utf8_line(const unsigned char *s, size_t n)
{
    int line = 1;
    size_t i = 0;
    while (i < n) {
        unsigned char c = s[i];
        if (c == '\n')
            line++;
        if (c < 0x80) {
            i++;
            continue;
        }
        int need;
        unsigned cp;
        if ((c & 0xE0) == 0xC0) {
            need = 1;
            cp = c & 0x1F;
        } else if ((c & 0xF0) == 0xE0) {
            need = 2;
            cp = c & 0x0F;
        } else if ((c & 0xF8) == 0xF0) {
            need = 3;
            cp = c & 0x07;
        } else {
            return line;
        }
        for (int k = 1; k <= need; k++) {
            if (i + (size_t)k >= n || (s[i + k] & 0xC0) != 0x80)
                return line;
            cp = (cp << 6) | (s[i + k] & 0x3F);
        }
        if ((need == 1 && cp < 0x80) || (need == 2 && cp < 0x800) ||
            (need == 3 && (cp < 0x10000 || cp > 0x10FFFF)) ||
            (cp >= 0xD800 && cp <= 0xDFFF))
            return line;
        i += (size_t)need + 1;
    }
    return 0;
}


void lt__plan_free(struct lt_plan *p)
{
    for (size_t i = 0; i < p->n_files; i++) {
        free(p->files[i].path);
        free(p->files[i].source);
    }
    free(p->files);
    lt_mutant_list_free(&p->mutants);
    free(p->mutant_file);
    memset(p, 0, sizeof(*p));
}

/* Finds, reads and checks every subject file (UTF-8, fingerprint); the
 * mutants come later, from plan_mutants().  Errors are input errors
 * (exit 2) with a one-line message already printed. */
static int plan_files(const struct lt_score_opts *o, struct lt_plan *plan)
{
    char **files = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    for (size_t i = 0; i < o->n_paths; i++) {
        rc = add_tree(o->paths[i], &files, &n, &cap);
        if (rc < 0) {
            lt_error("%s: %s", o->paths[i], lt_strerror(rc));
            goto out;
        }
    }
    if (n == 0) {
        lt_error("no Python source files found in the given paths");
        rc = LT_EUSAGE;
        goto out;
    }
    qsort(files, n, sizeof(char *), cmp_str);
    /* Drop duplicates (a file named twice, or inside a named dir). */
    size_t u = 0;
    for (size_t i = 0; i < n; i++) {
        if (u > 0 && strcmp(files[u - 1], files[i]) == 0)
            free(files[i]);
        else
            files[u++] = files[i];
    }
    n = u;
    /* [tool.litmus] exclude: globs over the path relative to the working
     * directory. */
    if (o->n_exclude) {
        char *cwd = getcwd(NULL, 0);
        size_t cl = cwd ? strlen(cwd) : 0;
        u = 0;
        for (size_t i = 0; i < n; i++) {
            const char *rel = files[i];
            if (cl && strncmp(rel, cwd, cl) == 0 && rel[cl] == '/')
                rel += cl + 1;
            if (lt__path_excluded(rel, o->exclude, o->n_exclude))
                free(files[i]);
            else
                files[u++] = files[i];
        }
        n = u;
        free(cwd);
        if (n == 0) {
            lt_error("every Python source file is excluded by "
                     "[tool.litmus] exclude");
            rc = LT_EUSAGE;
            goto out;
        }
    }

    plan->files = xcalloc(n, sizeof(*plan->files));
    for (size_t i = 0; i < n; i++) {
        struct lt_plan_file *f = &plan->files[plan->n_files++];
        f->path = files[i];
        files[i] = NULL;
        rc = lt_read_file(f->path, &f->source, &f->len);
        if (rc < 0) {
            lt_error("%s: %s", f->path, lt_strerror(rc));
            goto out;
        }
        int bad = bad_utf8_line((const unsigned char *)f->source, f->len);
        if (bad) {
            lt_error("%s:%d: not UTF-8 text; litmus reads Python source "
                     "as UTF-8", f->path, bad);
            rc = LT_EPARSE;
            goto out;
        }
        lt_sha256_hex(f->source, f->len, f->sha);
    }
out:
    for (size_t i = 0; i < n; i++)
        free(files[i]);
    free(files);
    return rc;
}

/* Generates the mutants of every file of the plan, in file order.  0 or a
 * negative code after printing why. */
static int plan_mutants(const struct lt_score_opts *o, struct lt_plan *plan,
                        const struct lt_lines *since)
{
    int rc = lt_operators_init();
    if (rc < 0) {
        lt_error("cannot start the embedded Python for the operators");
        return rc;
    }
    char *cwd = getcwd(NULL, 0);
    for (size_t i = 0; i < plan->n_files; i++) {
        struct lt_plan_file *f = &plan->files[i];
        struct lt_mutant_list ml = {0};
        char *msg = NULL;
        /* Ids hash the path relative to the working directory, so they
         * stay the same when the project is checked out elsewhere; the
         * store keeps the absolute path. */
        const char *rel = f->path;
        size_t cl = cwd ? strlen(cwd) : 0;
        if (cl && strncmp(f->path, cwd, cl) == 0 && f->path[cl] == '/')
            rel = f->path + cl + 1;
        rc = lt_operators_generate(rel, f->source, f->len, o->operators,
                                   &ml, &msg);
        if (rc < 0) {
            lt_error("%s", msg ? msg : lt_strerror(rc));
            free(msg);
            goto out;
        }
        free(msg);
        /* Excluded operators and, with --since, unchanged lines: those
         * mutants are not generated at all. */
        size_t kept = 0;
        for (size_t k = 0; k < ml.count; k++) {
            struct lt_mutant *m = &ml.items[k];
            if (lt__op_excluded(m->op, rel, o->exclude_ops,
                                o->n_exclude_ops) ||
                (since && !lt__changed_touch(&since[i], m->line,
                                           m->end_line)))
                lt_mutant_clear(m);
            else
                ml.items[kept++] = *m;
        }
        ml.count = kept;
        size_t base = plan->mutants.count;
        plan->mutants.items = xrealloc(plan->mutants.items,
                                       (base + ml.count) *
                                           sizeof(struct lt_mutant));
        plan->mutant_file = xrealloc(plan->mutant_file,
                                     (base + ml.count + 1) * sizeof(size_t));
        for (size_t k = 0; k < ml.count; k++) {
            if (rel != f->path) {
                free(ml.items[k].file);
                ml.items[k].file = xstrdup(f->path);
            }
            plan->mutants.items[base + k] = ml.items[k];
            plan->mutant_file[base + k] = i;
        }
        plan->mutants.count += ml.count;
        free(ml.items);
    }
out:
    free(cwd);
    return rc;
}

/*** Verdicts ***/

/* Decides a mutant's verdict from the evidence of its run, by the one
 * rule of every job (lt_verdict_decide), and records its figures. */
static void decide(const struct pool *pool, const struct job *j,
                   struct lt_result *res)
{
    res->duration_ms = (lt__now() - j->started_at) * 1000.0;
    res->peak_rss_kb = j->maxrss_kb;
    res->tests_run = j->n_results + (j->current >= 0);
    if (j->output.len)
        res->output = xstrndup(j->output.data, j->output.len);
    struct lt_evidence ev;
    struct lt_decision d;
    lt__job_evidence(pool, j, &ev);
    lt_verdict_decide(&ev, &d);
    lt__evidence_clear(&ev);
    res->verdict = d.verdict;
    res->killed_by = d.killed_by;
    res->detail = d.detail;
}

/*** Running ***/

/* The mutants' tally for the progress line. */
struct progress {
    struct lt_progress show;
    size_t done, total;
    int killed, survived, other;
};

static void progress_show(struct progress *p, int force)
{
    lt__progress_show(&p->show, force, p->done, p->total,
                      "%d killed, %d survived, %d other", p->killed,
                      p->survived, p->other);
}

/* What the baseline runs taught: per test times, outcome and coverage. */
struct baseline {
    double *wall_ms, *cpu_ms;  /* per test: slowest of the runs */
    double *work;              /* per test: line events of the first run */
    unsigned char *runnable;   /* passed in every run */
    unsigned char *needs;      /* LT_NEEDS_* bits any run reported: the
                                  mutants that select the test run in
                                  process mode */
    unsigned char *flaky;      /* passed in one run, not in another */
    unsigned char *failing;    /* failed in the first run and left out
                                  (--deselect-failing) */
    unsigned char **file_reach; /* per subject file, per test: the test
                                   executed a line of the file itself */
    /* Per subject file, per line: the tests that executed it. */
    struct line_tests {
        uint32_t *tests;
        size_t n, cap;
    } **by_line;
    size_t *n_lines;
    size_t n_files;
    /* Per subject file, per line: executed while the subjects and the
     * tests were imported and collected, so covered by every test. */
    unsigned char **at_import;
};

static void baseline_free(struct baseline *b, size_t n_tests)
{
    (void)n_tests;
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
    memset(b, 0, sizeof(*b));
}

/*** How many children ***/

static int online_cores(void)
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

static int children_for(const struct baseline *b, size_t nt, int cores,
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
static long zygote_peak_kb(const struct pool *pool)
{
    long max = 0;
    for (int i = 0; i < pool->n; i++) {
        long kb = pool->z[i].pid > 0 ? lt__peak_rss_kb(pool->z[i].pid) : 0;
        if (kb > max)
            max = kb;
    }
    return max;
}

/* Children the mutants will want, judged early, while the first baseline
 * run goes on: when its tests mostly wait, the extra zygotes start then
 * (on a CPU the waiting leaves idle) instead of after the baseline, when
 * the mutants need the CPU.  The count is settled after the baseline. */
struct early_jobs {
    int on;                  /* no --jobs, more mutants than children */
    int cap;                 /* mutants to run */
    double t0, cpu0;         /* first look at the child, after SANDBOXED */
    int want;                /* > 0: grow to this; -1: judged, no growth */
    int applied;
};

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
static int report_failing(const struct pool *pool, const struct job *j,
                          int deselect, struct baseline *b)
{
    size_t n = 0, nt = pool->n_tests;
    for (size_t i = 0; i < nt; i++)
        n += j->test_outcome[i] == LT_TEST_FAILED ||
             j->test_outcome[i] == LT_TEST_MEMORY;
    if (deselect)
        lt_warn("%zu test%s fail%s on the original code and %s left out "
                "(--deselect-failing):", n, n == 1 ? "" : "s",
                n == 1 ? "s" : "", n == 1 ? "is" : "are");
    else
        lt_error("%zu test%s fail%s on the original code:", n,
                 n == 1 ? "" : "s", n == 1 ? "s" : "");
    size_t shown = 0;
    for (size_t i = 0; i < nt; i++) {
        if (j->test_outcome[i] != LT_TEST_FAILED &&
            j->test_outcome[i] != LT_TEST_MEMORY)
            continue;
        if (deselect)
            b->failing[i] = 1;
        if (shown++ >= 50)
            continue;
        const char *why = j->fail_texts && j->fail_texts[i]
                              ? j->fail_texts[i] : "";
        fprintf(stderr, "  %s: %s%s\n", pool->test_ids[i], why,
                sandbox_hint(why));
    }
    if (shown > 50)
        fprintf(stderr, "  ... and %zu more\n", shown - 50);
    if (deselect)
        return 0;
    if (pool->cfg.runner == LT_TEST_RUNNER_PYTEST)
        fprintf(stderr, "litmus: compare with `python -m pytest`; tests that "
                        "need what the sandbox refuses can be left out with "
                        "--deselect-failing (or -- --deselect ID)\n");
    else
        fprintf(stderr, "litmus: compare with `python -m %s`; tests that "
                        "need what the sandbox refuses can be left out with "
                        "--deselect-failing\n",
                pool->cfg.runner == LT_TEST_RUNNER_UNITTEST ? "unittest"
                                                            : "doctest");
    return -1;
}

/* A baseline run as a task of the executor: every collected test, no
 * mutation, with line coverage.  Its job is kept whole until every run
 * has ended, then taken in in order. */
struct baseline_task {
    struct lt_task xt;
    struct early_jobs *early; /* the first run's child is watched */
    const struct lt_score_opts *o;
    size_t n_files;
    struct job job;          /* the finished run, taken from the executor */
    int ended;
};

static int baseline_prepare(struct lt_exec *ex, struct lt_task *xt,
                            struct lt_launch *la)
{
    struct baseline_task *bt = xt->owner;
    size_t nt = xt->lane->pool.n_tests;
    (void)ex;
    lt__job_alloc(&la->spec, nt, 1);
    la->spec.is_baseline = 1;
    la->spec.n_tests = nt;
    la->spec.n_files = bt->n_files;
    la->spec.tests = xcalloc(nt + 1, sizeof(uint32_t));
    for (size_t i = 0; i < nt; i++)
        la->spec.tests[i] = (uint32_t)i;
    la->spec.fail_texts = xcalloc(nt + 1, sizeof(char *));
    la->req = (struct lt_run_request){
        .mode = LT_RUN_BASELINE, .replacement = "",
        .cpu_seconds = lt__cpu_limit_for(bt->o->baseline_timeout),
        .memory_bytes = (uint64_t)bt->o->memory_mb << 20,
        /* Process mode, so that tests that start processes or serve on
         * localhost pass as under pytest, and say so (NEEDS). */
        .flags = LT_RUN_PROCESSES};
    la->wall = bt->o->baseline_timeout;
    return 0;
}

static void baseline_finished(struct lt_exec *ex, struct lt_task *xt,
                              struct job *j)
{
    struct baseline_task *bt = xt->owner;
    (void)ex;
    /* The executor resets j after this: the run moves here. */
    lt__job_move(&bt->job, j);
    bt->ended = 1;
}

static void baseline_lost(struct lt_exec *ex, struct lt_task *xt,
                          const char *why)
{
    (void)xt;
    lt_error("the baseline run did not complete: %s", why);
    lt_exec_fail(ex, LT_EXIT_ENGINE);
}

/* Half a second into the first run's tests, their CPU share of the wall
 * time says whether the mutants will want more children. */
static void baseline_watch(struct lt_exec *ex, struct lt_task *xt,
                           struct job *j, double now)
{
    struct baseline_task *bt = xt->owner;
    struct early_jobs *e = bt->early;
    if (!e || !e->on || e->want || !j->sandboxed || j->pid <= 0)
        return;
    double cpu = lt__job_cpu_ns(j);
    if (cpu < 0)
        return;
    if (e->t0 == 0) {
        e->t0 = now;
        e->cpu0 = cpu;
        return;
    }
    if (now - e->t0 < 0.5)
        return;
    int want = children_for_share((cpu - e->cpu0) / 1e6,
                                  (now - e->t0) * 1e3, online_cores(),
                                  zygote_peak_kb(&xt->lane->pool));
    if (want > e->cap)
        want = e->cap;
    e->want = want > ex->jobs ? want : -1;
}

static const struct lt_task_ops baseline_ops = {
    .prepare = baseline_prepare, .finished = baseline_finished,
    .lost = baseline_lost, .watch = baseline_watch};

/* The executor's idle hook during the baseline: starts the zygotes the
 * early judgement asked for (outside the executor's rounds). */
static size_t baseline_idle(struct lt_exec *ex)
{
    struct early_jobs *e = ex->owner;
    if (e && e->want > ex->jobs && !e->applied) {
        e->applied = 1;
        struct lt_lane *l = ex->lanes[0];
        lt_exec_set_jobs(ex, e->want);
        lt_exec_warm(ex, l, e->want);
        lt_debug("the baseline's tests mostly wait: %d children", e->want);
    }
    return 0;
}

/* Takes in one finished baseline run (run 0 decides which tests are
 * runnable; later ones find the flaky).  0, or an exit code after
 * printing why. */
static int baseline_finish(struct pool *pool, struct job *j,
                           const struct lt_score_opts *o, int run,
                           struct baseline *b)
{
    size_t nt = pool->n_tests;
    if (j->timed_out) {
        lt_error("the baseline did not finish within %.0f s (test %s); "
                 "raise --baseline-timeout",
                 o->baseline_timeout,
                 j->current >= 0 ? pool->test_ids[j->current] : "?");
        return LT_EXIT_USAGE;
    }
    if (j->fail_test >= 0 && run == 0 &&
        report_failing(pool, j, o->deselect_failing, b) < 0) {
        lt__job_reset(j);
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
                 j->current >= 0 ? pool->test_ids[j->current] : "",
                 *tail ? "; output: " : "", tail);
        return j->sandboxed ? 2 : 3;
    }
    pool->features = j->sandbox & ~(unsigned)LT_SBX_PROCESSES;
    if (run == 0 && !(j->sandbox & LT_SBX_PROCESSES))
        lt_warn("the tests cannot start processes or use loopback sockets "
                "in this run: process mode needs user, pid, mount and "
                "network namespaces and the sandbox's own uid (see "
                "docs/threat-model.md); such tests fail");
    for (size_t i = 0; i < nt; i++) {
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
    lt__job_reset(j);
    return 0;
}

static int run_baseline(struct lt_exec *ex, struct lt_lane *lane,
                        const struct lt_plan *plan,
                        const struct lt_score_opts *o, struct baseline *b,
                        struct early_jobs *early)
{
    struct pool *pool = &lane->pool;
    size_t nt = pool->n_tests;
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
    for (size_t k = 0; k < pool->n_import; k++) {
        uint32_t f = pool->import_pairs[2 * k];
        uint32_t line = pool->import_pairs[2 * k + 1];
        if (f < b->n_files && line <= b->n_lines[f])
            b->at_import[f][line] = 1;
    }
    /* The runs go side by side on as many zygotes as there are (a slow
     * test is paid once on the critical path, not once per run), and are
     * taken in in order. */
    int runs = o->baseline_runs;
    struct baseline_task *bt = xcalloc((size_t)runs + 1, sizeof(*bt));
    for (int k = 0; k < runs; k++) {
        bt[k].xt = (struct lt_task){.ops = &baseline_ops, .lane = lane,
                                    .owner = &bt[k]};
        bt[k].o = o;
        bt[k].early = k == 0 ? early : NULL;
        bt[k].n_files = plan->n_files;
        bt[k].job.result_fd = bt[k].job.out_fd = bt[k].job.pidfd = -1;
        lt_exec_submit(ex, &bt[k].xt);
    }
    ex->owner = early;
    ex->idle = baseline_idle;
    int rc = lt_exec_run(ex);
    ex->idle = NULL;
    ex->owner = NULL;
    for (int k = 0; k < runs; k++) {
        if (rc == 0 && !bt[k].ended)
            rc = LT_EXIT_ENGINE;
        if (rc == 0)
            rc = baseline_finish(pool, &bt[k].job, o, k, b);
        lt__job_reset(&bt[k].job);
    }
    free(bt);
    if (rc)
        return rc;
    b->file_reach = xcalloc(plan->n_files + 1, sizeof(unsigned char *));
    for (size_t f = 0; f < plan->n_files; f++) {
        b->file_reach[f] = xcalloc(nt + 1, 1);
        for (size_t l = 0; l <= b->n_lines[f]; l++)
            for (size_t k = 0; k < b->by_line[f][l].n; k++)
                b->file_reach[f][b->by_line[f][l].tests[k]] = 1;
    }
    size_t usable = 0;
    for (size_t i = 0; i < nt; i++) {
        usable += b->runnable[i];
        if (b->flaky[i])
            lt_warn("test %s is flaky (its outcome changed between "
                    "baseline runs); it is left out of selection",
                    pool->test_ids[i]);
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

/* 1 when a line of the mutant ran while the tests were imported and
 * collected: every test depends on it, and swapping code after the
 * import would miss what it did then, so it runs on a fresh import. */
static int runs_at_import(const struct baseline *b, const struct lt_mutant *m,
                          size_t file)
{
    for (int l = m->line; b->at_import && l <= m->end_line; l++)
        if (l >= 0 && (size_t)l <= b->n_lines[file] && b->at_import[file][l])
            return 1;
    return 0;
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
static size_t add_process_tests(const struct pool *pool,
                                const struct baseline *b, uint32_t **out,
                                size_t n)
{
    size_t nt = pool->n_tests, extra = 0;
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
static size_t select_tests(const struct pool *pool, const struct baseline *b,
                           const struct lt_mutant *m, size_t file,
                           int structural, uint32_t **out)
{
    struct file_cover fc = {b, file};
    struct lt__selection sel = {pool->n_tests, b->runnable, b->work,
                                line_cover, &fc};
    int wide = structural || runs_at_import(b, m, file);
    size_t n = lt__select_tests(&sel, m->line, m->end_line, wide, out);
    if (wide && b->file_reach)
        file_tests_first(*out, n, b->file_reach[file]);
    return wide ? n : add_process_tests(pool, b, out, n);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Order of a timeout re-check: every other selected test in collection
 * order, then the test that timed out.  A failing test then wins over a
 * looping one whatever order the first run met them in, and the timeout
 * itself is confirmed alone. */
static void recheck_order(uint32_t *tests, size_t n, int timed_out)
{
    size_t k = 0;
    int found = 0;
    for (size_t i = 0; i < n; i++) {
        if ((int)tests[i] == timed_out)
            found = 1;
        else
            tests[k++] = tests[i];
    }
    qsort(tests, k, sizeof(uint32_t), cmp_u32);
    if (found)
        tests[k++] = (uint32_t)timed_out;
}

/* Encodes a baseline's coverage of one test for the store:
 * "FILE:1-4,9\n" per subject file it touched. */
static char *coverage_text(const struct baseline *b, const struct lt_plan *plan,
                           uint32_t test)
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

/* Per mutant, what planning decided before anything runs. */
struct mplan {
    struct lt_change_analysis a;
    long dup_of;      /* representative with the same code, or -1 */
};

/*** Shards ***/

struct unit {
    const char *id;
    size_t mutant;
    int runs; /* 1: goes to a runner; 0: decided without a run */
};

static int cmp_unit(const void *a, const void *b)
{
    const struct unit *x = a, *y = b;
    if (x->runs != y->runs)
        return x->runs ? -1 : 1;
    return strcmp(x->id, y->id);
}

/* Which mutants shard index/count owns (owned[i] = 1), from the plan
 * alone, so that every shard computes the same partition with no
 * coordination.  The unit of work is a representative mutant with its
 * duplicates (they share its run and verdict, so they must share its
 * shard).  The units that run go round-robin in the order of their ids,
 * then those decided without a run (equivalent, invalid) continue the
 * round: ids are hashes, so this is a fixed pseudo-random deal whose
 * shards differ by at most one run.  Per-mutant costs (the covering
 * tests) are only known after the baseline, which every shard runs for
 * itself, so the deal balances counts, not seconds (docs/scale.md).
 * Returns the number of mutants owned. */
static size_t shard_owned(const struct lt_plan *plan, const struct mplan *mp,
                          unsigned index, unsigned count,
                          unsigned char *owned)
{
    size_t nm = plan->mutants.count, nu = 0, n_owned = 0;
    struct unit *u = xcalloc(nm + 1, sizeof(*u));
    for (size_t i = 0; i < nm; i++)
        if (mp[i].dup_of < 0)
            u[nu++] = (struct unit){plan->mutants.items[i].id, i,
                                    mp[i].a.status == LT_CHANGE_OK};
    qsort(u, nu, sizeof(*u), cmp_unit);
    for (size_t k = 0; k < nu; k++)
        owned[u[k].mutant] = count == 0 || k % count == index;
    for (size_t i = 0; i < nm; i++) {
        if (mp[i].dup_of >= 0)
            owned[i] = owned[mp[i].dup_of];
        n_owned += owned[i];
    }
    free(u);
    return n_owned;
}

/* CPU seconds of this run so far: the engine, the processes it reaped,
 * and each live zygote with the children it reaped (the mutants' runs),
 * read from /proc because the zygotes are reaped only at the end. */
static double run_cpu_seconds(const struct pool *pool)
{
    struct rusage ru;
    double s = 0;
    if (getrusage(RUSAGE_SELF, &ru) == 0)
        s += ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
             ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
    if (getrusage(RUSAGE_CHILDREN, &ru) == 0)
        s += ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
             ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
    long hz = sysconf(_SC_CLK_TCK);
    for (int i = 0; hz > 0 && i < pool->n; i++) {
        if (pool->z[i].pid <= 0)
            continue;
        char path[64], buf[1024];
        snprintf(path, sizeof(path), "/proc/%d/stat", (int)pool->z[i].pid);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        size_t n = fread(buf, 1, sizeof(buf) - 1, f);
        fclose(f);
        buf[n] = '\0';
        /* Fields 14-17 (utime stime cutime cstime) follow the command
         * name, which may hold spaces: count from its closing paren. */
        char *p = strrchr(buf, ')');
        unsigned long long t[4] = {0};
        if (p && sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u "
                               "%*u %llu %llu %llu %llu",
                        &t[0], &t[1], &t[2], &t[3]) == 4)
            s += (double)(t[0] + t[1] + t[2] + t[3]) / (double)hz;
    }
    return s;
}

/*** Incremental runs ***/

/* A verdict of the earlier run, found again by its reuse key. */
struct old_verdict {
    char key[65];
    char sig[65];
    struct lt_result r;
};

struct old_set {
    struct old_verdict *v;
    size_t n, cap;
};

static int collect_old(const char *id, const char *key, const char *tests,
                       const struct lt_result *r, void *ud)
{
    struct old_set *os = ud;
    (void)id;
    if (strlen(key) != 64 || strlen(tests) != 64)
        return 0;
    if (os->n == os->cap) {
        os->cap = os->cap ? os->cap * 2 : 64;
        os->v = xrealloc(os->v, os->cap * sizeof(*os->v));
    }
    struct old_verdict *o = &os->v[os->n++];
    memcpy(o->key, key, 65);
    memcpy(o->sig, tests, 65);
    o->r = *r;
    o->r.killed_by = r->killed_by ? xstrdup(r->killed_by) : NULL;
    o->r.detail = r->detail ? xstrdup(r->detail) : NULL;
    o->r.output = r->output ? xstrdup(r->output) : NULL;
    return 0;
}

static int cmp_old(const void *a, const void *b)
{
    return strcmp(((const struct old_verdict *)a)->key,
                  ((const struct old_verdict *)b)->key);
}

static void old_set_free(struct old_set *os)
{
    for (size_t i = 0; i < os->n; i++)
        lt_result_clear(&os->v[i].r);
    free(os->v);
    memset(os, 0, sizeof(*os));
}

/* The reuse key of every mutant of the plan (64 hex chars each, in one
 * array the caller frees): the occurrence number tells apart mutants
 * that agree on everything else (the same line twice in a file), counted
 * in source order. */
static char (*sort_keys)[65]; /* qsort has no context argument */

static int cmp_key_index(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    int c = strcmp(sort_keys[x], sort_keys[y]);
    return c ? c : (x > y) - (x < y);
}

static char (*plan_keys(const struct lt_plan *plan, const char *cwd))[65]
{
    size_t nm = plan->mutants.count;
    char (*k0)[65] = xcalloc(nm + 1, sizeof(*k0));
    char (*keys)[65] = xcalloc(nm + 1, sizeof(*keys));
    size_t *order = xcalloc(nm + 1, sizeof(size_t));
    size_t cl = cwd ? strlen(cwd) : 0;
    for (size_t pass = 0; pass < 2; pass++) {
        for (size_t n = 0; n < nm; n++) {
            size_t i = pass ? order[n] : n;
            const struct lt_mutant *m = &plan->mutants.items[i];
            const struct lt_plan_file *f =
                &plan->files[plan->mutant_file[i]];
            const char *rel = f->path;
            if (cl && strncmp(rel, cwd, cl) == 0 && rel[cl] == '/')
                rel += cl + 1;
            if (!pass) {
                lt__reuse_key(m, rel, f->source, f->len, 0, k0[i]);
                order[n] = n;
                continue;
            }
            /* order[] groups equal first keys, in source order. */
            unsigned occ = 0;
            for (size_t k = n; k-- > 0 && strcmp(k0[order[k]], k0[i]) == 0;)
                occ++;
            lt__reuse_key(m, rel, f->source, f->len, occ, keys[i]);
        }
        if (!pass) {
            sort_keys = k0;
            qsort(order, nm, sizeof(size_t), cmp_key_index);
            sort_keys = NULL;
        }
    }
    free(order);
    free(k0);
    return keys;
}

/* The hash of a test's file, cached in *cache by the part of the test id
 * that names the file; "-" when it cannot be read.  A pytest node id
 * names it up to "::", relative to the working directory.  A unittest or
 * doctest name (module.Class.test_method, module.function, file.txt) has
 * no "::": its file is the longest dotted prefix that is a module, from
 * the working directory or from a directory among the test arguments
 * (unittest's start directories), else the name itself.  The hash is
 * returned from a heap string of its own, which stays valid while the
 * cache grows (the caller keeps a mutant's hashes side by side). */
struct file_hash {
    char *path;  /* the cache key: the id's file part */
    char *sha;
};

static char *dotted_test_file(const struct lt_score_opts *o, const char *key)
{
    size_t nb = o->n_tests + o->n_pytest_args;
    for (size_t len = strlen(key); len > 0; len--) {
        if (len < strlen(key) && key[len] != '.')
            continue;
        char *mod = xstrndup(key, len);
        for (char *p = mod; *p; p++)
            if (*p == '.')
                *p = '/';
        for (size_t b = 0; b <= nb; b++) {
            const char *base = b == 0 ? "."
                               : b <= o->n_tests ? o->tests[b - 1]
                                                 : o->pytest_args[b - 1 -
                                                                  o->n_tests];
            struct stat sb;
            if (b > 0 && (stat(base, &sb) < 0 || !S_ISDIR(sb.st_mode)))
                continue;
            for (int init = 0; init < 2; init++) {
                char *path = xasprintf("%s/%s%s", base, mod,
                                       init ? "/__init__.py" : ".py");
                if (access(path, R_OK) == 0) {
                    free(mod);
                    return path;
                }
                free(path);
            }
        }
        free(mod);
    }
    return xstrdup(key);
}

static const char *test_file_sha(const struct lt_score_opts *o,
                                 const char *nodeid, struct file_hash **cache,
                                 size_t *n)
{
    size_t len = strcspn(nodeid, ":");
    /* A dotted name of three parts or more (module.Class.test) shares its
     * file with the names of its class: the key drops the last part. */
    int dotted = nodeid[len] == '\0' && !strchr(nodeid, '/');
    const char *last = dotted ? strrchr(nodeid, '.') : NULL;
    if (last && memchr(nodeid, '.', (size_t)(last - nodeid)))
        len = (size_t)(last - nodeid);
    for (size_t i = 0; i < *n; i++)
        if (strlen((*cache)[i].path) == len &&
            strncmp((*cache)[i].path, nodeid, len) == 0)
            return (*cache)[i].sha;
    *cache = xrealloc(*cache, (*n + 1) * sizeof(**cache));
    struct file_hash *h = &(*cache)[(*n)++];
    h->path = xstrndup(nodeid, len);
    char *file = dotted ? dotted_test_file(o, h->path) : xstrdup(h->path);
    char *src = NULL;
    size_t sl = 0;
    h->sha = xcalloc(65, 1);
    if (lt_read_file(file, &src, &sl) == 0)
        lt_sha256_hex(src, sl, h->sha);
    else
        strcpy(h->sha, "-");
    free(src);
    free(file);
    return h->sha;
}

static int put_verdict(struct lt_store *st, const struct lt_mutant *m,
                       enum lt_verdict v, const char *detail)
{
    struct lt_result res;
    memset(&res, 0, sizeof(res));
    memcpy(res.mutant_id, m->id, 17);
    res.verdict = v;
    res.detail = detail ? xstrdup(detail) : NULL;
    int rc = lt_store_put_result(st, &res);
    lt_result_clear(&res);
    return rc;
}

/*** Running the mutants ***/

/* A mutant's expected cost: its selected tests' baseline wall time. */
struct by_cost {
    double ms;
    size_t pos;      /* position in the plan's order: ties keep it */
    size_t mutant;
};

static int cmp_by_cost(const void *a, const void *b)
{
    const struct by_cost *x = a, *y = b;
    if (x->ms != y->ms)
        return x->ms > y->ms ? -1 : 1;
    return (x->pos > y->pos) - (x->pos < y->pos);
}

/* What the mutants' callbacks share. */
struct mrun {
    const struct lt_score_opts *o;
    const struct lt_plan *plan;
    const struct mplan *mp;
    const struct baseline *base;
    struct lt_store *st;
    struct lt_telemetry *tm;
    struct progress prog;
    unsigned char *rechecked;  /* per mutant: its timeout is confirmed */
    int *timed_out_test;       /* per mutant: the test that timed out */
    size_t n_rechecks;         /* wall-clock timeouts run again alone */
    size_t n_rests;            /* CPU timeouts whose other tests ran */
    size_t finished;           /* runs that ended */
    int fresh_off;             /* LITMUS_FRESH=0 (bench aid) */
    FILE *run_log;             /* LITMUS_RUN_LOG (test aid) */
};

/* One run of a mutant: its first, or the confirmation of a timeout,
 * which runs alone (exclusive) so that machine load cannot fake it. */
struct mtask {
    struct lt_task xt;
    struct mrun *mr;
    size_t mi;
    /* The rest of a run stopped for CPU time: the selected tests it never
     * reached, in collection order, and its result, which stands unless
     * one of them fails. */
    uint32_t *rest;
    size_t n_rest;
    struct lt_result stopped;
};

static int mutant_prepare(struct lt_exec *ex, struct lt_task *xt,
                          struct lt_launch *la)
{
    struct mtask *t = xt->owner;
    struct mrun *mr = t->mr;
    const struct lt_score_opts *o = mr->o;
    const struct baseline *base = mr->base;
    const struct pool *pool = &xt->lane->pool;
    size_t mi = t->mi;
    const struct lt_mutant *m = &mr->plan->mutants.items[mi];
    struct job *spec = &la->spec;
    (void)ex;
    spec->mutant = mi;
    spec->recheck = xt->exclusive;
    if (t->rest) {
        spec->tests = xmalloc((t->n_rest + 1) * sizeof(uint32_t));
        memcpy(spec->tests, t->rest, t->n_rest * sizeof(uint32_t));
        spec->n_tests = t->n_rest;
    } else {
        spec->n_tests = select_tests(pool, base, m,
                                     mr->plan->mutant_file[mi],
                                     mr->mp[mi].a.structural, &spec->tests);
    }
    if (xt->exclusive)
        recheck_order(spec->tests, spec->n_tests, mr->timed_out_test[mi]);
    double wall_ms = 0, cpu_ms = 0;
    for (size_t k = 0; k < spec->n_tests; k++) {
        wall_ms += base->wall_ms[spec->tests[k]];
        cpu_ms += base->cpu_ms[spec->tests[k]];
    }
    /* The budget is CPU time, which machine load does not stretch; wall
     * time is a looser backstop for sleepers. */
    double cpu_budget = o->timeout_factor * cpu_ms / 1000.0 +
                        o->timeout_const;
    double wall_budget = 3.0 * (o->timeout_factor * wall_ms / 1000.0 +
                                o->timeout_const);
    spec->cpu_budget_ns = cpu_budget * 1e9;
    /* A fresh run imports and collects again before its tests: its wall
     * deadline allows for that, then restarts at SANDBOXED (its CPU
     * budget counts from there anyway). */
    int fresh = mr->mp[mi].a.structural ||
                runs_at_import(base, m, mr->plan->mutant_file[mi]);
    la->wall = wall_budget;
    if (fresh) {
        spec->sandbox_wall_s = wall_budget;
        la->wall += 3.0 * (o->timeout_factor * pool->import_s +
                           o->timeout_const);
    }
    /* Each test also has a budget of its own, from its own baseline
     * time: a looping test is stopped after about factor x its time +
     * the constant, not after the budget of all the tests selected with
     * it. */
    size_t nt = pool->n_tests;
    lt__job_alloc(spec, nt, 0);
    spec->test_budget_ns = xcalloc(nt + 1, sizeof(double));
    for (size_t k = 0; k < spec->n_tests; k++)
        spec->test_budget_ns[spec->tests[k]] =
            (o->timeout_factor * base->cpu_ms[spec->tests[k]] / 1000.0 +
             o->timeout_const) * 1e9;
    uint32_t flags = fresh && !mr->fresh_off ? LT_RUN_FRESH : 0;
    for (size_t k = 0; k < spec->n_tests; k++)
        if (base->needs[spec->tests[k]])
            flags |= LT_RUN_PROCESSES;
    la->req = (struct lt_run_request){
        .mode = LT_RUN_MUTANT,
        .subject = (uint32_t)mr->plan->mutant_file[mi],
        .start = m->start, .end = m->end, .replacement = m->replacement,
        .stop_first = !o->full_matrix,
        .cpu_seconds = lt__cpu_limit_for(cpu_budget),
        .memory_bytes = (uint64_t)o->memory_mb << 20,
        .flags = flags,
        .swap = fresh ? NULL : mr->mp[mi].a.swap,
        .swap_len = fresh ? 0 : mr->mp[mi].a.swap_len};
    return 0;
}

static void count_verdict(struct mrun *mr, enum lt_verdict v)
{
    if (v == LT_VERDICT_SURVIVED)
        mr->prog.survived++;
    else if (lt_verdict_is_detected(v))
        mr->prog.killed++;
    else
        mr->prog.other++;
    mr->prog.done++;
}

/* Stores a mutant's result, and the same for its duplicates. */
static void put_result(struct lt_exec *ex, struct mrun *mr, size_t mi,
                       struct lt_result *res, const struct job *j)
{
    size_t nm = mr->plan->mutants.count;
    if (lt_exec_write(ex) < 0)
        return;
    int rc = lt_store_put_result(mr->st, res);
    if (rc == 0 && mr->tm && j)
        rc = lt_store_put_telemetry(mr->st, res->mutant_id, &j->tm);
    lt_exec_wrote(ex, rc);
    /* Duplicates share the representative's verdict. */
    for (size_t k = mi + 1; k < nm && rc == 0; k++) {
        if (mr->mp[k].dup_of != (long)mi)
            continue;
        struct lt_result dup = *res;
        memcpy(dup.mutant_id, mr->plan->mutants.items[k].id, 17);
        char *d = xasprintf("same code as mutant %s%s%s",
                            mr->plan->mutants.items[mi].id,
                            res->detail ? "; " : "",
                            res->detail ? res->detail : "");
        dup.detail = d;
        rc = lt_store_put_result(mr->st, &dup);
        lt_exec_wrote(ex, rc);
        free(d);
    }
    count_verdict(mr, res->verdict);
}

static void mutant_finished(struct lt_exec *ex, struct lt_task *xt,
                            struct job *j)
{
    struct mtask *t = xt->owner;
    struct mrun *mr = t->mr;
    size_t mi = t->mi;
    struct lt_result res;
    memset(&res, 0, sizeof(res));
    memcpy(res.mutant_id, mr->plan->mutants.items[mi].id, 17);
    decide(&xt->lane->pool, j, &res);
    mr->finished++;
    if (t->rest) {
        /* The rest of a run stopped for CPU time: a failing test wins
         * over the looping one, else the timeout stands. */
        free(t->rest);
        t->rest = NULL;
        if (res.verdict == LT_VERDICT_SURVIVED) {
            lt_result_clear(&res);
            res = t->stopped;
            memset(&t->stopped, 0, sizeof(t->stopped));
        }
        lt_result_clear(&t->stopped);
        put_result(ex, mr, mi, &res, j);
        lt_result_clear(&res);
        return;
    }
    /* A timeout must not depend on the order the tests ran in: a mutant
     * that a selected test kills is killed, whichever test looped first.
     * A child stopped for CPU time (of one test, or of the run) used more
     * than its budget of CPU, which machine load does not stretch: the
     * selected tests it never reached run now, in collection order, and
     * the timeout stands unless one fails.  A child stopped at the
     * wall-clock limit may only have waited for a CPU: it runs again
     * alone, after every other mutant, every other test first. */
    int by_cpu = j->cpu_over || j->test_over_ns > 0 ||
                 (WIFSIGNALED(j->wait_status) &&
                  WTERMSIG(j->wait_status) == SIGXCPU);
    if (res.verdict == LT_VERDICT_TIMEOUT && by_cpu && !xt->exclusive &&
        !mr->rechecked[mi]) {
        mr->rechecked[mi] = 1;
        t->rest = xmalloc((j->n_tests + 1) * sizeof(uint32_t));
        t->n_rest = 0;
        for (size_t k = 0; k < j->n_tests; k++) {
            uint32_t ti = j->tests[k];
            if ((int)ti != j->current && !(j->seen && j->seen[ti]))
                t->rest[t->n_rest++] = ti;
        }
        if (t->n_rest > 0) {
            qsort(t->rest, t->n_rest, sizeof(uint32_t), cmp_u32);
            t->stopped = res;
            mr->n_rests++;
            xt->retried = 0;
            lt_exec_submit(ex, xt);
            return;
        }
        free(t->rest);
        t->rest = NULL;
    }
    if (res.verdict == LT_VERDICT_TIMEOUT && !by_cpu && !xt->exclusive &&
        !mr->rechecked[mi]) {
        mr->rechecked[mi] = 1;
        mr->timed_out_test[mi] = j->current;
        mr->n_rechecks++;
        xt->exclusive = 1;
        xt->retried = 0;
        lt_exec_submit(ex, xt);
        lt_result_clear(&res);
        return;
    }
    put_result(ex, mr, mi, &res, j);
    lt_result_clear(&res);
}

static void mutant_lost(struct lt_exec *ex, struct lt_task *xt,
                        const char *why)
{
    struct mtask *t = xt->owner;
    struct mrun *mr = t->mr;
    struct lt_result res;
    memset(&res, 0, sizeof(res));
    memcpy(res.mutant_id, mr->plan->mutants.items[t->mi].id, 17);
    res.verdict = LT_VERDICT_ERROR;
    res.detail = xstrdup(why);
    free(t->rest);
    t->rest = NULL;
    lt_result_clear(&t->stopped);
    mr->finished++;
    put_result(ex, mr, t->mi, &res, NULL);
    lt_result_clear(&res);
}

static const struct lt_task_ops mutant_ops = {
    .prepare = mutant_prepare, .finished = mutant_finished,
    .lost = mutant_lost};

static void mutants_progress(struct lt_exec *ex, int force)
{
    struct mrun *mr = ex->owner;
    if (!mr)
        return;
    progress_show(&mr->prog, force);
}

/* A zygote that cannot start or collect: before the first is ready, the
 * run cannot go on; later, the run goes on with the zygotes it has. */
static void score_start_failed(struct lt_exec *ex, struct lt_lane *l, int rc,
                               const char *msg)
{
    if (l->ready_once && l->live > 0 && !lt__interrupted) {
        lt_debug("a runner did not start: %s; going on with %d", msg,
                 l->live);
        lt_exec_set_jobs(ex, l->live);
        return;
    }
    lt_error("%s", msg);
    lt_exec_fail(ex, rc == LT_ENOTESTS ? LT_EXIT_USAGE
                     : lt__interrupted ? LT_EXIT_INTERRUPTED
                                       : LT_EXIT_ENGINE);
}

/* Test aid (LITMUS_RUN_LOG): which mutants this process started. */
static void score_started(struct lt_exec *ex, struct lt_lane *l,
                          struct lt_task *xt)
{
    struct mrun *mr = ex->owner;
    (void)l;
    if (!xt || xt->ops != &mutant_ops || !mr || !mr->run_log)
        return;
    struct mtask *t = xt->owner;
    fprintf(mr->run_log, "%s%s\n", mr->plan->mutants.items[t->mi].id,
            xt->exclusive ? " recheck" : t->rest ? " rest" : "");
    fflush(mr->run_log);
}

static const struct lt_lane_ops score_lane_ops = {
    .start_failed = score_start_failed, .started = score_started};

/* Contract: see engine.h. */
int lt_score(const struct lt_score_opts *o)
{
    int exit_code = LT_EXIT_ENGINE;
    int db_existed = 1;
    struct lt_plan plan = {0};
    struct lt_store *st = NULL;
    struct lt_exec ex;
    struct lt_lane *lane = NULL;
    struct pool *pool = NULL;
    struct mrun mr;
    struct mtask *mt = NULL;
    struct baseline base = {0};
    struct lt_pyenv pyenv = {0};
    struct mplan *mp = NULL;
    char *scratch = NULL;
    char *cwd = NULL;
    char **args = NULL;
    struct lt_subject *subjects = NULL;
    size_t *queue = NULL;
    char *errmsg = NULL;
    unsigned char *owned = NULL;
    int in_tx = 0;
    struct lt_telemetry *tm = NULL;
    struct lt_lines *since = NULL;
    struct old_set old = {0};
    int incremental = 0;
    char (*rkeys)[65] = NULL;

    memset(&mr, 0, sizeof(mr));
    lt_exec_init(&ex, o->jobs > 0 ? o->jobs : online_cores());

    double t_start = lt__now();
    int rc = plan_files(o, &plan);
    if (rc < 0) {
        exit_code = LT_EXIT_USAGE;
        goto out;
    }
    if (o->since) {
        /* git runs here, in the engine, before any runner exists. */
        char **paths = xcalloc(plan.n_files + 1, sizeof(char *));
        for (size_t i = 0; i < plan.n_files; i++)
            paths[i] = plan.files[i].path;
        rc = lt__since_lines(o->since, paths, plan.n_files, &since);
        free(paths);
        if (rc < 0) {
            exit_code = LT_EXIT_USAGE;
            goto out;
        }
    }

    cwd = getcwd(NULL, 0);
    {
        char **paths = xcalloc(plan.n_files + 1, sizeof(char *));
        for (size_t i = 0; i < plan.n_files; i++)
            paths[i] = plan.files[i].path;
        char *perr = NULL;
        rc = lt_pyenv_resolve(o->python, cwd ? cwd : ".", paths,
                              plan.n_files,
                              o->runner == LT_TEST_RUNNER_PYTEST, &pyenv,
                              &perr);
        free(paths);
        if (rc < 0) {
            lt_error("%s", perr ? perr : lt_strerror(rc));
            free(perr);
            exit_code = LT_EXIT_USAGE;
            goto out;
        }
    }
    scratch = lt_sandbox_scratch_new(NULL);
    if (!scratch) {
        lt_error("cannot create a scratch directory: %s", strerror(errno));
        goto out;
    }

    size_t nargs = o->n_tests + o->n_pytest_args;
    args = xcalloc(nargs + 1, sizeof(char *));
    for (size_t i = 0; i < o->n_tests; i++)
        args[i] = o->tests[i];
    for (size_t i = 0; i < o->n_pytest_args; i++)
        args[o->n_tests + i] = o->pytest_args[i];
    subjects = xcalloc(plan.n_files, sizeof(*subjects));
    for (size_t i = 0; i < plan.n_files; i++)
        subjects[i] = (struct lt_subject){plan.files[i].path,
                                          plan.files[i].source,
                                          plan.files[i].len};
    struct lt_runner_config cfg = {
        .exe = lt__engine_exe(), .cwd = cwd, .scratch_base = scratch,
        .pytest_args = args, .n_pytest_args = nargs,
        .subjects = subjects, .n_subjects = plan.n_files,
        .debug = o->debug, .python = pyenv.python,
        .path_prefix = pyenv.path_prefix, .no_view = o->no_fs_view,
        .allow_read = o->allow_read, .n_allow_read = o->n_allow_read,
        .pass_env = o->pass_env, .n_pass_env = o->n_pass_env,
        .sandbox_uid = o->sandbox_uid, .scratch_mb = o->scratch_mb,
        .runner = o->runner};

    /* Before the first zygote: it must be watched before it forks. */
    if (o->telemetry) {
        const char *why = NULL;
        if (lt_telemetry_open(&tm, &why) < 0)
            lt_warn("--telemetry: off for this run: %s", why);
    }
    lane = lt_exec_lane(&ex, &cfg, &score_lane_ops, NULL);
    pool = &lane->pool;
    pool->tm = tm;
    /* Start every zygote now, before the mutants are generated, analysed
     * and stored: they import and collect in parallel with that work,
     * which is the engine's alone.  Extra ones stop once the number of
     * mutants to run is known. */
    if (lt_exec_warm(&ex, lane, ex.jobs) < 0) {
        exit_code = LT_EXIT_ENGINE;
        goto out;
    }
    rc = plan_mutants(o, &plan, since);
    if (rc < 0) {
        exit_code = (rc == LT_EPYTHON) ? 3 : 2;
        goto out;
    }
    size_t nm = plan.mutants.count;

    /* Trivial compiler equivalence: compile every mutant once here, so
     * equivalent and invalid ones never run and duplicates run once. */
    mp = xcalloc(nm + 1, sizeof(*mp));
    /* The analysis also keeps, for mutants that only change functions,
     * the compiled code objects, so that no child compiles the module
     * again.  Bounded: past the budget children compile for themselves. */
    size_t swap_budget = SWAP_BUDGET;
    for (size_t f = 0, i = 0; f < plan.n_files; f++) {
        size_t first = i;
        while (i < nm && plan.mutant_file[i] == f)
            i++;
        size_t cnt = i - first;
        if (!cnt)
            continue;
        struct lt_change_analysis *an = xcalloc(cnt, sizeof(*an));
        long *dup = xcalloc(cnt, sizeof(*dup));
        rc = lt__mutants_analyse(plan.files[f].path, plan.files[f].source,
                                 plan.files[f].len,
                                 &plan.mutants.items[first], cnt,
                                 &swap_budget, an, dup);
        for (size_t k = 0; k < cnt; k++) {
            mp[first + k].a = an[k];
            mp[first + k].dup_of = dup[k] < 0 ? -1 : (long)first + dup[k];
        }
        free(an);
        free(dup);
        if (rc < 0) {
            lt_error("cannot compile the mutants of %s", plan.files[f].path);
            goto out;
        }
    }

    /* The mutants this process runs: all of them, or its shard's. */
    owned = xcalloc(nm + 1, 1);
    size_t n_owned = shard_owned(&plan, mp, o->shard_index, o->shard_count,
                                 owned);

    db_existed = access(o->db, F_OK) == 0;
    rc = lt_store_open(o->db, &st, &errmsg);
    if (rc < 0) {
        db_existed = 1; /* not ours to remove */
        lt_error("%s: %s", o->db, errmsg ? errmsg : lt_strerror(rc));
        exit_code = lt_exit_from_error(rc);
        goto out;
    }
    if (tm && (rc = lt_store_telemetry_init(st)) < 0) {
        exit_code = lt_exit_from_error(rc);
        goto out;
    }
    /* The settings that decide the mutant set and the verdicts.  Resuming
     * with other settings would mix two runs. */
    struct lt_buf fp = LT_BUF_INIT;
    lt_buf_printf(&fp, "operators=%s\n", o->operators);
    for (size_t i = 0; i < plan.n_files; i++)
        lt_buf_printf(&fp, "file=%s\n", plan.files[i].path);
    for (size_t i = 0; i < o->n_tests; i++)
        lt_buf_printf(&fp, "tests=%s\n", o->tests[i]);
    for (size_t i = 0; i < o->n_pytest_args; i++)
        lt_buf_printf(&fp, "arg=%s\n", o->pytest_args[i]);
    lt_buf_printf(&fp, "cwd=%s\nfull_matrix=%d\n", cwd ? cwd : "",
                  o->full_matrix);
    /* Another runner collects other tests; pytest's leaves the text as
     * before, so that older stores resume. */
    if (o->runner != LT_TEST_RUNNER_PYTEST)
        lt_buf_printf(&fp, "runner=%d\n", o->runner);
    lt_buf_printf(&fp, "python=%s\npath=%s\n", pyenv.python,
                  pyenv.path_prefix ? pyenv.path_prefix : "");
    /* Exclusions decide the mutant set; absent, the text is as before. */
    for (size_t i = 0; i < o->n_exclude; i++)
        lt_buf_printf(&fp, "exclude=%s\n", o->exclude[i]);
    for (size_t i = 0; i < o->n_exclude_ops; i++)
        lt_buf_printf(&fp, "exclude-operators=%s\n", o->exclude_ops[i]);
    char *stored = NULL;
    rc = lt_store_get_meta(st, "settings", &stored);
    if (rc == 0 && stored && strcmp(stored, fp.data) != 0) {
        lt_error("%s holds a run with other settings; use another --db or "
                 "delete it", o->db);
        free(stored);
        lt_buf_free(&fp);
        exit_code = LT_EXIT_USAGE;
        goto out;
    }
    /* A shard's store holds that shard's results only: resuming it as
     * another shard, or as the whole run, would leave holes or overlaps
     * that the merge could not tell from real ones. */
    char shard[48] = "";
    if (o->shard_count)
        snprintf(shard, sizeof(shard), "%u/%u", o->shard_index,
                 o->shard_count);
    if (stored) {
        char *stored_shard = NULL;
        rc = lt_store_get_meta(st, "shard", &stored_shard);
        const char *was = stored_shard ? stored_shard : "";
        if (rc == 0 && strcmp(was, shard) != 0) {
            lt_error("%s holds %s%s%s, not %s%s; use another --db",
                     o->db, *was ? "shard " : "the whole run", was,
                     *was ? " of this run" : "",
                     *shard ? "shard " : "the whole run", shard);
            free(stored_shard);
            free(stored);
            lt_buf_free(&fp);
            exit_code = LT_EXIT_USAGE;
            goto out;
        }
        free(stored_shard);
    }
    /* A finished earlier run of the same settings: its verdicts are
     * reused where mutant, tests and test files are unchanged, and the
     * rest of it is forgotten (docs/incremental.md).  An unfinished one
     * is resumed as it was.  Shards keep to resuming. */
    if (!o->shard_count) {
        char *complete = NULL;
        /* --explain-sandbox stops before the baseline: it must not drop
         * a finished run's results. */
        if (stored && !o->explain_sandbox &&
            lt_store_get_meta(st, "complete", &complete) == 0 &&
            complete && strcmp(complete, "1") == 0)
            incremental = 1;
        free(complete);
        rc = lt_store_reuse_init(st);
        if (rc == 0 && incremental)
            rc = lt_store_each_reuse(st, collect_old, &old);
        if (rc < 0) {
            free(stored);
            lt_buf_free(&fp);
            exit_code = lt__store_write_failed(st, o->db, rc);
            goto out;
        }
        /* A finished store without reuse keys (merged shards, or one
         * written before them) is resumed as before: dropping its
         * results would run everything again. */
        if (old.n)
            qsort(old.v, old.n, sizeof(*old.v), cmp_old);
        else
            incremental = 0;
    }
    free(stored);

    rc = lt_store_begin(st);
    in_tx = rc == 0;
    if (rc == 0)
        rc = lt_store_set_meta(st, "settings", fp.data);
    if (rc == 0 && *shard)
        rc = lt_store_set_meta(st, "shard", shard);
    /* Set again once every mutant of the run (or shard) has a result. */
    if (rc == 0)
        rc = lt_store_set_meta(st, "complete", "0");
    if (rc == 0 && incremental)
        rc = lt_store_clear_run(st);
    lt_buf_free(&fp);
    for (size_t i = 0; rc == 0 && i < plan.n_files; i++) {
        int changed = 0;
        rc = lt_store_put_file(st, plan.files[i].path, plan.files[i].sha,
                               plan.files[i].source, plan.files[i].len,
                               &changed);
    }
    for (size_t i = 0; rc == 0 && i < nm; i++)
        rc = lt_store_put_mutant(st, &plan.mutants.items[i]);
    if (rc == 0)
        rc = lt_store_commit(st);
    in_tx = 0;
    if (rc < 0) {
        exit_code = lt__store_write_failed(st, o->db, rc);
        goto out;
    }

    /* Mutants still to run; the ones with a stored result are done. */
    queue = xcalloc(nm + 1, sizeof(size_t));
    unsigned char *has_result = xcalloc(nm + 1, 1);
    size_t n_queue = 0, n_pending = 0;
    for (size_t i = 0; i < nm; i++) {
        int has = lt_store_has_result(st, plan.mutants.items[i].id);
        if (has < 0) {
            lt_error("%s: %s", o->db, lt_strerror(has));
            free(has_result);
            goto out;
        }
        /* Another shard's mutants count as done here. */
        has_result[i] = (unsigned char)(has || !owned[i]);
        if (has_result[i])
            continue;
        n_pending++;
        /* Runnable and not a duplicate: it goes to a runner. */
        if (mp[i].a.status == LT_CHANGE_OK && mp[i].dup_of < 0)
            queue[n_queue++] = i;
    }
    /* Verdicts that need no run: equivalent and invalid mutants. */
    rc = lt_store_begin(st);
    for (size_t i = 0; rc == 0 && i < nm; i++) {
        if (has_result[i] || mp[i].a.status == LT_CHANGE_OK)
            continue;
        const struct lt_mutant *m = &plan.mutants.items[i];
        if (mp[i].a.status == LT_CHANGE_EQUIVALENT)
            rc = put_verdict(st, m, LT_VERDICT_EQUIVALENT,
                             "compiles to the original code objects");
        else
            rc = put_verdict(st, m, LT_VERDICT_INVALID, mp[i].a.detail);
        has_result[i] = 1;
    }
    if (rc == 0)
        rc = lt_store_commit(st);
    if (rc < 0) {
        free(has_result);
        exit_code = lt__store_write_failed(st, o->db, rc);
        goto out;
    }

    /* The zygotes were started before the analysis; as many as there are
     * mutants to run are enough (one for the baseline when none is). */
    lt_exec_trim(&ex, lane, n_queue > 0 ? (int)n_queue : 1);
    if (lt_exec_wait_ready(&ex, lane) != 0) {
        free(has_result);
        exit_code = ex.fatal;
        goto out;
    }
    if (o->explain_sandbox) {
        /* What the tests see, as the first zygote built it. */
        printf("interpreter: %s (%s, Python %s)\n", pyenv.python, pyenv.how,
               pyenv.version);
        if (pyenv.path_prefix)
            printf("first on sys.path after the working directory: %s\n",
                   pyenv.path_prefix);
        if (pool->view)
            fputs(pool->view, stdout);
        /* The children's own steps, as this kernel would give them. */
        const char *rest = lt_sandbox_describe_missing(
            lt_sandbox_probe() | pool->features | LT_SBX_FSVIEW |
            LT_SBX_IDENTITY);
        printf("degraded: %s%s%s\n", *rest ? rest : "",
               *rest && pool->view_missing ? ", " : "",
               pool->view_missing ? pool->view_missing
                                 : (*rest ? "" : "nothing"));
        free(has_result);
        exit_code = LT_EXIT_OK;
        goto out;
    }
    if (pool->n_tests == 0) {
        lt_error("no tests collected");
        free(has_result);
        exit_code = LT_EXIT_USAGE;
        goto out;
    }

    double t_ready = lt__now();
    struct early_jobs early = {
        .on = o->jobs <= 0 && n_queue > (size_t)ex.jobs,
        .cap = n_queue > INT_MAX ? INT_MAX : (int)n_queue};
    int brc = run_baseline(&ex, lane, &plan, o, &base, &early);
    double t_baseline = lt__now();
    if (brc != 0) {
        free(has_result);
        exit_code = brc;
        goto out;
    }
    /* (A degraded sandbox was said at the first baseline run's end.) */
    /* The number of children, settled on the whole baseline (the early
     * judgement may have started zygotes already: extra ones stop). */
    if (o->jobs <= 0 && n_queue > (size_t)online_cores()) {
        int more = children_for(&base, pool->n_tests, online_cores(),
                                zygote_peak_kb(pool));
        if ((size_t)more > n_queue)
            more = (int)n_queue;
        if (more != ex.jobs) {
            lt_exec_set_jobs(&ex, more);
            lt_exec_trim(&ex, lane, more);
            lt_debug("the tests %s: %d children",
                     more > online_cores() ? "mostly wait" : "compute", more);
        }
    }
    {
        rc = lt_store_begin(st);
        struct lt_test_record *recs = xcalloc(pool->n_tests,
                                              sizeof(*recs));
        char **cov = xcalloc(pool->n_tests + 1, sizeof(char *));
        for (size_t i = 0; i < pool->n_tests; i++) {
            cov[i] = coverage_text(&base, &plan, (uint32_t)i);
            recs[i] = (struct lt_test_record){
                (int)i, pool->test_ids[i], base.wall_ms[i],
                base.flaky[i] ? "flaky"
                : base.failing[i] ? "failing"
                              : base.runnable[i] ? "passed" : "skipped",
                cov[i]};
        }
        if (rc == 0)
            rc = lt_store_put_tests(st, recs, pool->n_tests);
        char feat[32];
        snprintf(feat, sizeof(feat), "%u", pool->features);
        if (rc == 0)
            rc = lt_store_set_meta(st, "sandbox_features", feat);
        if (rc == 0)
            rc = lt_store_set_meta(st, "sandbox_view",
                                   pool->view ? pool->view
                                   : pool->view_missing ? pool->view_missing
                                   : "");
        if (rc == 0)
            rc = lt_store_commit(st);
        for (size_t i = 0; i < pool->n_tests; i++)
            free(cov[i]);
        free(cov);
        free(recs);
        if (rc < 0) {
            free(has_result);
            lt_error("%s: %s", o->db, lt_strerror(rc));
            goto out;
        }
    }

    /* No test reaches these: no_coverage without a run. */
    {
        size_t kept = 0;
        rc = lt_store_begin(st);
        for (size_t q = 0; q < n_queue && rc == 0; q++) {
            size_t i = queue[q];
            const struct lt_mutant *m = &plan.mutants.items[i];
            uint32_t *sel = NULL;
            size_t n = select_tests(pool, &base, m, plan.mutant_file[i],
                                    mp[i].a.structural, &sel);
            free(sel);
            if (n == 0) {
                rc = put_verdict(st, m, LT_VERDICT_NO_COVERAGE,
                                 "no test executes its lines");
                has_result[i] = 1;
            } else {
                queue[kept++] = i;
            }
        }
        n_queue = kept;
        if (rc == 0)
            rc = lt_store_commit(st);
        if (rc < 0) {
            free(has_result);
            lt_error("%s: %s", o->db, lt_strerror(rc));
            goto out;
        }
    }
    free(has_result);
    has_result = NULL;

    /* Earlier verdicts of unchanged mutants (docs/incremental.md): the
     * key finds the mutant, the signature of the tests it runs (their
     * node ids and their files' hashes) must match too, except under
     * --rerun survivors, which reruns only what survived. */
    size_t n_reused = 0;
    if (!o->shard_count) {
        rkeys = plan_keys(&plan, cwd);
        struct file_hash *fh = NULL;
        size_t n_fh = 0, kept = 0;
        rc = lt_store_begin(st);
        for (size_t q = 0; q < n_queue && rc == 0; q++) {
            size_t i = queue[q];
            const struct lt_mutant *m = &plan.mutants.items[i];
            uint32_t *sel = NULL;
            size_t n = select_tests(pool, &base, m, plan.mutant_file[i],
                                    mp[i].a.structural, &sel);
            char **ids = xcalloc(n + 1, sizeof(char *));
            const char **shas = xcalloc(n + 1, sizeof(char *));
            for (size_t k = 0; k < n; k++)
                ids[k] = pool->test_ids[sel[k]];
            qsort(ids, n, sizeof(char *), cmp_str);
            for (size_t k = 0; k < n; k++)
                shas[k] = test_file_sha(o, ids[k], &fh, &n_fh);
            char sig[65];
            lt__tests_sig(ids, shas, n, sig);
            free(ids);
            free(shas);
            free(sel);
            rc = lt_store_put_reuse_key(st, m->id, rkeys[i], sig);
            struct old_verdict probe, *hit = NULL;
            memcpy(probe.key, rkeys[i], 65);
            if (old.n)
                hit = bsearch(&probe, old.v, old.n, sizeof(*old.v), cmp_old);
            int reuse = 0;
            if (hit && o->rerun_survivors)
                reuse = hit->r.verdict != LT_VERDICT_SURVIVED &&
                        hit->r.verdict != LT_VERDICT_NO_COVERAGE;
            else if (hit)
                reuse = strcmp(hit->sig, sig) == 0;
            if (rc == 0 && reuse) {
                struct lt_result r = hit->r;
                memcpy(r.mutant_id, m->id, 17);
                rc = lt_store_put_result(st, &r);
                n_reused++;
            } else {
                queue[kept++] = i;
            }
        }
        for (size_t k = 0; k < n_fh; k++) {
            free(fh[k].path);
            free(fh[k].sha);
        }
        free(fh);
        if (rc == 0)
            n_queue = kept;
        if (rc == 0)
            rc = lt_store_commit(st);
        if (rc < 0) {
            exit_code = lt__store_write_failed(st, o->db, rc);
            goto out;
        }
        if (incremental)
            fprintf(stderr,
                    "litmus: reused %zu verdicts of an earlier run; "
                    "%zu mutants to run\n", n_reused, n_queue);
    }

    mr = (struct mrun){
        .o = o, .plan = &plan, .mp = mp, .base = &base, .st = st, .tm = tm,
        .prog = {.total = n_queue},
        .rechecked = xcalloc(nm + 1, 1),
        .timed_out_test = xcalloc(nm + 1, sizeof(int))};
    lt__progress_init(&mr.prog.show, o->progress, "mutants");
    /* Bench aid (bench/fresh_bench.sh): LITMUS_FRESH=0 applies module- and
     * class-level mutants by re-execution, the mechanism fresh imports
     * replaced, so that the two can be timed on the same mutants. */
    const char *fresh_env = getenv("LITMUS_FRESH");
    mr.fresh_off = fresh_env && strcmp(fresh_env, "0") == 0;
    const char *run_log_path = getenv("LITMUS_RUN_LOG");
    mr.run_log = run_log_path && *run_log_path ? fopen(run_log_path, "a")
                                               : NULL;
    /* Longest first: the mutants whose selected tests take longest start
     * first, so that the last ones to end are short and the children end
     * together (what a mutant costs, not its verdict, depends on the
     * order). */
    {
        struct by_cost *bc = xcalloc(n_queue + 1, sizeof(*bc));
        for (size_t q = 0; q < n_queue; q++) {
            size_t i = queue[q];
            uint32_t *sel = NULL;
            size_t n = select_tests(pool, &base, &plan.mutants.items[i],
                                    plan.mutant_file[i], mp[i].a.structural,
                                    &sel);
            double ms = 0;
            for (size_t k = 0; k < n; k++)
                ms += base.wall_ms[sel[k]];
            free(sel);
            bc[q] = (struct by_cost){ms, q, i};
        }
        qsort(bc, n_queue, sizeof(*bc), cmp_by_cost);
        for (size_t q = 0; q < n_queue; q++)
            queue[q] = bc[q].mutant;
        free(bc);
    }
    mt = xcalloc(n_queue + 1, sizeof(*mt));
    for (size_t q = 0; q < n_queue; q++) {
        mt[q] = (struct mtask){.mr = &mr, .mi = queue[q]};
        mt[q].xt = (struct lt_task){.ops = &mutant_ops, .lane = lane,
                                    .owner = &mt[q]};
        lt_exec_submit(&ex, &mt[q].xt);
    }
    /* The first failed write to the store stops the run: what was
     * committed stays, and the rerun runs the rest. */
    ex.st = st;
    ex.db = o->db;
    ex.batch = BATCH_RESULTS;
    ex.batch_s = BATCH_SECONDS;
    ex.owner = &mr;
    ex.progress = mutants_progress;
    rc = lt_exec_run(&ex);
    ex.progress = NULL;
    if (rc != 0) {
        exit_code = rc;
        goto out;
    }
    if (mr.finished < n_queue + mr.n_rechecks + mr.n_rests) {
        lt_error("internal error: %zu mutant runs were never finished",
                 n_queue + mr.n_rechecks + mr.n_rests - mr.finished);
        exit_code = LT_EXIT_ENGINE;
        goto out;
    }
    /* Duplicates of mutants finished by an earlier, interrupted run. */
    rc = lt_store_begin(st);
    for (size_t i = 0; rc == 0 && i < nm; i++) {
        if (mp[i].dup_of < 0 || !owned[i] || lt_store_has_result(st,
                                                   plan.mutants.items[i].id))
            continue;
        struct lt_mutant rm;
        struct lt_result rr;
        int has = 0;
        memset(&rm, 0, sizeof(rm));
        memset(&rr, 0, sizeof(rr));
        if (lt_store_get_mutant(st, plan.mutants.items[mp[i].dup_of].id, &rm,
                                &rr, &has) == 0 && has) {
            memcpy(rr.mutant_id, plan.mutants.items[i].id, 17);
            char *d = xasprintf("same code as mutant %s", rm.id);
            free(rr.detail);
            rr.detail = d;
            rc = lt_store_put_result(st, &rr);
        }
        lt_mutant_clear(&rm);
        lt_result_clear(&rr);
    }
    if (rc == 0)
        rc = lt_store_commit(st);
    if (rc < 0) {
        exit_code = lt__store_write_failed(st, o->db, rc);
        goto out;
    }
    {
        /* Figures of this run, for `make bench` and the curious. */
        double t_end = lt__now();
        long zyg_rss = 0;
        int used = 0;
        for (int i = 0; i < pool->n; i++) {
            used += lane->slot_since[i] > 0;
            long kb = lt__peak_rss_kb(pool->z[i].pid);
            if (kb > zyg_rss)
                zyg_rss = kb;
        }
        static const char *const keys[] = {
            "run_startup_s", "run_mutants_s", "run_baseline_s",
            "run_mutants_run", "run_timeout_rechecks",
            "run_zygote_peak_rss_kb", "run_engine_peak_rss_kb", "run_jobs",
            "run_wall_s", "run_cpu_s", "run_tasks", "run_reused",
            "complete"};
        char v[13][64];
        snprintf(v[0], sizeof(v[0]), "%.6f", t_ready - t_start);
        snprintf(v[1], sizeof(v[1]), "%.6f", t_end - t_baseline);
        snprintf(v[2], sizeof(v[2]), "%.6f", t_baseline - t_ready);
        snprintf(v[3], sizeof(v[3]), "%zu", n_queue);
        snprintf(v[4], sizeof(v[4]), "%zu", mr.n_rechecks);
        snprintf(v[5], sizeof(v[5]), "%ld", zyg_rss);
        snprintf(v[6], sizeof(v[6]), "%ld", lt__peak_rss_kb(0));
        snprintf(v[7], sizeof(v[7]), "%d", used);
        /* Throughput figures (`litmus report`, docs/scale.md): wall and
         * CPU seconds of this process and its runners, and its tasks
         * (every mutant it owns, run or decided without a run). */
        snprintf(v[8], sizeof(v[8]), "%.6f", t_end - t_start);
        snprintf(v[9], sizeof(v[9]), "%.6f", run_cpu_seconds(pool));
        snprintf(v[10], sizeof(v[10]), "%zu", n_owned);
        snprintf(v[11], sizeof(v[11]), "%zu", n_reused);
        snprintf(v[12], sizeof(v[12]), "1");
        rc = lt_store_begin(st);
        for (size_t k = 0; rc == 0 && k < sizeof(keys) / sizeof(*keys); k++)
            rc = lt_store_set_meta(st, keys[k], v[k]);
        /* Only figures: a failure here loses no result, but the next
         * write would fail the same way, so say so now. */
        if (rc == 0)
            rc = lt_store_commit(st);
        if (rc < 0) {
            exit_code = lt__store_write_failed(st, o->db, rc);
            goto out;
        }
    }
    (void)n_pending;
    exit_code = lt__report_score(st, o->format, o->fail_under, stdout,
                                 &o->report);
out:
    if (mr.run_log)
        fclose(mr.run_log);
    lt__changed_free(since, plan.n_files);
    old_set_free(&old);
    free(rkeys);
    if (in_tx)
        lt_store_commit(st);
    baseline_free(&base, 0);
    lt_exec_close(&ex);
    lt_telemetry_close(tm);
    if (scratch) {
        lt_sandbox_scratch_remove(scratch);
        free(scratch);
    }
    free(args);
    free(subjects);
    free(queue);
    free(owned);
    free(mr.rechecked);
    free(mr.timed_out_test);
    free(mt);
    free(errmsg);
    free(cwd);
    lt_pyenv_clear(&pyenv);
    for (size_t i = 0; mp && i < plan.mutants.count; i++)
        lt__mutants_clear(&mp[i].a, 1);
    free(mp);
    lt_store_close(st);
    if (exit_code == 2 && !db_existed) {
        static const char *const suffixes[] = {"", "-wal", "-shm", "-journal",
                                               ".lock"};
        for (size_t i = 0; i < sizeof(suffixes) / sizeof(*suffixes); i++) {
            char *p = xasprintf("%s%s", o->db, suffixes[i]);
            unlink(p);
            free(p);
        }
    }
    lt__plan_free(&plan);
    return exit_code;
}
