/* What the files of `litmus score` share.  A run goes through five steps,
 * each in a function of its own (score.c): plan (the subject files, their
 * mutants, the zygotes started), resume (the store opened, an earlier
 * run's results kept or reused), baseline (every test run on the original
 * code, with coverage), run (the mutants, on the executor) and finish (the
 * run's figures and the report).  The plan lives in score_plan.c, the
 * baseline and the selection of tests it allows in score_baseline.c, the
 * mutants' runs in score_mutants.c.  Internal to engine/jobs/score.
 * SPDX-License-Identifier: MIT */
#ifndef LT_ENGINE_SCORE_INTERNAL_H
#define LT_ENGINE_SCORE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "engine/core/exec.h"
#include "engine/core/mutate.h"
#include "engine/core/progress.h"
#include "engine/core/pyenv.h"
#include "engine/engine.h"
#include "operators/operators.h"
#include "runners/runner.h"

/*** The plan (score_plan.c) ***/

struct lt_plan_file {
    char *path;   /* absolute */
    char *source;
    size_t len;
    char sha[65];
};

/* The subject files and every mutant of them, in file then source order. */
struct lt_plan {
    struct lt_plan_file *files;
    size_t n_files;
    struct lt_mutant_list mutants;
    size_t *mutant_file; /* per mutant: index into files */
};

/* Per mutant, what planning decided before anything runs. */
struct mplan {
    struct lt_change_analysis a;
    long dup_of;      /* representative with the same code, or -1 */
    int rebind;       /* a.swap holds its statement, executed again in the
                         imported module instead of a fresh import
                         (score_readers.c) */
};

struct lt_lines;

/* Finds, reads and checks every subject file (UTF-8, fingerprint); the
 * mutants come later, from lt__plan_mutants().  Errors are input errors
 * (exit 2) with a one-line message already printed. */
int lt__plan_files(const struct lt_score_opts *o, struct lt_plan *plan);

/* Generates the mutants of every file of the plan, in file order, keeping
 * to the changed lines of since (NULL: all).  0 or a negative code after
 * printing why. */
int lt__plan_mutants(const struct lt_score_opts *o, struct lt_plan *plan,
                     const struct lt_lines *since);

void lt__plan_free(struct lt_plan *p);

/* Which mutants shard index/count owns (owned[i] = 1; count 0: all), from
 * the plan alone; the number owned (contract in score_plan.c). */
size_t lt__plan_shard_owned(const struct lt_plan *plan,
                            const struct mplan *mp, unsigned index,
                            unsigned count, unsigned char *owned);

/* qsort's comparison of two char pointers by strcmp. */
int lt__cmp_str(const void *a, const void *b);

/*** The baseline (score_baseline.c) ***/

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
    unsigned features;         /* have_features: the sandbox the runs'
                                  children had (LT_SBX_*, but processes);
                                  else the zygotes' (lt_suite.features) */
    int have_features;
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
    /* Per statement of a queued wide mutant (module-level or import-time
     * code), sorted: the tests that can observe it, or NULL for every
     * test (score_readers.c). */
    struct narrow {
        size_t file;
        int line, end_line;
        unsigned char *mark;     /* per test */
    } *narrow;
    size_t n_narrow;
};

/* Children the mutants will want, judged early, while the first baseline
 * run goes on: when its tests mostly wait, the extra zygotes start then
 * (on a CPU the waiting leaves idle) instead of after the baseline, when
 * the mutants need the CPU.  The count is settled after the baseline. */
struct early_jobs {
    int on;                  /* no --jobs, more mutants than children */
    int cap;                 /* mutants to run */
    double t0, cpu0;         /* first look at the child, after SANDBOXED */
    pid_t pid;               /* the child looked at */
    int want;                /* > 0: grow to this; -1: judged, no growth */
    int applied;
};

/* Allocates *b for the pool's tests and the plan's files, with the
 * zygote's import-time lines; no test covers anything yet. */
void lt__baseline_init(struct baseline *b, const struct lt_plan *plan,
                       const struct lt_suite *suite);

/* Records that test executed line of subject file (out-of-range lines
 * are dropped). */
void lt__baseline_cover(struct baseline *b, size_t file, size_t line,
                        uint32_t test);

