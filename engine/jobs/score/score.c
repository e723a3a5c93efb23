/* `litmus score`: one run as its steps (plan, resume, baseline, reuse,
 * run, finish), with what resuming and reusing an earlier run need
 * (score_internal.h says where the rest lives).
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
#include "common/pyload.h"
#include "common/sha256.h"
#include "common/xmalloc.h"
#include "engine/core/clock.h"
#include "engine/core/exe.h"
#include "engine/core/exec.h"
#include "engine/core/exit.h"
#include "engine/core/mutate.h"
#include "engine/core/progress.h"
#include "engine/core/pyenv.h"
#include "engine/core/select.h"
#include "engine/core/store.h"
#include "engine/core/verdict.h"
#include "engine/jobs/score/incr.h"
#include "engine/jobs/score/reuse_store.h"
#include "engine/jobs/score/score_internal.h"
#include "engine/report/report.h"
#include "harness/wire.h"
#include "operators/operators.h"
#include "runners/runner.h"
#include "sandbox/sandbox.h"

/* Bytes of precompiled swap payloads the engine keeps for one run: about
 * 1 KB a mutant, so enough for tens of thousands of mutants and within the
 * engine's memory target. */
#define SWAP_BUDGET ((size_t)16 << 20)

void lt_score_opts_init(struct lt_score_opts *o)
{
    memset(o, 0, sizeof(*o));
    o->run.db = ".litmus.db";
    o->operators = "mutmut";
    o->run.jobs = 0; /* as many as cores, more when the tests mostly wait */
    o->format = LT_FORMAT_TEXT;
    o->fail_under = -1;
    o->run.timeout_factor = 5.0;
    o->run.timeout_const = LT_SCORE_TIMEOUT_CONST;
    o->baseline_timeout = 300.0;
    o->run.memory_mb = LT_MEMORY_MB_DEFAULT;
    o->run.progress = -1;
    o->baseline_runs = 2;
}

/* CPU seconds of this run so far: the engine, the processes it reaped,
 * and each live zygote with the children it reaped (the mutants' runs),
 * read from /proc because the zygotes are reaped only at the end. */
static double run_cpu_seconds(const struct lt_lane *lane)
{
    struct rusage ru;
    double s = 0;
    if (getrusage(RUSAGE_SELF, &ru) == 0)
        s += ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
             ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
    if (getrusage(RUSAGE_CHILDREN, &ru) == 0)
        s += ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
             ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
    return s + lt_exec_lane_zygotes_cpu_s(lane);
}

/*** Resuming and reusing an earlier run ***/

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


/*** The steps of a run ***/

/* Ends the run with code: what a step returns to stop. */
static int stop(struct score_run *r, int code)
{
    r->exit_code = code;
    return 1;
}

/* The paths of the plan's subject files, NULL-terminated (the caller
 * frees the array, not the strings). */
static char **plan_paths(const struct lt_plan *plan)
{
    char **paths = xcalloc(plan->n_files + 1, sizeof(char *));
    for (size_t i = 0; i < plan->n_files; i++)
        paths[i] = plan->files[i].path;
    return paths;
}

/* Starts `count` zygotes of the run's configuration (its lane first). */
static int start_zygotes(struct score_run *r, int count)
{
    /* The collection's progress counts from its start, though the run
     * waits for it (and shows it) only after the plan. */
    lt__progress_init(&r->collect, r->o->run.progress,
                      "collecting the tests");
    lt__progress_hold(&r->collect, 1);
    r->lane = lt_exec_lane(&r->ex, &r->cfg, &lt__score_lane_ops, r);
    r->suite = lt_exec_lane_suite(r->lane);
    lt_exec_lane_set_telemetry(r->lane, r->tm);
    return lt_exec_warm(&r->ex, r->lane, count);
}

/* The executor's progress hook while the run waits for its zygotes:
 * the collection's time, when it lasts. */
static void collect_progress(struct lt_exec *ex, int force)
{
    struct score_run *r = ex->owner;
    lt__progress_show(&r->collect, force, 0, 0, NULL);
}

/* Waits until every zygote started is ready or failed, with the
 * collection's progress line.  0, or the run's fatal code. */
static int wait_for_zygotes(struct score_run *r)
{
    r->ex.owner = r;
    r->ex.progress = collect_progress;
    int rc = lt_exec_wait_ready(&r->ex, r->lane);
    collect_progress(&r->ex, 1);
    r->ex.progress = NULL;
    r->ex.owner = NULL;
    return rc;
}

/*** The automatic unittest runner ***/

/* pytest could not collect a suite that looks like unittest's, and no
 * runner was named (r->pytest_failure): the unittest runner collects it
 * from the test paths alone, on a lane of its own (want zygotes); when
 * it finds tests the run goes on with it and a note says so, else
 * pytest's failure stops the run (unittest_fallback in score_mutants.c).  0, or 1 with
 * the exit code set. */
