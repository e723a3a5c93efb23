/* Shared between the files of `litmus patches`: patches.c (the run: its
 * tasks' outcomes on the executor, step by step), patches_input.c (the
 * manifest, patches and inputs; shards), patches_units.c (units and their
 * cache in the store), patches_mutants.c (a text's mutants and their
 * sample), patches_tasks.c (the queue, a task's tests, stored layers),
 * patches_eval.c (evidence from runs and the verdict rules),
 * patches_sample.c (sampling arithmetic), patches_report.c (reports from
 * the store).  Calls go one way: patches.c -> patches_units.c ->
 * patches_mutants.c -> patches_tasks.c (scripts/layers.py checks that no
 * two files of the folder call each other).  Internal to engine/.
 * SPDX-License-Identifier: MIT */
#ifndef LT_ENGINE_PATCHES_INTERNAL_H
#define LT_ENGINE_PATCHES_INTERNAL_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "engine/engine.h"
#include "engine/core/exec.h"
#include "engine/core/progress.h"
#include "engine/core/store.h"
#include "engine/core/verdict.h"
#include "operators/operators.h"
#include "runners/runner.h"
#include "engine/jobs/patches/patches_store.h"

#define LT_PATCHES_SCHEMA "litmus.patches/1"
#define LT_PATCH_MAX_TEXT (4u << 20)   /* larger patch texts are not run */

/* Run flags of each kind of child (runners/runner.h).  The runs of a
 * text's tests are in process mode: its tests may start processes (its
 * command line) or serve on loopback, and those see the text bound over
 * the buggy file.  Layer 1 reports whether any test did ("processes" in
 * its evidence); the many mutant runs of a text pay for process mode only
 * then. */
#define LT_PF_TESTS (LT_RUN_UNTRUSTED | LT_RUN_PROCESSES)
#define LT_PF_REF_MAIN (LT_PF_TESTS | LT_RUN_CAPTURE | LT_RUN_COVERAGE)
#define LT_PF_REF_HELD (LT_PF_TESTS | LT_RUN_CAPTURE)
#define LT_PF_L1 (LT_PF_TESTS | LT_RUN_COVERAGE | LT_RUN_GUARD_EACH | \
                  LT_RUN_CHECK_EQ)
#define LT_PF_HELD (LT_PF_TESTS | LT_RUN_GUARD_EACH | LT_RUN_CHECK_EQ)
#define LT_PF_DIFF (LT_RUN_UNTRUSTED | LT_RUN_CHECK_EQ)
#define LT_PF_MUT LT_RUN_UNTRUSTED /* | LT_RUN_PROCESSES, see above */

struct unit;

/* One program entry: from the manifest, or the single --buggy program. */
struct pprog {
    char *name;
    char *buggy, *tests, *reference, *held_out, *inputs; /* absolute */
    char *precondition;      /* the user's precondition file, or NULL */
    char *function;          /* manifest "function", or NULL */
    struct unit *unit;
    size_t n_patches;
};

/* A distinct text of a unit (a candidate, the reference fix, or both),
 * with the evidence each layer produced, as stored. */
struct lt__line_index;
struct lt__mut_sample;

struct ptext {
    char sha[65];
    char *text;
    size_t len;
    int is_ref, is_cand;
    json_t *l1, *held, *diff, *mut, *sim; /* NULL until known */
    int q_l1, q_held, q_diff, mut_started;  /* work handed out */
    /* Mutation in progress. */
    struct lt_mutant_list ml;
    struct lt_change_analysis *an;
    long *dup_of;            /* per mutant: representative, or -1 */
    unsigned char *mv;       /* per mutant: enum lt_verdict, 0 = pending */
    size_t mut_left;         /* mutants still running */
    struct ptext *twin;      /* same code as this text: shares its score */
    char code[17];           /* lt_code_fingerprint, "" unknown */
    struct ptext *same;      /* an earlier candidate text that compiles to
                                the same code: every run is its */
    /* Its tests' coverage for selection (select.h), built once: per line
     * of the buggy file, the main tests (positions) that executed it. */
    struct lt__line_index *lines_idx;
    /* Its mutants' sample under --mutation-budget (patches_mutants.c). */
    struct lt__mut_sample *samp;
};