/* Runs tests[0..n_tests) (collection order; none: nothing to do)
 * `runs` times, numbered from first_run (run 0 decides which tests pass;
 * later runs find the flaky), on the lane's zygotes side by side, and
 * fills their entries of *b.  A single run is shared out at once in
 * chunks of whole test modules; several start whole, and give way to
 * chunks when the tests mostly wait.  Shows the progress of the runs
 * (test runs done, from the children's results) when they last long
 * enough (--progress, --no-progress).  0, or an exit code after printing
 * why (failing tests, a timeout, a run that did not complete). */
int lt__baseline_run(struct lt_exec *ex, struct lt_lane *lane,
                     const struct lt_plan *plan,
                     const struct lt_score_opts *o, struct baseline *b,
                     struct early_jobs *early, const uint32_t *tests,
                     size_t n_tests, int first_run, int runs);

/* 1 when a baseline of n_tests (128 or more) is worth staging: its first
 * run shared out in chunks, then the flaky-finding runs on the tests
 * some mutant runs; else every run goes whole, side by side, from the
 * start (a small suite: two children at once cost less than two in a
 * row and than the chunks' children). */
int lt__baseline_staged(const struct lt_exec *ex, size_t n_tests);

/* Each line's tests in collection order, once, and each file's reaching
 * tests, from what the runs and the store gave so far. */
void lt__baseline_index(const struct lt_suite *suite,
                        const struct lt_plan *plan,
                        struct baseline *b);

/* Once every test has its entry (run or reused): the index, the flaky
 * warnings.  0, or an exit code after printing why (no test passes
 * reliably). */
int lt__baseline_settle(const struct lt_suite *suite,
                        const struct lt_plan *plan,
                        struct baseline *b);

void lt__baseline_free(struct baseline *b);

/* The tests a mutant runs: those covering its lines (every runnable test
 * for a change to module or class-body code, or to a line that runs at
 * import), fastest first.  Returns the count; *out is the caller's to
 * free. */
size_t lt__baseline_select(const struct lt_suite *suite,
                           const struct baseline *b,
                           const struct lt_mutant *m, size_t file,
                           int structural, uint32_t **out);

/* A test's coverage for the store: "FILE:1-4,9\n" per subject file it
 * touched, or NULL. */
char *lt__baseline_coverage_text(const struct baseline *b,
                                 const struct lt_plan *plan, uint32_t test);

/* Children at once for the mutants when --jobs is not given, from the
 * baseline's CPU share of its tests' wall time (contract in
 * score_baseline.c). */
int lt__children_for(const struct baseline *b, size_t nt, int cores,
                     long zygote_kb);
int lt__online_cores(void);
/* The largest peak RSS of the lane's zygotes, in KiB. */
long lt__zygote_peak_kb(const struct lt_lane *lane);

/*** One run of `litmus score` (score.c) ***/

struct old_set; /* an earlier run's verdicts (score.c) */
struct mrun;    /* the mutants' runs (score_mutants.c) */

/* What the steps of one run hand on to each other, and the run's exit
 * code once a step has ended it. */
struct score_run {
    const struct lt_score_opts *o;
    int exit_code;
    double t_start, t_ready, t_baseline;
    /* plan */
    struct lt_plan plan;
    struct mplan *mp;            /* per mutant */
    unsigned char *owned;        /* per mutant: this shard's */
    size_t n_owned;
    struct lt_lines *since;      /* --since: the changed lines */
    struct lt_pyenv pyenv;
    char *cwd, *scratch;
    char **args;                 /* the test arguments, then pytest's */
    struct lt_subject *subjects;
    struct lt_runner_config cfg;
    struct lt_telemetry *tm;
    struct lt_exec ex;
    struct lt_lane *lane;
    const struct lt_suite *suite;
    struct lt_progress collect;  /* the zygotes' import and collection,
                                    shown while the run waits for them */
    int runner;                  /* the runner the tests run with: o's,
                                    or unittest when pytest could not
                                    collect a unittest suite (below) */
    char *pytest_failure;        /* set: pytest could not collect a suite
                                    that looks like unittest's, and the
                                    unittest runner is tried (the message
                                    is the error if it fails too) */
    /* resume */
    struct lt_store *st;
    int db_existed;              /* 0: this run made the store */
    struct old_set *old;
    int incremental;             /* a finished earlier run is reused */
    size_t *queue;               /* the mutants to run, in order */
    size_t n_queue;
    unsigned char *has_result;   /* per mutant */
    /* baseline */
    struct baseline base;
    char baseline_env[65];       /* lt__baseline_env(); "" not known */
    size_t n_tests_reused;       /* tests whose stored baseline is taken */
    struct stored_baseline *stored; /* an earlier run's (lt__baseline_load) */
    struct lt_import_digest *imports; /* per file: what importing it does */
    int deferred;                /* zygotes start after the resume step,
                                    on the tests the stored baseline says
                                    are needed */
    int narrowed;                /* they collect only some test files */
    char **narrow_args;          /* their arguments then: the files and
                                    --rootdir (owned), then pytest's
                                    arguments */
    size_t n_narrow_files;
    size_t n_test_files_all;     /* the stored baseline's test files */
    /* reuse */
    char (*rkeys)[65];
    size_t n_reused;
    /* run */
    struct mrun *mr;
    size_t n_rechecks;           /* wall-clock timeouts run again alone */
    size_t n_left;               /* queued mutants --max-time left */
    size_t n_not_run;            /* mutants of the run without a result
                                    (those left and their duplicates) */
};