static int run_unittest(struct score_run *r, int want)
{
    r->runner = LT_TEST_RUNNER_UNITTEST;
    r->cfg.runner = r->runner;
    r->cfg.pytest_args = r->args;
    r->cfg.n_pytest_args = r->o->n_tests;
    /* A collection narrowed by a stored baseline was pytest's: unittest
     * collects every test, and the baseline's digest is its own. */
    r->narrowed = 0;
    if (start_zygotes(r, want) < 0)
        return stop(r, LT_EXIT_ENGINE);
    lt_exec_trim(&r->ex, r->lane, r->n_queue > 0 ? (int)r->n_queue : 1);
    if (wait_for_zygotes(r) != 0)
        return stop(r, r->ex.fatal);
    if (r->suite->n_tests == 0) {
        lt_error("%s", r->pytest_failure);
        return stop(r, LT_EXIT_USAGE);
    }
    fprintf(stderr, "litmus: note: pytest could not collect the tests, "
            "which look like a unittest suite; unittest's discovery "
            "collects %zu: they run with --runner unittest (--runner "
            "pytest keeps pytest)\n", r->suite->n_tests);
    return 0;
}

/* The progress of compiling the plan's mutants (lt__mutants_analyse's
 * batches). */
struct compile_progress {
    struct lt_progress show;
    size_t before;  /* mutants of the files before the current one */
    size_t done, total;
};

static void compiled_some(void *arg, size_t done_in_file)
{
    struct compile_progress *cp = arg;
    cp->done = cp->before + done_in_file;
    lt__progress_show(&cp->show, 0, cp->done, cp->total, NULL);
}

/* Plan: finds and reads the subject files, the lines changed since
 * --since, the interpreter and the scratch directory; starts every zygote
 * (they import and collect while the engine generates, compiles and
 * deduplicates the mutants); and deals this shard's share.  0, or 1 with
 * the exit code set (2 for bad input). */
static int step_plan(struct score_run *r)
{
    const struct lt_score_opts *o = r->o;
    struct lt_plan *plan = &r->plan;
    r->t_start = lt__now();
    int rc = lt__plan_files(o, plan);
    if (rc < 0)
        return stop(r, LT_EXIT_USAGE);
    if (o->since) {
        /* git runs here, in the engine, before any runner exists. */
        char **paths = plan_paths(plan);
        rc = lt__since_lines(o->since, paths, plan->n_files, &r->since);
        free(paths);
        if (rc < 0)
            return stop(r, LT_EXIT_USAGE);
    }

    r->cwd = getcwd(NULL, 0);
    {
        char **paths = plan_paths(plan);
        char *perr = NULL;
        rc = lt_pyenv_resolve(o->python, r->cwd ? r->cwd : ".", paths,
                              plan->n_files,
                              o->runner == LT_TEST_RUNNER_PYTEST, &r->pyenv,
                              &perr);
        free(paths);
        /* The engine's own parsing and compiling of the subjects is the
         * interpreter's too, so that they follow its version. */
        if (rc == 0 && lt_python_use(r->pyenv.python, r->pyenv.libpython,
                                     &perr) < 0)
            rc = LT_EUSAGE;
        if (rc < 0) {
            lt_error("%s", perr ? perr : lt_strerror(rc));
            free(perr);
            return stop(r, LT_EXIT_USAGE);
        }
    }
    r->scratch = lt_sandbox_scratch_new(NULL);
    if (!r->scratch) {
        lt_error("cannot create a scratch directory: %s", strerror(errno));
        return stop(r, LT_EXIT_ENGINE);
    }

    size_t nargs = o->n_tests + o->n_pytest_args;
    r->args = xcalloc(nargs + 1, sizeof(char *));
    for (size_t i = 0; i < o->n_tests; i++)
        r->args[i] = o->tests[i];
    for (size_t i = 0; i < o->n_pytest_args; i++)
        r->args[o->n_tests + i] = o->pytest_args[i];
    r->subjects = xcalloc(plan->n_files, sizeof(*r->subjects));
    for (size_t i = 0; i < plan->n_files; i++)
        r->subjects[i] = (struct lt_subject){plan->files[i].path,
                                             plan->files[i].source,
                                             plan->files[i].len};
    r->cfg = (struct lt_runner_config){
        .exe = lt__engine_exe(), .cwd = r->cwd, .scratch_base = r->scratch,
        .pytest_args = r->args, .n_pytest_args = nargs,
        .subjects = r->subjects, .n_subjects = plan->n_files,
        .debug = o->debug, .python = r->pyenv.python,
        .libpython = r->pyenv.libpython,
        .path_prefix = r->pyenv.path_prefix, .no_view = o->no_fs_view,
        .allow_read = o->allow_read, .n_allow_read = o->n_allow_read,
        .pass_env = o->pass_env, .n_pass_env = o->n_pass_env,
        .sandbox_uid = o->sandbox_uid, .scratch_mb = o->scratch_mb,
        .runner = r->runner};

    /* Before the first zygote: it must be watched before it forks. */
    if (o->telemetry) {
        const char *why = NULL;
        if (lt_telemetry_open(&r->tm, &why) < 0)
            lt_warn("--telemetry: off for this run: %s", why);
    }
    /* Start every zygote now, before the mutants are generated, analysed
     * and stored: they import and collect in parallel with that work,
     * which is the engine's alone.  Extra ones stop once the number of
     * mutants to run is known.  With a stored baseline to reuse, they
     * wait for it instead: it may say that a few test files are all the
     * run needs to collect (docs/incremental.md). */
    r->deferred = o->runner == LT_TEST_RUNNER_PYTEST && o->n_tests > 0 &&
                  !o->fresh_baseline && !o->run.shard_count &&
                  !o->explain_sandbox && !o->full_matrix &&
                  access(o->run.db, F_OK) == 0;
    if (!r->deferred && start_zygotes(r, r->ex.jobs) < 0)
        return stop(r, LT_EXIT_ENGINE);
    rc = lt__plan_mutants(o, plan, r->since);
    if (rc < 0)
        return stop(r, rc == LT_EPYTHON ? LT_EXIT_ENGINE : LT_EXIT_USAGE);
    size_t nm = plan->mutants.count;

    /* Trivial compiler equivalence: compile every mutant once here, so
     * equivalent and invalid ones never run and duplicates run once. */
    r->mp = xcalloc(nm + 1, sizeof(*r->mp));
    /* The analysis also keeps, for mutants that only change functions,
     * the compiled code objects, so that no child compiles the module
     * again.  Bounded: past the budget children compile for themselves.
     * A mutant takes milliseconds: a large project's (minutes, while the
     * zygotes collect) shows its progress. */
    struct compile_progress cp = {.total = nm};
    lt__progress_init(&cp.show, o->run.progress, "mutants compiled");
    lt__progress_hold(&cp.show, 0);
    size_t swap_budget = SWAP_BUDGET;
    for (size_t f = 0, i = 0; f < plan->n_files; f++) {
        size_t first = i;
        while (i < nm && plan->mutant_file[i] == f)
            i++;
        size_t cnt = i - first;
        if (!cnt)
            continue;
        struct lt_change_analysis *an = xcalloc(cnt, sizeof(*an));
        long *dup = xcalloc(cnt, sizeof(*dup));
        cp.before = first;
        rc = lt__mutants_analyse(plan->files[f].path, plan->files[f].source,
                                 plan->files[f].len,
                                 &plan->mutants.items[first], cnt,
                                 &swap_budget, an, dup, compiled_some, &cp);
        for (size_t k = 0; k < cnt; k++) {
            r->mp[first + k].a = an[k];
            r->mp[first + k].dup_of = dup[k] < 0 ? -1
                                                 : (long)first + dup[k];
        }
        free(an);
        free(dup);
        if (rc < 0) {
            lt__progress_show(&cp.show, 1, cp.done, nm, NULL);
            lt_error("cannot compile the mutants of %s", plan->files[f].path);
            return stop(r, LT_EXIT_ENGINE);
        }
    }
    lt__progress_show(&cp.show, 1, nm, nm, NULL);

    /* The mutants this process runs: all of them, or its shard's. */
    r->owned = xcalloc(nm + 1, 1);
    r->n_owned = lt__plan_shard_owned(plan, r->mp, o->run.shard_index,
                                      o->run.shard_count, r->owned);
    return 0;
}

