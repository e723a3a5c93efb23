/* Shared by the files of `litmus dataset`: the programs read from the
 * input, the tasks (with a content-addressed cache in the store) and the
 * lanes that run them, on zygote pools or Java workers, and what each
 * file offers the files above it.  Internal to engine/.
 * SPDX-License-Identifier: MIT */
#ifndef LT_ENGINE_DATASET_INTERNAL_H
#define LT_ENGINE_DATASET_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "common/buf.h"
#include "engine/engine.h"
#include "engine/core/exec.h"
#include "engine/core/progress.h"
#include "engine/core/store.h"
#include "engine/jobs/dataset/dataset_store.h"

struct ds_run;
struct ds_task;

/*** Lanes: one kind of runner each ***/

/* A lane is the runners of one configuration: the bare lane (call
 * evaluation, no pytest) or one program's pytest lane (its file as the
 * subject, its tests collected), each an executor lane of zygotes; or a
 * Java program's lane, whose runs go to the run's one executor lane of
 * JVM workers.  The executor (engine/core/exec.h) starts and stops the
 * runners per slot as the work moves between lanes; all lanes share the
 * --jobs budget. */
struct ds_lane {
    struct lt_lane *xl;      /* the executor's lane: zygotes, queue */
    int bare;
    char *key;               /* fingerprint: cache keys of its runs */
    char *path, *source;     /* pytest lanes: the program file on disk */
    size_t len;
    char *tests, *cwd;
    char *args[2];
    struct lt_subject subject;
    int ran_tests;           /* --floor: test runs went here */
    double base_cpu_ms;      /* the baseline's test CPU time, or -1 */
    /* How the lane's tasks run, set by the file that made the lane
     * (dataset_exec.c: zygotes; dataset_java.c: JVM workers), which
     * lt__ds_submit (dataset_tasks.c, below both) calls back through:
     * run takes a task that no cache answered; stored, when set, hears
     * that a task's result came from the store. */
    void (*run)(struct ds_run *r, struct ds_task *t);
    void (*stored)(struct ds_run *r, struct ds_lane *l);
    /* Java lanes (dataset_java.c): they share the run's JVM lane of the
     * executor (ds_run.jvm; xl is NULL): any worker runs any program.
     * The test ids, sorted, from the first answer that listed them. */
    int java;
    char **java_tests;
    size_t n_java_tests;
    int java_tests_known;
};

/*** Tasks ***/

enum ds_task_kind {
    TK_CASES,    /* evaluate call expressions on a program text */
    TK_TESTS,    /* the lane's tests on a program text (whole file) */
    TK_BASELINE, /* the lane's tests on the program as on disk */
};

typedef void (*ds_done_fn)(struct ds_run *r, struct ds_task *t);

struct ds_task {
    struct lt_task xt;       /* the executor's part (xt.owner: this) */
    enum ds_task_kind kind;
    struct ds_lane *lane;
    char *source;            /* program text (owned) */
    size_t len;
    json_t *calls;           /* TK_CASES: array of expression strings */
    double call_timeout;     /* TK_CASES: per call, seconds */
    int trace;               /* TK_CASES: executed lines per call */
    int max_line;            /* TK_CASES: largest line a child may report
                                (0: the source's line count) */
    int untrusted;           /* user-supplied text: LT_RUN_UNTRUSTED */
    int stop_first;          /* TK_TESTS: stop at the first failure */
    uint32_t *tests;         /* TK_TESTS: test indices (NULL: all) */
    size_t n_tests;
    double budget_s;         /* CPU budget; wall is 3x + 1 s */
    char key[65];            /* cache key */
    json_t *result;          /* set when done (owned) */
    int cached;              /* the result came from the store */
    int nocache;             /* neither looked up nor stored (--floor) */
    double wall_ms;          /* of the run, 0 when cached */
    ds_done_fn done;
    void *owner;
    long tag;
    struct ds_task *next_ready;
    struct ds_task *followers; /* the same run submitted while this one
                                  runs: they get a copy of its result */
};

/*** The run ***/

struct ds_prog;

