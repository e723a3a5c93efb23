/* The zygotes of one runner configuration and their child jobs, under
 * the executor (engine/core/exec.h):
 * starting and restarting zygotes, one child job per zygote, reading the
 * child's frames as hostile input, deadlines and CPU budgets.  Private
 * to engine/core: the jobs see a run through engine/core/run.h and a
 * lane's collection through engine/core/suite.h.
 * SPDX-License-Identifier: MIT */
#ifndef LT_ENGINE_POOL_H
#define LT_ENGINE_POOL_H

/* Only core's own targets (and its white-box unit tests) define this;
 * a job or a report that includes this header, even through another,
 * fails to compile here (the ctest layers_job_cannot_include_pool). */
#ifndef LT_CORE_PRIVATE
#error "engine/core/pool.h is private to engine/core: use engine/core/run.h"
#endif

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/buf.h"
#include "engine/core/run.h"
#include "engine/core/suite.h"
#include "engine/core/telemetry.h"
#include "harness/jvm_wire.h"
#include "harness/wire.h"
#include "runners/jvm.h"
#include "runners/runner.h"

struct lt_lane_ops;
struct lt_task;

#define LT_MAX_CALLS LT_PY_CALLS_CAPTURE_MAX /* captured calls kept per
                                                job (calls.py stops there) */
#define LT_MAX_RECORDS 100000      /* RECORD frames kept per job */
#define LT_MAX_IMPORT_LINES (1u << 22) /* IMPORT_LINES pairs accepted */

/* One run on a zygote's child or a Java worker: what the job asked and
 * what the run reported (engine/core/run.h: the same fields seen as
 * struct lt_run_spec and struct lt_run_report), then the executor's own
 * state of the run. */
struct job {
    union {
        struct {
            LT__RUN_REPORT_FIELDS
        };
        struct lt_run_report report;
    };
    int active;
    int attempts;
    int result_fd, out_fd;
    int pidfd;
    pid_t worker;            /* process mode: the child's worker (WORKER
                                frame), which runs the tests; 0: none */
    struct lt_wire_decoder dec;
    size_t output_in_test;   /* bytes of output since the current test
                                started (or the run, before its first) */
    int result_eof, out_eof, got_exited, got_started;
    double test_cpu_base_ns; /* the child's CPU time when the current test
                                started; -1 until read */
    double warmup_allow_ns;  /* CPU time allowed beyond the budgets for
                                the child's warm-up (struct pool), set at
                                SANDBOXED; the first test's own budget
                                gets it too */
    double cpu_base_ns;      /* the child's CPU time when SANDBOXED came
                                (a fresh run: at its first test, after its
                                own import and collection): the budget
                                counts from there, so applying the change
                                and entering the sandbox do not eat into
                                the tests' time; -1 until then */
    int killed_by_us;
    int cut;                 /* stopped at the run's deadline (exec.h):
                                what it reported is no result */
    size_t cap_calls, cap_records;
    void *owner;             /* the job's task (struct lt_task); not
                                freed here */
};

struct zygote {
    pid_t pid;               /* 0 while a copy has not said CLONED */
    int sock;
    struct lt_telemetry *tm; /* the pool's, or NULL */
    int ready;
    int dead;
    /* Copies (lt_zygote_send_clone): a copy dies with the zygote it was
     * forked from, and uses a scratch instance of that family's view. */
    int copy_of;             /* 1 + the slot of the zygote it was forked
                                from; 0: spawned */
    int copies;              /* live zygotes forked from this one */
    unsigned instance;       /* scratch instance (0: a spawned zygote) */
    uint32_t instances_used; /* a spawned zygote: bit i, instance i is
                                taken in its family */
    struct job job;
};

/* Samples of a child's warm-up kept (struct pool): their median is the
 * estimate. */
#define LT__WARMUP_SAMPLES 9