/* The settings that decide the mutant set and the verdicts, as stored in
 * the meta "settings": resuming with other settings would mix two runs. */
static void settings_text(const struct score_run *r, struct lt_buf *fp)
{
    const struct lt_score_opts *o = r->o;
    lt_buf_printf(fp, "operators=%s\n", o->operators);
    for (size_t i = 0; i < r->plan.n_files; i++)
        lt_buf_printf(fp, "file=%s\n", r->plan.files[i].path);
    for (size_t i = 0; i < o->n_tests; i++)
        lt_buf_printf(fp, "tests=%s\n", o->tests[i]);
    for (size_t i = 0; i < o->n_pytest_args; i++)
        lt_buf_printf(fp, "arg=%s\n", o->pytest_args[i]);
    lt_buf_printf(fp, "cwd=%s\nfull_matrix=%d\n", r->cwd ? r->cwd : "",
                  o->full_matrix);
    /* Another runner collects other tests; pytest's leaves the text as
     * before, so that older stores resume. */
    if (o->runner != LT_TEST_RUNNER_PYTEST)
        lt_buf_printf(fp, "runner=%d\n", o->runner);
    lt_buf_printf(fp, "python=%s\npath=%s\n", r->pyenv.python,
                  r->pyenv.path_prefix ? r->pyenv.path_prefix : "");
    /* Exclusions decide the mutant set; absent, the text is as before. */
    for (size_t i = 0; i < o->n_exclude; i++)
        lt_buf_printf(fp, "exclude=%s\n", o->exclude[i]);
    for (size_t i = 0; i < o->n_exclude_ops; i++)
        lt_buf_printf(fp, "exclude-operators=%s\n", o->exclude_ops[i]);
}

/* Opens the store and checks that an earlier run in it is this one (the
 * same settings, the same shard: "I/N", or "" for the whole run).
 * *stored gets the earlier settings or NULL (the caller frees).  0, or 1
 * with the exit code set. */
