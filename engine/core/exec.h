/* The one executor of the engine's jobs (score, patches, dataset).
 *
 * A lane is the runners of one configuration, of one of two kinds:
 * zygotes (one pytest collection, or the bare call-evaluation runner),
 * which fork a child per task, or Java workers (a warm JVM each,
 * runners/jvm.h), which run one task at a time in-process.  A task is
 * one run on one of them.  The executor owns everything between "this
 * task should run" and "here is what its run reported": the slots of
 * every lane under one --jobs budget, starting and restarting runners,
 * handing tasks to idle ones, the event loop over every runner and
 * child (frames and answers as hostile input, wall deadlines, CPU
 * budgets), one retry of a task whose runner died, batched store
 * commits, progress, interruption and the run's own deadline
 * (--max-time).  Jobs say what a task runs (prepare) and what its result
 * means (finished, lost, left); the policy of which task goes next and
 * how many run at once is theirs to change
 * (lt_lane_ops.next, lt_exec_set_jobs).
 *
 * Callbacks run inside lt_exec_run() and may submit tasks and add lanes.
 * A lane is opaque to the jobs: they read it through the lt_exec_lane_*
 * functions below, and a run through engine/core/run.h.
 * SPDX-License-Identifier: MIT */
#ifndef LT_ENGINE_CORE_EXEC_H
#define LT_ENGINE_CORE_EXEC_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/core/run.h"
#include "engine/core/suite.h"
#include "harness/jvm_wire.h"
#include "runners/jvm.h"
#include "runners/runner.h"

/* Set by the engine's signal handlers; polled by long waits. */
extern volatile sig_atomic_t lt__interrupted;

struct lt_exec;
struct lt_lane;
struct lt_task;
struct lt_store;

/* What one task's run is asked to do.  prepare() fills spec (the tests
 * and per-test arrays, budgets: engine/core/run.h; the run owns them
 * once it starts), the request and wall; strings it allocates for the
 * request go in owned[] and are freed once the job started.  The request: req on a zygote
 * lane; on a JVM lane jvm, the run message's fields after "op" and
 * "nonce", which the executor puts first (harness/jvm_wire.h; prepare
 * allocates the array, the executor frees it, not its strings). */
struct lt_launch {
    struct lt_run_spec spec;
    struct lt_run_request req;
    struct lt_jvm_field *jvm;
    size_t n_jvm;
    double wall;             /* wall deadline, seconds from the start */
    char *owned[4];
};

struct lt_task_ops {
    /* 0; LT_EUSAGE: the job cannot be expressed (the task is lost with
     * that reason, no child runs); another negative code: the zygote
     * refused it (the task waits for another). */
    int (*prepare)(struct lt_exec *ex, struct lt_task *t,
                   struct lt_launch *l);
    /* The child ended (done, killed, or past a limit): j holds what it
     * reported, until the callback returns (lt_run_report_keep keeps
     * it).  On a JVM lane: the worker answered (j->answer), or it
     * gave no answer: past the wall deadline (j->timed_out), ended by
     * the program (j->wait_status: an exit, a signal other than an
     * unsent SIGKILL), or misbehaved (j->protocol_error).  The task is
     * the callback's again: it may free it, or hand it back with
     * lt_exec_retry(). */
    void (*finished)(struct lt_exec *ex, struct lt_task *t,
                     const struct lt_run_report *j);
    /* The task cannot run: its runner died twice, its job cannot be
     * expressed, or its lane cannot start.  why says which. */
    void (*lost)(struct lt_exec *ex, struct lt_task *t, const char *why);
    /* Optional: called every round while the child runs, after the
     * executor's own limit checks (watchdogs of a job kind), with what
     * it reported so far.  1: stop the child now (it finishes as
     * killed); 0: let it run. */
    int (*watch)(struct lt_exec *ex, struct lt_task *t,
                 const struct lt_run_report *j, double now);
    /* Optional: the run's deadline (lt_exec_set_deadline) came before
     * the task ended: it never started, or its child was stopped at the
     * end of the grace and what it reported is no result.  The task is
     * the callback's again, neither finished nor lost. */
    void (*left)(struct lt_exec *ex, struct lt_task *t);
};

struct lt_task {
    const struct lt_task_ops *ops;
    struct lt_lane *lane;
    void *owner;             /* the job's data; the executor never reads it */
    int retried;             /* ran once more after an engine failure */
    int exclusive;           /* runs alone: starts when no child runs, and
                                nothing starts beside it (timeouts
                                confirmed without machine load) */
    struct lt_task *next;    /* the executor's queue link */
};

