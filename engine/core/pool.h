/* The zygotes of one runner configuration and their child jobs, under
 * the executor (engine/core/exec.h):
 * starting and restarting zygotes, one child job per zygote, reading the
 * child's frames as hostile input, deadlines and CPU budgets.  Internal
 * to engine/.  SPDX-License-Identifier: MIT */
#ifndef LT_ENGINE_POOL_H
#define LT_ENGINE_POOL_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/buf.h"
#include "engine/core/telemetry.h"
#include "harness/jvm_wire.h"
#include "harness/wire.h"
#include "runners/jvm.h"
#include "runners/runner.h"

#define LT_OUTPUT_KEEP (16u << 10) /* bytes of child output kept */
#define LT_OUTPUT_CAP (1u << 20)   /* more than this and the child is killed */
#define LT_MAX_CALLS LT_PY_CALLS_CAPTURE_MAX /* captured calls kept per
                                                job (calls.py stops there) */
#define LT_MAX_RECORDS 100000      /* RECORD frames kept per job */
#define LT_MAX_IMPORT_LINES (1u << 22) /* IMPORT_LINES pairs accepted */

/* Set by the engine's signal handlers; polled by long waits. */
extern volatile sig_atomic_t lt__interrupted;

/* (subject, line) pairs one test executed in the baseline. */
struct cov_list {
    uint32_t *pairs;
    size_t n;
    uint64_t line_events; /* all lines the test executed, any file */
};

struct job {
    int active;
    int is_baseline;
    size_t mutant;           /* index in the plan (mutant jobs) */
    uint32_t *tests;         /* tests to run, in order */
    size_t n_tests;
    int attempts;

    int result_fd, out_fd;
    pid_t pid;
    int pidfd;
    pid_t worker;            /* process mode: the child's worker (WORKER
                                frame), which runs the tests; 0: none */
    unsigned char *test_needs; /* per test index: LT_NEEDS_* bits from
                                  NEEDS frames (baseline); NULL: none */
    struct lt_wire_decoder dec;
    struct lt_buf output;
    size_t output_total;
    int result_eof, out_eof, got_exited, got_started;

    int apply_status;        /* -1 until APPLIED */
    char *apply_text;
    unsigned sandbox;        /* features, once SANDBOXED */
    int sandboxed;
    int ended;
    int protocol_error;
    int current;             /* test started without a result, or -1 */
    int n_results;
    unsigned char *seen;     /* per test index: results received */
    int fail_test;           /* first failing test, or -1 */
    int fail_outcome;
    char *fail_text;
    char **fail_texts;       /* per test index (n_cov entries), when the
                                job's owner allocated it (the baseline):
                                why each failing test failed */
    double *test_ns;         /* per test index: wall time */
    double *test_cpu_ns;     /* per test index: CPU time */
    unsigned char *test_outcome;
    struct cov_list *cov;    /* per test index: lines executed */
    size_t n_cov;            /* entries of cov (0: n_tests) */
    size_t n_files;          /* bound for subject indices in coverage */
    int recheck;             /* a timeout being confirmed alone */
    double cpu_budget_ns;    /* CPU time allowed, checked from /proc */
    int cpu_over;            /* killed for using more than that */
    double *test_budget_ns;  /* per test index: CPU time that test alone
                                may use, from its TEST_START; NULL or 0:
                                only the job's budget applies */
    double test_cpu_base_ns; /* the child's CPU time when the current test
                                started; -1 until read */
    double test_over_ns;     /* > 0: killed for exceeding this budget of
                                one test */
    double cpu_base_ns;      /* the child's CPU time when SANDBOXED came:
                                the budget counts from there, so applying
                                the change and entering the sandbox do not
                                eat into the tests' time; -1 until then */

    double started_at, deadline;
    double sandbox_wall_s;   /* > 0 (fresh runs): at SANDBOXED the wall
                                deadline becomes at least now + this, so
                                the child's own import and collection do
                                not eat the tests' time */
    double exited_at;        /* when EXITED arrived */
    int timed_out, output_overflow, killed_by_us;
    int cut;                 /* stopped at the run's deadline (exec.h):
                                what it reported is no result */
    int wait_status;
    long maxrss_kb;
    double child_ns;
    struct lt_telemetry_sample tm; /* what the child did (--telemetry),
                                      taken at EXITED */

    /* Untrusted runs (patches) and call evaluation (differential testing,
     * datasets): what the child's guards and harness reported. */
    char *tamper;            /* first TAMPER frame's text, or NULL */
    char **calls;            /* CALL frames: captured calls, base64 */
    size_t n_calls, cap_calls;
    char **records;          /* RECORD frames: JSON texts */
    size_t n_records, cap_records;
    long probe_index;        /* last PROBE: input index, or -1 */
    int probe_phase;         /* 0 reference; 1-3 the patch (calls.py) */
    void *owner;             /* the job's owner's data; not freed here */

    /* JVM lanes: the worker's answer (op done, the run's nonce), or NULL
     * when it gave none (timed out, ended, malformed: protocol_error). */
    struct lt_jvm_msg *answer;
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

struct pool {
    struct zygote *z;
    int n;
    struct lt_telemetry *tm; /* --telemetry: not owned; NULL when off */
    struct lt_runner_config cfg;
    char **test_ids;
    size_t n_tests;
    unsigned features;
    char *view_missing;      /* why the file-system view is missing, or
                                NULL (from the first zygote's VIEW) */
    char *view;              /* the view's description, or NULL */
    /* IMPORT_LINES of the first zygote that sent one: (subject, line)
     * pairs executed while the subjects and tests were imported and
     * collected (subject below cfg.n_subjects; lines unchecked), and how
     * long that took from the first subject import on. */
    uint32_t *import_pairs;
    size_t n_import;
    int have_import;
    double import_s;
    int fail_cause;          /* enum lt_fail_cause of the last FAILED */
    /* Called about every 0.2 s while lt__read_ready waits for a zygote
     * to import and collect (the executor shows the job's progress);
     * NULL: nothing. */
    void (*waiting)(void *arg);
    void *waiting_arg;
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

void lt__job_reset(struct job *j);
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
void lt__job_begin(struct job *j, const struct job *spec, double timeout);
/* Starts a job on an idle zygote: pipes, RUN frame, wall deadline. */
int lt__job_start(struct zygote *z, struct job *spec, uint64_t token,
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
/* RLIMIT_CPU for a budget: whole seconds, a backstop above the engine's
 * finer check. */
uint64_t lt__cpu_limit_for(double seconds);
/* CPU time of a live process in ns from /proc (user and system, its own
 * and that of the children it waited for); -1 when it is gone. */
double lt__proc_cpu_ns(pid_t pid);
/* The CPU time of the process running a job's tests (its worker in
 * process mode, with the children it reaped), or -1. */
double lt__job_cpu_ns(const struct job *j);
pid_t lt__proc_parent(pid_t pid);

/* Allocates the per-test arrays of a job spec for a pool of nt tests. */
void lt__job_alloc(struct job *spec, size_t nt, int with_coverage);

#endif