static int open_store(struct score_run *r, const char *settings,
                      const char *shard, char **stored)
{
    const struct lt_score_opts *o = r->o;
    char *errmsg = NULL;
    r->db_existed = access(o->run.db, F_OK) == 0;
    int rc = lt_store_open(o->run.db, &r->st, &errmsg);
    if (rc < 0) {
        r->db_existed = 1; /* not ours to remove */
        lt_error("%s: %s", o->run.db, errmsg ? errmsg : lt_strerror(rc));
        free(errmsg);
        return stop(r, lt_exit_from_error(rc));
    }
    if (r->tm && (rc = lt_store_telemetry_init(r->st)) < 0)
        return stop(r, lt_exit_from_error(rc));
    rc = lt_store_get_meta(r->st, "settings", stored);
    if (rc == 0 && *stored && strcmp(*stored, settings) != 0) {
        lt_error("%s holds a run with other settings; use another --db or "
                 "delete it", o->run.db);
        return stop(r, LT_EXIT_USAGE);
    }
    /* A shard's store holds that shard's results only: resuming it as
     * another shard, or as the whole run, would leave holes or overlaps
     * that the merge could not tell from real ones. */
    if (*stored) {
        char *stored_shard = NULL;
        rc = lt_store_get_meta(r->st, "shard", &stored_shard);
        const char *was = stored_shard ? stored_shard : "";
        if (rc == 0 && strcmp(was, shard) != 0) {
            lt_error("%s holds %s%s%s, not %s%s; use another --db",
                     o->run.db, *was ? "shard " : "the whole run", was,
                     *was ? " of this run" : "",
                     *shard ? "shard " : "the whole run", shard);
            free(stored_shard);
            return stop(r, LT_EXIT_USAGE);
        }
        free(stored_shard);
    }
    return 0;
}

/* Resume: opens the store and writes this run's settings, files and
 * mutants.  A finished earlier run of the same settings has its verdicts
 * kept for reuse and the rest of it forgotten (docs/incremental.md); an
 * unfinished one is resumed as it was (shards keep to resuming).  Queues
 * the mutants still to run and stores the verdicts that need no run
 * (equivalent, invalid).  0, or 1 with the exit code set. */
static int step_resume(struct score_run *r)
{
    const struct lt_score_opts *o = r->o;
    const struct lt_plan *plan = &r->plan;
    size_t nm = plan->mutants.count;
    struct lt_buf fp = LT_BUF_INIT;
    settings_text(r, &fp);
    char shard[48] = "";
    if (o->run.shard_count)
        snprintf(shard, sizeof(shard), "%u/%u", o->run.shard_index,
                 o->run.shard_count);
    char *stored = NULL;
    if (open_store(r, fp.data, shard, &stored)) {
        free(stored);
        lt_buf_free(&fp);
        return 1;
    }
    int rc = 0;
    r->old = xcalloc(1, sizeof(*r->old));
    rc = lt_store_reuse_init(r->st);
    if (rc < 0) {
        free(stored);
        lt_buf_free(&fp);
        return stop(r, lt__store_write_failed(r->st, o->run.db, rc));
    }
    if (!o->run.shard_count) {
        char *complete = NULL;
        /* --explain-sandbox stops before the baseline: it must not drop
         * a finished run's results. */
        if (stored && !o->explain_sandbox &&
            lt_store_get_meta(r->st, "complete", &complete) == 0 &&
            complete && strcmp(complete, "1") == 0)
            r->incremental = 1;
        free(complete);
        if (r->incremental)
            rc = lt_store_each_reuse(r->st, collect_old, r->old);
        if (rc < 0) {
            free(stored);
            lt_buf_free(&fp);
            return stop(r, lt__store_write_failed(r->st, o->run.db, rc));
        }
        /* A finished store without reuse keys (merged shards, or one
         * written before them) is resumed as before: dropping its
         * results would run everything again. */
        if (r->old->n)
            qsort(r->old->v, r->old->n, sizeof(*r->old->v), cmp_old);
        else
            r->incremental = 0;
    }
    free(stored);

    rc = lt_store_begin(r->st);
    if (rc == 0)
        rc = lt_store_set_meta(r->st, "settings", fp.data);
    if (rc == 0 && *shard)
        rc = lt_store_set_meta(r->st, "shard", shard);
    /* Set again once every mutant of the run (or shard) has a result. */
    if (rc == 0)
        rc = lt_store_set_meta(r->st, "complete", "0");
    /* Set again when this run stops at its --max-time: until then the
     * mutants without a result are pending, not not_run. */
    if (rc == 0)
        rc = lt_store_set_meta(r->st, LT_META_BUDGET_STOP, NULL);
    if (rc == 0 && r->incremental)
        rc = lt_store_clear_run(r->st);
    lt_buf_free(&fp);
    for (size_t i = 0; rc == 0 && i < plan->n_files; i++) {
        int changed = 0;
        rc = lt_store_put_file(r->st, plan->files[i].path, plan->files[i].sha,
                               plan->files[i].source, plan->files[i].len,
                               &changed);
    }
    for (size_t i = 0; rc == 0 && i < nm; i++)
        rc = lt_store_put_mutant(r->st, &plan->mutants.items[i]);
    if (rc == 0)
        rc = lt_store_commit(r->st);
    if (rc < 0)
        return stop(r, lt__store_write_failed(r->st, o->run.db, rc));

    /* Mutants still to run; the ones with a stored result are done. */
    r->queue = xcalloc(nm + 1, sizeof(size_t));
    r->has_result = xcalloc(nm + 1, 1);
    for (size_t i = 0; i < nm; i++) {
        int has = lt_store_has_result(r->st, plan->mutants.items[i].id);
        if (has < 0) {
            lt_error("%s: %s", o->run.db, lt_strerror(has));
            return stop(r, LT_EXIT_ENGINE);
        }
        /* Another shard's mutants count as done here. */
        r->has_result[i] = (unsigned char)(has || !r->owned[i]);
        if (r->has_result[i])
            continue;
        /* Runnable and not a duplicate: it goes to a runner. */
        if (r->mp[i].a.status == LT_CHANGE_OK && r->mp[i].dup_of < 0)
            r->queue[r->n_queue++] = i;
    }
    /* Verdicts that need no run: equivalent and invalid mutants. */
    rc = lt_store_begin(r->st);
    for (size_t i = 0; rc == 0 && i < nm; i++) {
        if (r->has_result[i] || r->mp[i].a.status == LT_CHANGE_OK)
            continue;
        const struct lt_mutant *m = &plan->mutants.items[i];
        if (r->mp[i].a.status == LT_CHANGE_EQUIVALENT)
            rc = put_verdict(r->st, m, LT_VERDICT_EQUIVALENT,
                             "compiles to the original code objects");
        else
            rc = put_verdict(r->st, m, LT_VERDICT_INVALID, r->mp[i].a.detail);
        r->has_result[i] = 1;
    }
    if (rc == 0)
        rc = lt_store_commit(r->st);
    if (rc < 0)
        return stop(r, lt__store_write_failed(r->st, o->run.db, rc));
    lt__baseline_load(r);
    return 0;
}