/*** Who can observe a wide mutant (score_readers.c) ***/

/* For every queued mutant of module-level or import-time code, the tests
 * that can observe it (the readers of what its statement binds) into
 * r->base.narrow, where lt__baseline_select finds them.  Nothing when
 * there is no such mutant, the runner is not pytest, or --full-matrix. */
void lt__baseline_readers(struct score_run *r);

/* The tests that can observe a wide mutant on lines [line, end_line] of
 * file (per test), or NULL: every test. */
const unsigned char *lt__baseline_narrow(const struct baseline *b,
                                         size_t file, int line, int end_line);

/* 1 when a line of the mutant ran while the tests were imported. */
int lt__baseline_at_import(const struct baseline *b,
                           const struct lt_mutant *m, size_t file);

/* lt__baseline_select for the plan's mutant i (score_baseline.c). */
size_t lt__mutant_select(const struct score_run *r, size_t i, uint32_t **out);

/*** A stored baseline reused (score_baseline_reuse.c) ***/

/* Reads the stored baseline of an earlier run in r->st (unless
 * --fresh-baseline, a shard or a new store) into r->stored; unload frees
 * it and r->imports. */
void lt__baseline_load(struct score_run *r);
void lt__baseline_unload(struct score_run *r);

/* The digest of what every test's outcome depends on (the interpreter
 * and its packages, pytest's configuration, the tree's other Python
 * files, what importing each subject does) into r->baseline_env, after
 * the zygotes are ready; "" when it cannot be known.  A narrowed run
 * keeps the digest it was narrowed by. */
void lt__baseline_env(struct score_run *r);

/* Before any zygote, when the stored baseline applies and no queued
 * mutant may run at import: the test files the run needs (the tests to
 * run again, those covering a queued mutant, those with untraced
 * processes), sorted, relative to the working directory, when that
 * leaves a file out (r->narrowed is set); else NULL. */
char **lt__baseline_narrow_collection(struct score_run *r, size_t *n_files);

/* Takes the stored baseline of every collected test that nothing it
 * depends on has changed since (unless --fresh-baseline, a shard, or a
 * new store) into r->base, clearing its run_it entry; the number
 * taken. */
size_t lt__baseline_take_stored(struct score_run *r, unsigned char *run_it);

/* Stores the baseline: each test's time, outcome and coverage, what
 * reusing it needs, the environment's digest and the sandbox the tests
 * ran in.  0 or a negative code. */
int lt__baseline_store(struct score_run *r);

/*** The mutants' runs (score_mutants.c) ***/

/* The lane callbacks of score's zygotes. */
extern const struct lt_lane_ops lt__score_lane_ops;

/* Runs every mutant of r->queue on the executor, storing each verdict
 * (and its duplicates') in batches: longest first, or with --max-time
 * in the budget's order, until the budget (the mutants it leaves are
 * counted in r->n_left).  0, or the run's exit code. */
int lt__score_run_mutants(struct score_run *r);

/* Frees what lt__score_run_mutants() kept for the executor (after
 * lt_exec_close). */
void lt__score_mutants_free(struct score_run *r);

#endif