struct ds_stats {
    json_t *dropped;         /* reason -> count */
    json_t *by_op, *by_cat, *by_loc; /* emitted items */
    size_t programs, programs_skipped;
    size_t emitted, verified, candidates;
    size_t jobs_run, cache_hits, retries, engine_errors;
    /* --floor: what the same work costs at least */
    size_t floor_runs_cases, floor_runs_tests;
    double floor_tests_ms;   /* in-process test time of the test runs */
    double floor_timeout_ms; /* wall time of runs that hit a limit */
    json_t *floor_cases;     /* [[source, calls]] to run in one child */
    int floor_trace;
    /* Java: the workers' own CPU time compiling and running */
    double java_compile_ms, java_run_ms;
    size_t java_compiles, java_workers;
};

struct ds_run {
    const struct lt_dataset_opts *o;
    struct lt_exec ex;       /* runs every task (engine/core/exec.h) */
    struct ds_lane **lanes;
    size_t n_lanes;
    struct ds_lane *bare;
    char *scratch;
    struct lt_store *st;
    size_t outstanding;      /* tasks submitted and not yet done */
    struct ds_task *ready, *ready_tail; /* done, callback not yet run */
    json_t *memo;            /* cache key -> result of this process's runs */
    json_t *leaders;         /* cache key -> the task running it (address) */

    struct ds_prog *progs;
    size_t n_progs, next_emit;
    FILE *out;
    size_t tasks_done, tasks_total;
    double t_start, t_prepared, t_exec, t_first_job, t_last_job;
    struct lt_progress prog; /* programs done of n_progs */
    struct ds_stats s;
    json_t *vocab;           /* rewrite --vocab, parsed */
    struct ds_task *sync_done; /* --floor: the task run_sync waits for */
    struct lt_lane *jvm;     /* --lang java: the executor's lane of JVM
                                workers (dataset_java.c) */
    int is_java;             /* the run's programs are Java */
    int call_rc;             /* last failed lt__ds_call: code, message */
    char *call_err;
};

/*** Programs (input records) ***/

struct ds_prog {
    size_t index;            /* input order */
    char *where;             /* "FILE:LINE" for messages */
    json_t *rec;             /* the input record */
    json_t *id;              /* the id as given (string or integer) */
    char *id_str;
    char *code;              /* program text */
    size_t len;
    char *path;              /* absolute program file, or NULL */
    char *tests;             /* absolute tests path, or NULL */
    json_t *inputs;          /* call expressions, or NULL */
    int untrusted;           /* code from the record, not from a file */
    struct ds_lane *lane;    /* verification runs go here */
    ds_done_fn ref_done;     /* gets the reference run */
    double base_ms;          /* rewrite of a faulty program: the child time
                                of its fault-free original, -1 unknown */
    int done;
    json_t *items;           /* output records, in order */
    struct lt_buf raw;       /* ... or already written as JSON Lines */
    void *m;                 /* the mode's state */
};

/* The files form layers: each calls only the files declared before it
 * here (and the table, dataset_store.h), from dataset_helpers.c at the
 * bottom to dataset.c at the top; a lower file reaches a higher one only
 * through a pointer (a lane's hooks, a task's callback). */

/*** dataset_helpers.c: what every file shares ***/

int lt__ds_count_lines(const char *s, size_t len);
char *lt__ds_id_text(const json_t *id);
uint64_t lt__ds_hash(const char *s);
uint64_t lt__ds_mix(uint64_t x);
void lt__ds_shuffle(size_t *v, size_t n, uint64_t seed);
void lt__ds_dump(const json_t *v, struct lt_buf *b);
void lt__ds_dump_str(const char *s, size_t n, struct lt_buf *b);
void lt__ds_dump_real(double d, struct lt_buf *b);
char *lt__ds_udiff(const char *a, const char *b, const char *name);
/* Calls a generator of operators/dataset.py (lt_dataset_call); args is
 * consumed.  The answer, or NULL with r->call_rc (LT_EUSAGE: the generator
 * rejects the input) and r->call_err set. */
json_t *lt__ds_call(struct ds_run *r, const char *fn, json_t *args,
                    const char *where);
/* Parses every call expression of the array calls; 0, or an exit code
 * (2: one is not an expression) after one error line. */
int lt__ds_check_calls(struct ds_run *r, const char *where, const char *id,
                       json_t *calls);