/* --explain-sandbox: what the tests see, as the first zygote built it,
 * and the children's own steps as this kernel would give them. */
static void explain_sandbox(const struct score_run *r)
{
    const struct lt_suite *suite = r->suite;
    printf("interpreter: %s (%s, Python %s)\n", r->pyenv.python,
           r->pyenv.how, r->pyenv.version);
    if (r->pyenv.path_prefix)
        printf("first on sys.path after the working directory: %s\n",
               r->pyenv.path_prefix);
    if (suite->view)
        fputs(suite->view, stdout);
    const char *rest = lt_sandbox_describe_missing(
        lt_sandbox_probe() | suite->features | LT_SBX_FSVIEW |
        LT_SBX_IDENTITY);
    printf("degraded: %s%s%s\n", *rest ? rest : "",
           *rest && suite->view_missing ? ", " : "",
           suite->view_missing ? suite->view_missing
                              : (*rest ? "" : "nothing"));
}

/* Keeps, of tests[0..n) (collection order), those that a queued mutant
 * selects, in place; their count. */
static size_t relevant_tests(struct score_run *r, uint32_t *tests, size_t n)
{
    const struct lt_suite *suite = r->suite;
    unsigned char *mark = xcalloc(suite->n_tests + 1, 1);
    for (size_t q = 0; q < r->n_queue; q++) {
        size_t i = r->queue[q];
        uint32_t *sel = NULL;
        size_t k = lt__mutant_select(r, i, &sel);
        for (size_t j = 0; j < k; j++)
            mark[sel[j]] = 1;
        free(sel);
    }
    size_t w = 0;
    for (size_t k = 0; k < n; k++)
        if (mark[tests[k]])
            tests[w++] = tests[k];
    free(mark);
    return w;
}

/* Baseline: waits for the zygotes (as many as there are mutants to run),
 * answers --explain-sandbox, runs the baseline, settles the number of
 * children on it, stores it, and gives the queued mutants that no test
 * reaches their verdict (no_coverage) without a run.  0, or 1 with the
 * exit code set. */