struct pool {
    struct zygote *z;
    int n;
    struct lt_telemetry *tm; /* --telemetry: not owned; NULL when off */
    struct lt_runner_config cfg;
    union {                  /* what its zygotes collected */
        struct {
            LT__SUITE_FIELDS
        };
        struct lt_suite suite;
    };
    /* Called about every 0.2 s while lt__read_ready waits for a zygote
     * to import and collect (the executor shows the job's progress);
     * NULL: nothing. */
    void (*waiting)(void *arg);
    void *waiting_arg;
    /* A child's warm-up: the CPU time the first test a child runs costs
     * beyond that test's own (mostly the copy-on-write faults of the
     * pages it touches first: 45 ms on a VM with slow faults, several
     * times that under load), which the baseline's per-test times do not
     * hold.  Learnt from the runs' results: the least CPU time each test
     * took when it was not its child's first (steady_ns, per test index,
     * -1: not seen), and the excess of the last first tests over that. */
    double *steady_ns;
    size_t n_steady;
    double warmup_ns[LT__WARMUP_SAMPLES];
    int n_warmup;            /* samples taken, in all */
};


/*** The Java workers of a JVM lane (jvm_pool.c) ***/

/* One warm JVM (runners/jvm.h); it runs one task at a time in-process. */
struct lt__jworker {
    pid_t pid;
    int to, from;            /* requests (socket), answers (pipe) */
    struct lt_jvm_decoder dec;
    char nonce[17];          /* of the run it was sent */
    int ready;               /* said ready */
    int leaving;             /* ends once its run is over (it said so,
                                or misbehaved) */
    unsigned sandbox;        /* features it said it has, at ready */
    char *missing;           /* why some are missing, or NULL */
};

/* What lt__jworker_read() found. */
enum {
    LT_JW_NONE = 0,          /* nothing whole yet */
    LT_JW_READY,             /* the first message: ready */
    LT_JW_START_FAILED,      /* the first message is not ready (*m: it) */
    LT_JW_ANSWER,            /* a busy worker's answer, nonce checked (*m) */
    LT_JW_BAD_ANSWER,        /* a done message of another run, or short */
    LT_JW_BAD,               /* malformed, or a message out of turn */
    LT_JW_EOF,               /* the worker closed its end: it is gone */
};

void lt__jworker_init(struct lt__jworker *w);
/* Starts the worker: 0, or a negative code with *err (caller frees). */
int lt__jworker_start(struct lt__jworker *w, const struct lt_jvm_config *c,
                      char **err);
/* Sends a run: "op" and a fresh nonce, then the fields f.  0 or -EPIPE
 * (the worker no longer reads). */
int lt__jworker_send(struct lt__jworker *w, const struct lt_jvm_field *f,
                     size_t n, uint64_t token);
/* Reads what the worker sent, one event a call (call again until
 * LT_JW_NONE); busy: it runs a task.  *m holds the message of
 * LT_JW_ANSWER and LT_JW_START_FAILED (the caller frees it). */
int lt__jworker_read(struct lt__jworker *w, int busy, struct lt_jvm_msg *m);
/* Ends the worker (SIGKILL first when kill_it) and reaps it: its wait
 * status, or -1 when none ran.  The slot is empty afterwards. */
int lt__jworker_end(struct lt__jworker *w, int kill_it);

/*** A lane of the executor (exec.h): its runners and its queue ***/

/* Slot states of a lane's zygotes. */
enum lt_slot_state { LT_SLOT_OFF = 0, LT_SLOT_STARTING, LT_SLOT_READY };

/* The kinds of runner a lane has. */
enum lt_runner_kind {
    LT_RUNNER_ZYGOTE = 0,    /* zygotes: a child forked per task */
    LT_RUNNER_JVM,           /* Java workers: a task at a time in-process */
};