struct lt_lane_ops {
    /* A zygote of the lane became ready; first: the lane's first (its test
     * ids are known now).  0, or < 0 after reporting why (the lane fails
     * and its tasks are lost with *why, or the run stops when the
     * callback set the executor's fatal code). */
    int (*ready)(struct lt_exec *ex, struct lt_lane *l, int first,
                 char **why);
    /* A zygote of the lane could not start or collect (rc, message).
     * NULL: the lane fails, its tasks are lost with the message.  The
     * callback may instead stop the run (lt_exec_fail). */
    void (*start_failed)(struct lt_exec *ex, struct lt_lane *l, int rc,
                         const char *msg);
    /* Tasks the lane will have, for sharing the zygote slots; NULL: the
     * tasks queued.  A lane may ask for a zygote before it has tasks
     * (its first collection tells what it will run). */
    size_t (*work)(const struct lt_lane *l);
    /* Which queued task goes next; NULL: first in, first out (tasks
     * handed back go first). */
    struct lt_task *(*next)(struct lt_lane *l);
    /* Optional: a zygote of the lane started (t NULL), or task t's child
     * did (the job's figures and logs). */
    void (*started)(struct lt_exec *ex, struct lt_lane *l,
                    struct lt_task *t);
};

struct lt_exec {
    struct lt_lane **lanes;
    size_t n_lanes;
    int jobs;                /* children at once, every lane together */
    int live;                /* zygotes starting or ready, every lane */
    int running;             /* children running, every lane */
    int exclusive;           /* an exclusive task runs */
    size_t outstanding;      /* tasks submitted, not yet finished or lost */
    uint64_t token;
    size_t retries;          /* tasks run again after their runner died */
    int fatal;               /* exit code the run stops with, or 0 */

    /* Results go to the store in batches: one transaction at a time,
     * committed after `batch` writes or `batch_s` seconds. */
    struct lt_store *st;
    const char *db;          /* its path, for messages */
    int in_tx, pending;
    double last_commit;
    int batch;
    double batch_s;
    int store_rc;            /* first failed write, or 0 */

    /* The first sandboxed child's features; a degraded sandbox is said
     * once per run. */
    unsigned sandbox;
    int sandbox_checked;

    /* The run's time budget (lt_exec_set_deadline). */
    double deadline;         /* lt__now() time; 0: none */
    double grace;            /* s a child running then may take to end */
    int past_deadline;       /* the deadline came: nothing starts now */
    size_t left;             /* tasks left at the deadline */

    /* Optional hooks of the job: idle() runs before every scheduling
     * round (deferred callbacks, finishing groups of tasks) and returns
     * how much it still waits for; progress() shows the job's progress
     * (force: the last time). */
    size_t (*idle)(struct lt_exec *ex);
    void (*progress)(struct lt_exec *ex, int force);
    void *owner;
};

/* An executor of `jobs` children at once (at least 1).  From here on
 * SIGINT and SIGTERM interrupt the run (lt__interrupted) and SIGPIPE is
 * ignored. */
void lt_exec_init(struct lt_exec *ex, int jobs);
/* The end of a run (lt_exec_run's, or that of a job that drives its own
 * workers): commits the open batch, shows the last progress, and returns
 * 0 or the run's exit code (a failed write, fatal, interrupted). */
int lt_exec_finish(struct lt_exec *ex);
/* Stops every zygote and frees the lanes; commits an open batch. */
void lt_exec_close(struct lt_exec *ex);

/* A lane for cfg (copied; its strings must outlive the executor), with
 * as many slots as the budget.  Zygotes start when tasks wait. */
struct lt_lane *lt_exec_lane(struct lt_exec *ex,
                             const struct lt_runner_config *cfg,
                             const struct lt_lane_ops *ops, void *owner);
/* A lane of Java workers for cfg (copied, with no read paths: add them
 * with lt_exec_jvm_read; its other strings must outlive the executor).
 * Workers start when tasks wait: one for a lane with work, more while
 * the queue holds over half a second of runs (at their mean wall time
 * so far) per live worker, as a JVM costs about 0.65 s of CPU to start;
 * no copies.  Three workers in a row that end or do not say ready in
 * 60 s stop the run (LT_EXIT_ENGINE). */
struct lt_lane *lt_exec_lane_jvm(struct lt_exec *ex,
                                 const struct lt_jvm_config *cfg,
                                 const struct lt_lane_ops *ops, void *owner);
/* Adds a directory the lane's workers may read (once); workers started
 * from then on see it. */
void lt_exec_jvm_read(struct lt_lane *l, const char *dir);
/* Calls fn on every task still held by the lane, queued or running (a
 * run that stops early), and forgets them: the job frees its own. */
void lt_exec_lane_drop_tasks(struct lt_exec *ex, struct lt_lane *l,
                             void (*fn)(struct lt_task *t));
/* Starts up to n zygotes of the lane ahead of time (they import and
 * collect while the job does other work): copies of an idle ready one
 * when the lane has one, else the first zygote now and the rest as its
 * copies once it is ready.  0, or a negative code after stopping the run
 * (fatal). */
int lt_exec_warm(struct lt_exec *ex, struct lt_lane *l, int n);
/* Waits until every zygote the lane started is ready or failed. 0, or
 * the run's fatal code. */