static int step_baseline(struct score_run *r)
{
    const struct lt_score_opts *o = r->o;
    /* An incremental run with nothing to run (a change with no mutant,
     * or every one decided without a run) needs no test: the earlier
     * run's baseline stays in the store as it was. */
    if (r->n_queue == 0 && r->incremental && !o->explain_sandbox) {
        lt_debug("no mutant to run: no baseline");
        if (r->deferred && start_zygotes(r, 0) < 0)
            return stop(r, LT_EXIT_ENGINE);
        r->t_ready = r->t_baseline = lt__now();
        return 0;
    }
    int want = r->n_queue > 0 && r->n_queue < (size_t)r->ex.jobs
                   ? (int)r->n_queue : r->ex.jobs;
    if (r->deferred) {
        size_t n_files = 0;
        char **files = lt__baseline_narrow_collection(r, &n_files);
        if (files) {
            /* The needed test files in place of the test paths given,
             * with the working directory as pytest's rootdir: the stored
             * node ids are relative to it (the files were found there),
             * and fewer paths must not move it (pytest takes their common
             * ancestor when no configuration file says otherwise).  A
             * --rootdir of the user's comes later and wins. */
            r->narrow_args = xcalloc(n_files + o->n_pytest_args + 2,
                                     sizeof(char *));
            for (size_t k = 0; k < n_files; k++)
                r->narrow_args[k] = files[k];
            r->narrow_args[n_files] = xasprintf("--rootdir=%s",
                                                r->cwd ? r->cwd : ".");
            for (size_t k = 0; k < o->n_pytest_args; k++)
                r->narrow_args[n_files + 1 + k] = o->pytest_args[k];
            free(files);
            r->n_narrow_files = n_files;
            r->cfg.pytest_args = r->narrow_args;
            r->cfg.n_pytest_args = n_files + 1 + o->n_pytest_args;
        }
        if (start_zygotes(r, want) < 0)
            return stop(r, LT_EXIT_ENGINE);
    }
    const struct lt_suite *suite = r->suite;
    /* The zygotes were started before the analysis; as many as there are
     * mutants to run are enough (one for the baseline when none is). */
    lt_exec_trim(&r->ex, r->lane, r->n_queue > 0 ? (int)r->n_queue : 1);
    if (wait_for_zygotes(r) != 0)
        return stop(r, r->ex.fatal);
    if (r->pytest_failure && r->runner == LT_TEST_RUNNER_PYTEST) {
        if (run_unittest(r, want))
            return 1;
        suite = r->suite;
    }
    if (o->explain_sandbox) {
        explain_sandbox(r);
        return stop(r, LT_EXIT_OK);
    }
    if (suite->n_tests == 0) {
        lt_error("no tests collected");
        return stop(r, LT_EXIT_USAGE);
    }

    r->t_ready = lt__now();
    struct early_jobs early = {
        .on = o->run.jobs <= 0 && r->n_queue > (size_t)r->ex.jobs,
        .cap = r->n_queue > INT_MAX ? INT_MAX : (int)r->n_queue};
    /* The tests whose stored baseline still holds are not run again. */
    lt__baseline_init(&r->base, &r->plan, suite);
    lt__baseline_env(r);
    unsigned char *run_it = xmalloc(suite->n_tests + 1);
    memset(run_it, 1, suite->n_tests + 1);
    r->n_tests_reused = lt__baseline_take_stored(r, run_it);
    uint32_t *tests = xcalloc(suite->n_tests + 1, sizeof(uint32_t));
    size_t n_run = 0;
    for (size_t i = 0; i < suite->n_tests; i++)
        if (run_it[i])
            tests[n_run++] = (uint32_t)i;
    free(run_it);
    if (r->narrowed)
        fprintf(stderr, "litmus: reused the baseline of %zu of %zu tests; "
                "%zu to run; %zu of %zu test files collected\n",
                r->n_tests_reused, suite->n_tests, n_run, r->n_narrow_files,
                r->n_test_files_all);
    else if (r->n_tests_reused)
        fprintf(stderr, "litmus: reused the baseline of %zu of %zu tests; "
                "%zu to run\n", r->n_tests_reused, suite->n_tests, n_run);
    /* The first run decides which tests pass and what they cover; the
     * others, which find flaky tests, run only the tests some mutant
     * will run (a flaky test elsewhere decides nothing). */
    int staged = lt__baseline_staged(&r->ex, n_run);
    int brc = lt__baseline_run(&r->ex, r->lane, &r->plan, o, &r->base,
                               &early, tests, n_run, 0,
                               staged ? 1 : o->baseline_runs);
    if (brc == 0) {
        lt__baseline_index(suite, &r->plan, &r->base);
        lt__baseline_readers(r);
        if (staged && o->baseline_runs > 1) {
            size_t n_rel = relevant_tests(r, tests, n_run);
            lt_debug("baseline: first run of %zu tests in %.2f s; %zu run "
                     "again", n_run, lt__now() - r->t_ready, n_rel);
            brc = lt__baseline_run(&r->ex, r->lane, &r->plan, o, &r->base,
                                   &early, tests, n_rel, 1,
                                   o->baseline_runs - 1);
        }
    }
    free(tests);
    if (brc == 0)
        brc = lt__baseline_settle(suite, &r->plan, &r->base);
    r->t_baseline = lt__now();
    if (brc != 0)
        return stop(r, brc);
    /* (A degraded sandbox was said at the first baseline run's end.) */
    /* The number of children, settled on the whole baseline (the early
     * judgement may have started zygotes already: extra ones stop). */
    if (o->run.jobs <= 0 && r->n_queue > (size_t)lt__online_cores()) {
        int more = lt__children_for(&r->base, suite->n_tests,
                                    lt__online_cores(),
                                    lt__zygote_peak_kb(r->lane));
        if ((size_t)more > r->n_queue)
            more = (int)r->n_queue;
        if (more != r->ex.jobs) {
            lt_exec_set_jobs(&r->ex, more);
            lt_exec_trim(&r->ex, r->lane, more);
            lt_debug("the tests %s: %d children",
                     more > lt__online_cores() ? "mostly wait" : "compute",
                     more);
        }
    }
    int rc = lt__baseline_store(r);
    if (rc < 0)
        return stop(r, lt__store_write_failed(r->st, o->run.db, rc));

    /* No test reaches these: no_coverage without a run. */
    size_t kept = 0;
    rc = lt_store_begin(r->st);
    for (size_t q = 0; q < r->n_queue && rc == 0; q++) {
        size_t i = r->queue[q];
        const struct lt_mutant *m = &r->plan.mutants.items[i];
        uint32_t *sel = NULL;
        size_t n = lt__mutant_select(r, i, &sel);
        free(sel);
        if (n == 0) {
            rc = put_verdict(r->st, m, LT_VERDICT_NO_COVERAGE,
                             "no test executes its lines");
            r->has_result[i] = 1;
        } else {
            r->queue[kept++] = i;
        }
    }
    r->n_queue = kept;
    if (rc == 0)
        rc = lt_store_commit(r->st);
    if (rc < 0)
        return stop(r, lt__store_write_failed(r->st, o->run.db, rc));
    return 0;
}

/* Reuse: earlier verdicts of unchanged mutants (docs/incremental.md).
 * The key finds the mutant, the signature of the tests it runs (their
 * node ids and their files' hashes) must match too, except under
 * --rerun survivors, which reruns only what survived.  Every queued
 * mutant's key and signature are stored for the next run.  Shards keep
 * to resuming.  0, or 1 with the exit code set. */