/* Kinds of child job. */
enum ptask_kind { T_REF_MAIN, T_REF_HELD, T_L1, T_HELD, T_DIFF, T_MUT };

/* One child job of a unit: an executor task (task.owner is the ptask). */
struct ptask {
    struct lt_task task;
    enum ptask_kind kind;
    struct unit *u;
    struct ptext *t;
    size_t mi;               /* T_MUT: mutant index in t->ml */
    int in_q;                /* counted in its unit's nq[] */
    long probe_index;        /* T_DIFF: last probe seen */
    int probe_phase;
    double probe_at;         /* when it was first seen */
    double probe_cpu_ns;     /* the child's CPU time then, or -1 */
    int probe_stuck;         /* killed by the probe watchdog */
    double call_timeout;     /* T_DIFF: seconds per call */
};

/* A program's runnable identity: entries with the same files and
 * settings share one unit, one pool and one cache. */
struct unit {
    char key[17];            /* fingerprint: the store's `program` */
    struct pprog *p0;        /* the first entry, for names and paths */
    int done;                /* its verdicts are stored */
    char *buggy_src;
    size_t buggy_len;
    size_t buggy_lines;
    char *module;            /* import name of the buggy file */
    char *cwd;
    char **args;
    size_t n_args;
    struct lt_subject subject;
    json_t *inputs;          /* extra inputs for the differential job */
    char *precondition;      /* the user's precondition source, or NULL */
    struct ptext *ref;       /* NULL without a reference fix */
    json_t *ref_main, *ref_held; /* reference runs, until stored */
    json_t *ref_json;        /* the stored "ref" layer */
    int q_ref;
    struct ptext **texts;
    size_t n_texts;
    /* Its executor lane: the zygotes, their pool (test ids once a zygote
     * is ready), the queued and running tasks. */
    struct lt_lane *lane;
    int have_tests;
    uint32_t *main_tests, *held_tests;
    size_t n_main, n_held;
    /* Queued tasks by priority (reference, layer 1, layer 2, mutants):
     * the lane's next task is the first of the highest. */
    size_t nq[4];
    int pending_work;        /* set while planning: something to run */
};

/* One patch of the input. */
struct patch {
    long long seq;
    struct pprog *prog;
    char *run_id;
    char *text;
    size_t len;
    char sha[65];
    struct ptext *pt;
    const char *origin;      /* file name, for messages */
    long line;               /* JSONL line, or 0 */
};

/* The state of one `litmus patches` run. */
struct patches_run {
    const struct lt_patches_opts *o;
    struct lt_store *st;
    struct pprog *progs;
    size_t n_progs;
    struct patch *patches;
    size_t n_patches, cap_patches;
    struct unit **units;
    size_t n_units;
    struct lt_exec ex;  /* its fatal code stops the run */
    char *scratch;
    FILE *run_log;
    size_t decided, n_texts;
    struct lt_progress prog;
    double t_start;
    size_t zygotes_started, jobs_started[T_MUT + 1];
    /* The ops of its tasks (patches.c's): differential jobs, the others. */
    const struct lt_task_ops *task_ops, *diff_ops;
};

/*** patches_tasks.c (the bottom file: it calls none of the others) ***/

/* Queues task k on its unit's lane; a retry goes first among its kind. */
void lt__patches_submit(struct patches_run *r, struct ptask *k, int retry);
/* A new task of the given kind for text t of unit u, with r's task ops
 * (caller submits). */
struct ptask *lt__patches_task_new(const struct patches_run *r,
                                   struct unit *u, enum ptask_kind kind,
                                   struct ptext *t);
/* The lane's next task (its `next` op): the first queued of the highest
 * priority, the reference's runs first, then layer 1, layer 2, the
 * mutants. */
struct lt_task *lt__patches_next(struct lt_lane *l);
/* Forgets that task k is queued (it left the lane's queue). */
void lt__patches_unqueued(struct ptask *k);
/* Sets the per-test arrays of job spec over the pool positions idx[0..n)
 * (per-test coverage when cov). */
void lt__patches_job_tests(struct unit *u, struct lt_run_spec *spec,
                           const uint32_t *idx, size_t n, int cov);
/* Loads a stored layer of text t into *out (left alone when none).
 * 0, or a negative store code. */