struct lt_lane {
    int kind;                /* enum lt_runner_kind */
    struct pool pool;        /* pool.n: slots; runners start per slot (a
                                JVM lane uses each slot's job alone) */
    unsigned char *slot;     /* per slot: enum lt_slot_state */
    double *slot_since;      /* per slot: when the zygote was started */
    const struct lt_lane_ops *ops;
    void *owner;
    struct lt_task *qhead, *qtail; /* tasks waiting for a zygote */
    size_t queued;
    int running;             /* children running */
    int live;                /* zygotes starting or ready */
    int ready_once;          /* a zygote was ready once */
    int warm;                /* zygotes asked for by lt_exec_warm: made
                                as copies once the first is ready */
    int no_copies;           /* a copy failed: new zygotes only */
    int failed;              /* cannot start: its tasks are lost */
    char *fail_msg;
    double start_timeout;    /* s for a zygote to collect (a Java worker
                                to say ready); 0: the pool's */

    /* JVM lanes: the workers' settings (read paths: lt_exec_jvm_read),
     * a worker per slot, workers in a row that never got ready, whether
     * a degraded sandbox was said, the wall time of the runs answered
     * (how many workers the queue pays for starting). */
    struct lt_jvm_config jvm;
    struct lt__jworker *jw;
    int jvm_start_fails;
    int jvm_warned;
    double jvm_run_ms;
    size_t jvm_runs;
};


void lt__job_reset(struct job *j);
/* The run a report handed out by core belongs to: every report is a
 * member of a struct job (lt_run_report_keep's too). */
struct job *lt__job_of(const struct lt_run_report *r);
/* Frees what a spec holds (its tests and per-test arrays) and empties
 * it: a launch that did not start. */
void lt__run_spec_clear(struct lt_run_spec *s);
/* Moves a finished job out of its zygote slot into *dst (the caller's to
 * reset), leaving *src empty, so a job outlives the executor's reset. */
void lt__job_move(struct job *dst, struct job *src);
/* Warns once what the sandbox lacks when `have` (a child's features) is
 * not everything: the kernel's reasons, and the zygote's for the
 * file-system view. */
void lt__warn_degraded(const struct pool *pool, unsigned have);
/* Waits for READY (or FAILED) from a freshly spawned zygote. */
int lt__read_ready(struct pool *pool, struct zygote *z, char **failmsg);
int lt__zygote_start(struct pool *pool, struct zygote *z);
/* Starts *z as a copy of the idle, ready zygote *from (in slot from_slot)
 * with scratch instance `instance`; it says CLONED (lt__read_ready). */
int lt__zygote_clone(struct pool *pool, struct zygote *from, int from_slot,
                     unsigned instance, struct zygote *z);
void lt__zygote_stop(struct zygote *z);
/* Makes *j the active job of spec (owned now by *j), nothing of it read
 * yet, with its wall deadline `timeout` s from now: what starting a job
 * means on a zygote (lt__job_start) and on a Java worker. */
void lt__job_begin(struct job *j, const struct lt_run_spec *spec,
                   double timeout);
/* Starts a job on an idle zygote: pipes, RUN frame, wall deadline. */
int lt__job_start(struct zygote *z, const struct lt_run_spec *spec,
                  uint64_t token,
                  const struct lt_run_request *req, double timeout);
void lt__job_kill(struct job *j);
void lt__job_read_results(struct pool *pool, struct job *j);
void lt__job_read_output(struct job *j);
/* STARTED or EXITED of the zygote's job; < 0 when the zygote is gone. */
int lt__zygote_read(struct zygote *z);
/* Kills the job when it is past its wall deadline or has used more than
 * its CPU budget since it entered the sandbox; 1 when it was killed now,
 * else 0. */
int lt__job_check_limits(struct job *j, double now);
void lt__job_expire_pipes(struct job *j, double now);
int lt__job_done(const struct job *j);
double lt__job_wakeup(const struct job *j);
/* CPU time of a live process in ns from /proc (user and system, its own
 * and that of the children it waited for); -1 when it is gone. */
double lt__proc_cpu_ns(pid_t pid);
/* The CPU time of the process running a job's tests (its worker in
 * process mode, with the children it reaped), or -1. */
double lt__job_cpu_ns(const struct job *j);
/* The CPU time a child of the pool may use beyond its budgets for its
 * warm-up (struct pool): 0 until the pool has seen a few. */
double lt__pool_warmup_allowance(const struct pool *pool);
pid_t lt__proc_parent(pid_t pid);

#endif