static int step_reuse(struct score_run *r)
{
    const struct lt_score_opts *o = r->o;
    const struct lt_plan *plan = &r->plan;
    const struct lt_suite *suite = r->suite;
    if (o->run.shard_count)
        return 0;
    r->rkeys = plan_keys(plan, r->cwd);
    struct lt_test_files tf = {0};
    size_t kept = 0;
    int rc = lt_store_begin(r->st);
    for (size_t q = 0; q < r->n_queue && rc == 0; q++) {
        size_t i = r->queue[q];
        const struct lt_mutant *m = &plan->mutants.items[i];
        uint32_t *sel = NULL;
        size_t n = lt__mutant_select(r, i, &sel);
        char **ids = xcalloc(n + 1, sizeof(char *));
        const char **shas = xcalloc(n + 1, sizeof(char *));
        for (size_t k = 0; k < n; k++)
            ids[k] = suite->test_ids[sel[k]];
        qsort(ids, n, sizeof(char *), lt__cmp_str);
        for (size_t k = 0; k < n; k++)
            shas[k] = lt__test_file_sha(o, ids[k], &tf);
        char sig[65];
        lt__tests_sig(ids, shas, n, sig);
        free(ids);
        free(shas);
        free(sel);
        rc = lt_store_put_reuse_key(r->st, m->id, r->rkeys[i], sig);
        struct old_verdict probe, *hit = NULL;
        memcpy(probe.key, r->rkeys[i], 65);
        if (r->old->n)
            hit = bsearch(&probe, r->old->v, r->old->n, sizeof(*r->old->v),
                          cmp_old);
        int reuse = 0;
        if (hit && o->rerun_survivors)
            reuse = hit->r.verdict != LT_VERDICT_SURVIVED &&
                    hit->r.verdict != LT_VERDICT_NO_COVERAGE;
        else if (hit)
            reuse = strcmp(hit->sig, sig) == 0;
        if (rc == 0 && reuse) {
            struct lt_result res = hit->r;
            memcpy(res.mutant_id, m->id, 17);
            rc = lt_store_put_result(r->st, &res);
            r->n_reused++;
        } else {
            r->queue[kept++] = i;
        }
    }
    lt__test_files_free(&tf);
    if (rc == 0)
        r->n_queue = kept;
    if (rc == 0)
        rc = lt_store_commit(r->st);
    if (rc < 0)
        return stop(r, lt__store_write_failed(r->st, o->run.db, rc));
    if (r->incremental)
        fprintf(stderr,
                "litmus: reused %zu verdicts of an earlier run; "
                "%zu mutants to run\n", r->n_reused, r->n_queue);
    return 0;
}

/* Run: every queued mutant on the executor (score_mutants.c), then the
 * duplicates of mutants an earlier, interrupted run finished, which took
 * no result from this run's batches.  0, or 1 with the exit code set. */
static int step_run(struct score_run *r)
{
    const struct lt_plan *plan = &r->plan;
    int rc = lt__score_run_mutants(r);
    if (rc != 0)
        return stop(r, rc);
    rc = lt_store_begin(r->st);
    for (size_t i = 0; rc == 0 && i < plan->mutants.count; i++) {
        if (r->mp[i].dup_of < 0 || !r->owned[i] ||
            lt_store_has_result(r->st, plan->mutants.items[i].id))
            continue;
        struct lt_mutant rm;
        struct lt_result rr;
        int has = 0;
        memset(&rm, 0, sizeof(rm));
        memset(&rr, 0, sizeof(rr));
        if (lt_store_get_mutant(r->st,
                                plan->mutants.items[r->mp[i].dup_of].id, &rm,
                                &rr, &has) == 0 && has) {
            memcpy(rr.mutant_id, plan->mutants.items[i].id, 17);
            char *d = xasprintf("same code as mutant %s", rm.id);
            free(rr.detail);
            rr.detail = d;
            rc = lt_store_put_result(r->st, &rr);
        }
        lt_mutant_clear(&rm);
        lt_result_clear(&rr);
    }
    if (rc == 0)
        rc = lt_store_commit(r->st);
    if (rc < 0)
        return stop(r, lt__store_write_failed(r->st, r->o->run.db, rc));
    /* What --max-time left: the mutants of this run without a result. */
    for (size_t i = 0; r->n_left && i < plan->mutants.count; i++) {
        int has = r->owned[i] ? lt_store_has_result(r->st,
                                                    plan->mutants.items[i].id)
                              : 1;
        if (has < 0)
            return stop(r, lt__store_write_failed(r->st, r->o->run.db, has));
        r->n_not_run += !has;
    }
    return 0;
}

/* Finish: the run's figures (for `litmus report`, `make bench` and the
 * curious, docs/scale.md) and "complete", or, when --max-time left
 * mutants without a result, the budget's stop (the store stays
 * unfinished: the same command resumes it); then the report, with those
 * mutants as not_run.  The exit code is the report's (1 below
 * --fail-under, on the verdicts there are). */