int lt_exec_wait_ready(struct lt_exec *ex, struct lt_lane *l);
/* The lane cannot run anything: its queued tasks, and those submitted
 * later, are lost with msg. */
void lt_exec_lane_fail(struct lt_exec *ex, struct lt_lane *l,
                       const char *msg);
/* Stops the lane's idle zygotes above n. */
void lt_exec_trim(struct lt_exec *ex, struct lt_lane *l, int n);
/* Changes the budget of children at once (the slots of every lane grow
 * with it); not from inside a callback. */
void lt_exec_set_jobs(struct lt_exec *ex, int jobs);

/* Queues a task on its lane (t->lane); lt_exec_retry() queues it first,
 * marked retried. */
void lt_exec_submit(struct lt_exec *ex, struct lt_task *t);
void lt_exec_retry(struct lt_exec *ex, struct lt_task *t);

/* Runs until no task is outstanding and idle() waits for nothing, the run
 * stops (fatal), or it is interrupted; zygotes that start are waited on
 * even while no task is outstanding (a lane's first collection may be
 * what tells its tasks).  Returns 0, or an exit code:
 * LT_EXIT_ENGINE (a runner could not start, a write to the store failed:
 * what was committed stays), LT_EXIT_INTERRUPTED. */
int lt_exec_run(struct lt_exec *ex);

/* The run's time budget: from `deadline` (an lt__now() time; 0: none)
 * no task starts and every queued one, or one queued later, is left
 * (lt_task_ops.left); zygote children still running `grace` seconds
 * after it are stopped and their tasks left too (a Java worker's run
 * ends by itself, at the latest at its wall deadline).  A run that ends
 * within the grace finishes as usual.  lt_exec_run() returns 0 once nothing is
 * outstanding; ex->left counts the tasks left (over every run of ex). */
void lt_exec_set_deadline(struct lt_exec *ex, double deadline, double grace);

/* Stops the run with this exit code (the first one stands). */
void lt_exec_fail(struct lt_exec *ex, int code);

/* The store writes of a task: lt_exec_write() opens the batch's
 * transaction if none is open (0 or a negative code, after which the run
 * stops); lt_exec_wrote() records the outcome of a write (rc < 0 stops
 * the run, the first failure is reported when it ends). */
int lt_exec_write(struct lt_exec *ex);
void lt_exec_wrote(struct lt_exec *ex, int rc);
/* Commits the open batch now (force) or when it is due. */
void lt_exec_commit(struct lt_exec *ex, int force);

/* Tasks queued on a lane (not yet handed to a zygote). */
size_t lt_exec_queued(const struct lt_lane *l);

/* The lane as its job reads it. */
void *lt_exec_lane_owner(const struct lt_lane *l);
/* What the lane's zygotes collected; its test ids are known once the
 * first was ready. */
const struct lt_suite *lt_exec_lane_suite(const struct lt_lane *l);
/* The runner configuration the lane was made with (lt_exec_lane). */
const struct lt_runner_config *lt_exec_lane_config(const struct lt_lane *l);
/* The lane cannot start: its tasks are lost. */
int lt_exec_lane_failed(const struct lt_lane *l);
/* A zygote of the lane was ready once. */
int lt_exec_lane_ready_once(const struct lt_lane *l);
/* Zygotes starting or ready; children running. */
int lt_exec_lane_live(const struct lt_lane *l);
int lt_exec_lane_running(const struct lt_lane *l);
/* The first queued task (the rest follow t->next), for
 * lt_lane_ops.next, which picks one of them; NULL: none. */
struct lt_task *lt_exec_lane_queue(const struct lt_lane *l);
/* Seconds a zygote of the lane has to collect (a Java worker to say
 * ready); 0: the default. */
void lt_exec_lane_set_start_timeout(struct lt_lane *l, double seconds);
/* The telemetry the lane's zygotes report to (--telemetry; not owned);
 * before they start. */
void lt_exec_lane_set_telemetry(struct lt_lane *l, struct lt_telemetry *tm);
/* The lane's slots (they grow with lt_exec_set_jobs); whether slot k
 * ever started a zygote; the pid of its zygote, 0 when none runs. */
int lt_exec_lane_slots(const struct lt_lane *l);
int lt_exec_lane_slot_used(const struct lt_lane *l, int k);
pid_t lt_exec_lane_zygote_pid(const struct lt_lane *l, int k);
/* CPU seconds of the lane's live zygotes, each with the children it
 * reaped (read from /proc: the zygotes are reaped only at the end). */
double lt_exec_lane_zygotes_cpu_s(const struct lt_lane *l);
/* Calls fn on every task whose child runs now, with what it reported so
 * far (the progress of long runs). */
void lt_exec_each_running(struct lt_exec *ex,
                          void (*fn)(struct lt_task *t,
                                     const struct lt_run_report *j,
                                     void *arg),
                          void *arg);

#endif