const char *lt__ds_test_id(const struct ds_lane *l, long idx);
int lt__ds_case_usable(const json_t *c);
/* The verdict of a run on a program text against a reference run of the
 * same program: behaviour changed (1), the same (0), or unknown (-1, the
 * run failed for the engine's own reasons).  *witness (new reference, or
 * NULL) says where it changed. */
int lt__ds_compare(const struct ds_task *ref, const struct ds_task *t,
                   json_t **witness);
/* The run did not compile (Java): the compiler's first message, else
 * NULL. */
const char *lt__ds_compile_error(const struct ds_task *t);
void lt__ds_drop(struct ds_run *r, const char *reason, size_t n);
/* Adds n to a summary count: which 0 by operator, 1 by category, 2 by
 * location; nothing for n == 0. */
void lt__ds_count(struct ds_run *r, int which, const char *key, size_t n);
void lt__ds_count_item(struct ds_run *r, const char *op, const char *cat,
                       const char *loc);
void lt__ds_emit_now(struct ds_run *r, struct ds_prog *p);
void lt__ds_prog_done(struct ds_run *r, struct ds_prog *p);
/* The run's scratch directory exists (r->scratch); 0 or negative after
 * an error line. */
int lt__ds_scratch(struct ds_run *r);

/*** dataset_tasks.c: tasks, their caches and results ***/

struct ds_task *lt__ds_task_new(enum ds_task_kind kind, struct ds_lane *l,
                                const char *source, size_t len);
void lt__ds_task_free(struct ds_task *t);
void lt__ds_submit(struct ds_run *r, struct ds_task *t);
/* A run of t started at started_at is over with result res (consumed):
 * counted; an engine failure (status error) is handed back to the
 * executor once (0); else 1, and the caller keeps res as the result. */
int lt__ds_run_over(struct ds_run *r, struct ds_task *t, json_t *res,
                    double started_at);
/* The lost hook of the dataset's tasks (lt_task_ops.lost): an error. */
void lt__ds_task_lost(struct lt_exec *ex, struct lt_task *xt,
                      const char *why);
/* A task's result is known (t->result): stored, handed to the tasks
 * waiting for the same run, and its callback queued. */
void lt__ds_result(struct ds_run *r, struct ds_task *t);

/*** dataset_java.c: the Java workers ***/

struct ds_lane *lt__ds_lane_java(struct ds_run *r, const char *path,
                                 const char *root, const char *tests,
                                 char **err);
/* Frees the tasks the JVM lane still holds (a run that stopped early). */
void lt__ds_java_close(struct ds_run *r);

/*** dataset_exec.c: the executor, its zygote lanes, --floor ***/

struct ds_lane *lt__ds_lane_bare(struct ds_run *r);
struct ds_lane *lt__ds_lane_tests(struct ds_run *r, const char *path,
                                  const char *tests, char **err);
int lt__ds_loop(struct ds_run *r);
void lt__ds_exec_close(struct ds_run *r);
int lt__ds_floor(struct ds_run *r, json_t *summary);

/*** The modes: dataset_select.c, dataset_variants.c ***/

/* Modes: prepare runs for every program before anything executes (the
 * generators; 0, or an exit code after a one-line error naming the
 * record); start submits the program's first tasks; free releases the
 * mode's state of a program (p->m), done or not. */
int lt__ds_select_prepare(struct ds_run *r, struct ds_prog *p);
void lt__ds_select_start(struct ds_run *r, struct ds_prog *p);
void lt__ds_select_free(struct ds_prog *p);
int lt__ds_typed_prepare(struct ds_run *r, struct ds_prog *p);
int lt__ds_faults_prepare(struct ds_run *r, struct ds_prog *p);
void lt__ds_variants_start(struct ds_run *r, struct ds_prog *p);
void lt__ds_variants_free(struct ds_prog *p);
int lt__ds_rewrite_prepare(struct ds_run *r, struct ds_prog *p);
void lt__ds_rewrite_start(struct ds_run *r, struct ds_prog *p);
void lt__ds_rewrite_free(struct ds_run *r, struct ds_prog *p);

/* A run of a variant text of p checked against the reference ref. */
struct ds_task *lt__ds_variant_task(struct ds_run *r, struct ds_prog *p,
                                    const struct ds_task *ref,
                                    const char *text, size_t len,
                                    int whole_suite);

/* dataset.c, the top, holds the job (lt_dataset, engine.h). */

#endif