int lt__pt_load_layer(struct patches_run *r, struct unit *u,
                      struct ptext *t, const char *layer, json_t **out);
/* Stores a layer of the text with digest sha in the executor's batch. */
void lt__pt_store_layer(struct patches_run *r, struct unit *u,
                        const char *sha, const char *layer, json_t *v);
/* The per-test coverage a text's mutants are selected by: its layer 1's,
 * or the reference run's; NULL when unknown. */
const json_t *lt__pt_cov_of(const struct unit *u, const struct ptext *t);

/*** patches.c ***/

/* Opens the patch triage's store at db for a run and marks the run in
 * it: its tables, the previous run's verdicts cleared, its schema, shard
 * ("I/N", or "" for the whole triage: a store of another shard is
 * refused) and plan (the triage's fingerprint, for `litmus merge`), not
 * complete yet.  0, or an exit code after an error printed (*st NULL
 * when the store did not open). */
int lt__patches_store_open(const char *db, const char *schema,
                           const char *shard, const char *plan,
                           struct lt_store **st);

/*** patches_input.c ***/

/* The programs: the manifest's entries, or the single --buggy one, with
 * absolute paths.  0, or -1 after an error printed. */
int lt__pi_read_programs(struct patches_run *r);
/* The candidates of --patches (a JSONL file or a folder of .py files)
 * into r->patches.  0, or -1 after an error printed. */
int lt__pi_read_patches(struct patches_run *r);
void lt__pi_prog_free(struct pprog *p);
/* The patch text inside a markdown code fence of s[0..n)
 * (docs/patches.md, "Inputs"); a heap copy, its length in *out_len. */
char *lt__strip_fence(const char *s, size_t n, size_t *out_len);
/* A program's extra inputs for the differential job, normalised to
 * [{"function", "args", "kwargs"}]; NULL after an error printed. */
json_t *lt__pi_read_inputs(const char *path, const char *function);
/* The source of a user's precondition file, checked; NULL after an
 * error printed.  Caller frees. */
char *lt__pi_read_precondition(const char *path);
/* The folder of path, and its file name without extension (heap). */
char *lt__pi_dir_of(const char *path);
char *lt__pi_stem_of(const char *path);
/* The triage's plan as a string, for `litmus merge` (caller frees). */
char *lt__pi_fingerprint(const struct patches_run *r);
/* Keeps the candidates dealt to shard index/count. */
void lt__pi_shard(struct patches_run *r, unsigned index, unsigned count);

/*** patches_units.c ***/

/* Builds the unit of program p, or finds the one it shares.  0, or -1
 * after an error printed. */
int lt__pu_unit_for(struct patches_run *r, struct pprog *p);
/* The text of unit u with digest sha, added when new. */
struct ptext *lt__pu_text_of(struct unit *u, const char *text, size_t len,
                             const char *sha);
/* Frees the tasks of a run that stopped early (before lt_exec_close). */
void lt__pu_free_tasks(struct lt_exec *ex, struct unit *u);
/* Frees a unit and its texts (after lt_exec_close). */
void lt__pu_free(struct unit *u);
/* Loads what the store knows of u's texts and sets u->pending_work.  0,
 * or a negative store code after an error printed. */
int lt__pu_plan(struct patches_run *r, struct unit *u);
/* Whether t passed its own tests (layer 1). */
int lt__pu_l1_passed(const struct ptext *t);
/* Points each candidate that compiles like an earlier one to it. */
void lt__pu_share_by_code(struct unit *u);

/*** patches_mutants.c ***/

#define LT_PM_TIMING ((size_t)-1) /* ptask.mi of a text's timing run */

/* Starts the mutation layer of text t: its mutants, the verdicts already
 * stored, and the runs of its first sample. */
void lt__pm_start(struct patches_run *r, struct unit *u, struct ptext *t);
/* Whether a stored mutation result holds under the current budget. */
int lt__pm_budget_same(const struct lt_patches_opts *o, const json_t *mut);
/* What the child of mutant task k runs; its CPU budget in *cpu (s). */
void lt__pm_prepare(const struct patches_run *r, struct ptask *k,
                    struct lt_launch *la, double *cpu);
/* Records the run of mutant task k.  1 when k was queued again (an
 * engine error, once), else 0: the caller frees k. */