static int step_finish(struct score_run *r)
{
    const struct lt_score_opts *o = r->o;
    double t_end = lt__now();
    long zyg_rss = 0;
    int used = 0;
    for (int i = 0; i < lt_exec_lane_slots(r->lane); i++) {
        used += lt_exec_lane_slot_used(r->lane, i);
        long kb = lt__peak_rss_kb(lt_exec_lane_zygote_pid(r->lane, i));
        if (kb > zyg_rss)
            zyg_rss = kb;
    }
    static const char *const keys[] = {
        "run_startup_s", "run_mutants_s", "run_baseline_s",
        "run_mutants_run", "run_timeout_rechecks",
        "run_zygote_peak_rss_kb", "run_engine_peak_rss_kb", "run_jobs",
        "run_wall_s", "run_cpu_s", "run_tasks", "run_reused",
        "run_baseline_reused", "complete"};
    char v[14][64];
    snprintf(v[0], sizeof(v[0]), "%.6f", r->t_ready - r->t_start);
    snprintf(v[1], sizeof(v[1]), "%.6f", t_end - r->t_baseline);
    snprintf(v[2], sizeof(v[2]), "%.6f", r->t_baseline - r->t_ready);
    snprintf(v[3], sizeof(v[3]), "%zu", r->n_queue);
    snprintf(v[4], sizeof(v[4]), "%zu", r->n_rechecks);
    snprintf(v[5], sizeof(v[5]), "%ld", zyg_rss);
    snprintf(v[6], sizeof(v[6]), "%ld", lt__peak_rss_kb(0));
    snprintf(v[7], sizeof(v[7]), "%d", used);
    /* Throughput figures: wall and CPU seconds of this process and its
     * runners, and its tasks (every mutant it owns, run or decided
     * without a run). */
    snprintf(v[8], sizeof(v[8]), "%.6f", t_end - r->t_start);
    snprintf(v[9], sizeof(v[9]), "%.6f", run_cpu_seconds(r->lane));
    snprintf(v[10], sizeof(v[10]), "%zu", r->n_owned);
    snprintf(v[11], sizeof(v[11]), "%zu", r->n_reused);
    snprintf(v[12], sizeof(v[12]), "%zu", r->n_tests_reused);
    snprintf(v[13], sizeof(v[13]), "1");
    /* A budget's stop: "complete" stays "0", and the stop is said. */
    size_t n_keys = sizeof(keys) / sizeof(*keys) - (r->n_not_run > 0);
    int rc = lt_store_begin(r->st);
    for (size_t k = 0; rc == 0 && k < n_keys; k++)
        rc = lt_store_set_meta(r->st, keys[k], v[k]);
    if (rc == 0 && r->n_not_run > 0) {
        char secs[32];
        snprintf(secs, sizeof(secs), "%.3f", o->max_time);
        rc = lt_store_set_meta(r->st, LT_META_BUDGET_STOP, secs);
    }
    /* Only figures: a failure here loses no result, but the next write
     * would fail the same way, so say so now. */
    if (rc == 0)
        rc = lt_store_commit(r->st);
    if (rc < 0)
        return stop(r, lt__store_write_failed(r->st, o->run.db, rc));
    if (r->n_not_run > 0)
        fprintf(stderr, "litmus: --max-time reached: %zu of %zu mutants "
                "not run (not_run in the report, left out of the score); "
                "the same command runs them\n", r->n_not_run, r->n_owned);
    return stop(r, lt__report_score(r->st, o->format, o->fail_under, stdout,
                                    &o->report));
}

/* Releases everything the steps made; a store this run created and left
 * on bad input (exit 2) is removed. */
static void run_close(struct score_run *r)
{
    const struct lt_score_opts *o = r->o;
    lt__changed_free(r->since, r->plan.n_files);
    if (r->old)
        old_set_free(r->old);
    free(r->old);
    free(r->rkeys);
    lt__baseline_free(&r->base);
    lt__baseline_unload(r);
    lt_exec_close(&r->ex);
    for (size_t k = 0; r->narrow_args && k <= r->n_narrow_files; k++)
        free(r->narrow_args[k]); /* the files, then --rootdir */
    free(r->narrow_args);
    lt__score_mutants_free(r);
    lt_telemetry_close(r->tm);
    if (r->scratch) {
        lt_sandbox_scratch_remove(r->scratch);
        free(r->scratch);
    }
    free(r->args);
    free(r->subjects);
    free(r->queue);
    free(r->has_result);
    free(r->owned);
    free(r->cwd);
    free(r->pytest_failure);
    lt_pyenv_clear(&r->pyenv);
    for (size_t i = 0; r->mp && i < r->plan.mutants.count; i++)
        lt__mutants_clear(&r->mp[i].a, 1);
    free(r->mp);
    lt_store_close(r->st);
    if (r->exit_code == 2 && !r->db_existed) {
        static const char *const suffixes[] = {"", "-wal", "-shm", "-journal",
                                               ".lock"};
        for (size_t i = 0; i < sizeof(suffixes) / sizeof(*suffixes); i++) {
            char *p = xasprintf("%s%s", o->run.db, suffixes[i]);
            unlink(p);
            free(p);
        }
    }
    lt__plan_free(&r->plan);
}

/* Contract: see engine.h. */
int lt_score(const struct lt_score_opts *o)
{
    struct score_run r;
    memset(&r, 0, sizeof(r));
    r.o = o;
    r.exit_code = LT_EXIT_ENGINE;
    r.db_existed = 1;
    r.runner = o->runner;
    lt_exec_init(&r.ex, o->run.jobs > 0 ? o->run.jobs : lt__online_cores());
    if (!step_plan(&r) && !step_resume(&r) && !step_baseline(&r) &&
        !step_reuse(&r) && !step_run(&r))
        step_finish(&r);
    run_close(&r);
    return r.exit_code;
}