int lt__pm_finished(struct patches_run *r, struct ptask *k,
                    const struct lt_run_report *j);
/* Mutant task k cannot run (why says so); the caller frees k. */
void lt__pm_lost(struct patches_run *r, struct ptask *k, const char *why);
/* Frees the mutation state of a text. */
void lt__pm_text_free(struct ptext *t);

/*** patches_eval.c ***/

/* Evidence of a layer-1 (held = 0) or held-out (held = 1) run. */
json_t *lt__pe_tests(const struct unit *u, const struct lt_run_report *j,
                     int held,
                     const unsigned char *ref_skipped);
/* How an untrusted run that needs every test's outcome ended, by the
 * shared rule (lt_verdict_decide): NULL when it completed (applied,
 * sandboxed, every test reported, a clean end: the caller reads the
 * outcomes), else a status object {status, detail, duration_ms} saying
 * why it ended early: syntax, tamper, import_error, unchanged, timeout,
 * crash or error.  Repository candidates use it (repo.c). */
json_t *lt__pe_run_end(const struct lt_suite *suite,
                       const struct lt_run_report *j,
                       double ms);
/* Evidence of a reference run; sets *why (caller frees) when the
 * reference does not pass. */
json_t *lt__pe_reference(const struct unit *u, const struct lt_run_report *j,
                         int held, char **why);
/* Evidence of a differential job (probe_stuck: the watchdog killed it on
 * a call that made no progress). */
json_t *lt__pe_diff(const struct lt_run_report *j, int probe_stuck);
/* Verdict of one mutant run; *detail and *killed_by heap or NULL. */
enum lt_verdict lt__pe_mutant(const struct lt_suite *suite,
                              const struct lt_run_report *j,
                              char **detail, char **killed_by);
/* Coverage part of a passing run: cpu_ms, events, lines per main test. */
json_t *lt__pe_coverage(const struct unit *u, const struct lt_run_report *j);

/* The verdict of a patch from its text's evidence and its unit's
 * reference evidence; fills the fields (heap strings, evidence object
 * owned by the caller). */
struct pverdict {
    const char *verdict, *reason; /* static strings */
    char *detail;
    json_t *evidence;
    double duration_ms;
};
void lt__pe_decide(const struct lt_patches_opts *o, const struct unit *u,
                   const struct ptext *t, const struct ptext *ref,
                   struct pverdict *out);

/* Strict JSON helpers for stored and hostile JSON. */
double lt__pe_num(const json_t *o, const char *key, double dflt);
const char *lt__pe_str(const json_t *o, const char *key);

/*** patches_sample.c ***/

/* A sample smaller than this says almost nothing: it is the least run. */
#define LT_PS_MIN_SAMPLE 4

/* Largest size of the grid 1, 2, 3, 4, 6, 8, 12, 16, 24, ... at most x;
 * 0 below 1. */
size_t lt__ps_grid_floor(double x);
/* Shuffles idx[0..n) in an order that depends on the hex digest sha
 * alone. */
void lt__ps_shuffle(const char *sha, size_t *idx, size_t n);
/* The first sample size for members costing cost[0..n) in sample order. */
size_t lt__ps_first(const double *cost, size_t n, double budget);
/* The sample size once the first k members ran at a model cost of spent
 * (estimated: est). */
size_t lt__ps_extend(size_t k, size_t n, double spent, double est,
                     double budget);
/* The 95% Wilson score interval of d/v. */
void lt__ps_wilson(double d, double v, double *lo, double *hi);
/* The score of a sampled text and its 95% interval; -1 when undefined. */
double lt__ps_score(double d, double v, double n, double pop, double dk,
                    double vk, double *lo, double *hi);

/*** patches_report.c ***/

/* One CSV field to f (NULL: empty), RFC 4180 quoting, then a comma, or
 * a line break when last. */
void lt__csv_field(FILE *f, const char *s, int last);
/* Renders every stored patch row: text or JSON to out, CSV to csv_path
 * when set.  Returns the exit code (0, 1 on an overfitting patch, 3 on
 * an error verdict or a store failure). */
int lt__patches_report(struct lt_store *st, const struct lt_patches_opts *o,
                       double elapsed_s, size_t n_texts, FILE *out);

#endif
