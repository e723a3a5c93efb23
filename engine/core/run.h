/* One run of a task, as a job sees it: what the job asks of the run
 * (struct lt_run_spec, filled by lt_task_ops.prepare) and what the run
 * reported (struct lt_run_report, filled by core and read-only to the
 * job).  The executor's own state of a run (pipes, decoder, budgets'
 * bases) stays in engine/core/pool.h, which no job includes.
 * SPDX-License-Identifier: MIT */
#ifndef LT_ENGINE_CORE_RUN_H
#define LT_ENGINE_CORE_RUN_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/buf.h"
#include "engine/core/telemetry.h"
#include "harness/wire.h" /* LT_TEST_*, LT_APPLY_*: what the arrays hold */
#include "runners/jvm.h"

#define LT_OUTPUT_KEEP (16u << 10) /* bytes of child output kept */
#define LT_OUTPUT_CAP (8u << 20)   /* more than this in one test and the
                                      child is killed */

/* (subject, line) pairs one test executed in the baseline. */
struct lt_cov_list {
    uint32_t *pairs;
    size_t n;
    uint64_t line_events; /* all lines the test executed, any file */
};

/* The fields below are declared once, as macros, because core's struct
 * job holds them twice over: as its own members (core's code reads
 * j->tests) and, at the same addresses, as a struct lt_run_spec and a
 * struct lt_run_report (what a job reads), the way Linux's struct_group
 * does it.  Nothing else should expand them. */

/* What a run is asked to do.  The per-test arrays are indexed by the
 * test's index in the lane's collection (lt_run_spec_alloc sizes them);
 * the run fills them. */
#define LT__RUN_SPEC_FIELDS                                                   \
    int is_baseline;                                                          \
    size_t mutant;           /* index in the plan (mutant runs) */            \
    uint32_t *tests;         /* tests to run, in order */                     \
    size_t n_tests;                                                           \
    int recheck;             /* a timeout being confirmed alone */            \
    double cpu_budget_ns;    /* CPU time allowed, checked from /proc */       \
    double *test_budget_ns;  /* per test index: CPU time that test alone     \
                                may use, from its TEST_START; NULL or 0:     \
                                only the run's budget applies */             \
    double sandbox_wall_s;   /* > 0 (fresh runs): at SANDBOXED the wall      \
                                deadline becomes at least now + this, so     \
                                the child's own import and collection do     \
                                not eat the tests' time */                   \
    size_t n_files;          /* bound for subject indices in coverage */      \
    size_t n_cov;            /* entries of cov (0: n_tests) */                \
    unsigned char *seen;     /* per test index: results received */          \
    double *test_ns;         /* per test index: wall time */                  \
    double *test_cpu_ns;     /* per test index: CPU time */                   \
    unsigned char *test_outcome; /* per test index: LT_TEST_* */              \
    struct lt_cov_list *cov; /* per test index: lines executed */             \
    char **fail_texts;       /* per test index (n_cov entries), when the     \
                                job allocated it (the baseline): why each    \
                                failing test failed */

/* What the run reported, besides the spec's arrays it filled. */
#define LT__RUN_REPORT_FIELDS                                                 \
    union {                                                                   \
        struct {                                                              \
            LT__RUN_SPEC_FIELDS                                               \
        };                                                                    \
        struct lt_run_spec spec;                                              \
    };                                                                        \
    pid_t pid;               /* the child, once started; 0 before */          \
    unsigned char *test_needs; /* per test index: LT_NEEDS_* bits from       \
                                  NEEDS frames (baseline); NULL: none */      \
    struct lt_buf output;    /* the child's output, its first              \
                                LT_OUTPUT_KEEP bytes */                       \
    int output_overflow;     /* killed for writing over LT_OUTPUT_CAP in   \
                                one test */                              \
    int apply_status;        /* -1 until APPLIED */                           \
    char *apply_text;                                                         \
    unsigned sandbox;        /* features, once SANDBOXED */                   \
    int sandboxed;                                                            \
    int ended;                                                                \
    int protocol_error;                                                       \
    int current;             /* test started without a result, or -1 */      \
    int n_results;                                                            \
    int fail_test;           /* first failing test, or -1 */                  \
    int fail_outcome;        /* its outcome (LT_TEST_*) */                    \
    char *fail_text;                                                          \
    int cpu_over;            /* killed for using more than its CPU budget */ \
    double test_over_ns;     /* > 0: killed for exceeding this budget of     \
                                one test */                                  \
    double started_at, deadline; /* lt__now() times: start, wall limit */    \
    double exited_at;        /* when EXITED arrived */                        \
    int timed_out;                                                            \
    int wait_status;                                                          \
    long maxrss_kb;                                                           \
    double child_ns;                                                          \
    struct lt_telemetry_sample tm; /* what the child did (--telemetry),      \
                                      taken at EXITED */                     \
    /* Untrusted runs (patches) and call evaluation (differential         \
     * testing, datasets): what the child's guards and harness             \
     * reported. */                                                        \
    char *tamper;            /* first TAMPER frame's text, or NULL */         \
    char **calls;            /* CALL frames: captured calls, base64 */        \
    size_t n_calls;                                                           \
    char **records;          /* RECORD frames: JSON texts */                  \
    size_t n_records;                                                         \
    long probe_index;        /* last PROBE: input index, or -1 */             \
    int probe_phase;         /* 0 reference; 1-3 the patch (calls.py) */      \
    /* JVM lanes: the worker's answer (op done, the run's nonce), or NULL  \
     * when it gave none (timed out, ended, malformed: protocol_error). */ \
    struct lt_jvm_msg *answer;

struct lt_run_spec {
    LT__RUN_SPEC_FIELDS
};

struct lt_run_report {
    LT__RUN_REPORT_FIELDS
};

struct lt_suite;
struct lt_evidence;

/* Fills *ev from a finished run on a lane that collected suite (the
 * evidence lt_verdict_decide() reads).  Names are borrowed from suite;
 * ev->also_failed is allocated: lt__evidence_clear() frees it
 * (engine/core/evidence.c). */
void lt__run_evidence(const struct lt_suite *suite,
                      const struct lt_run_report *j, struct lt_evidence *ev);
/* Frees what lt__run_evidence() allocated.  Accepts a zeroed ev. */
void lt__evidence_clear(struct lt_evidence *ev);

/* Allocates the per-test arrays of a spec for a lane of nt tests (with
 * coverage: cov too, and n_cov = nt).  The run owns them from its start:
 * core frees them with the run. */
void lt_run_spec_alloc(struct lt_run_spec *spec, size_t nt,
                       int with_coverage);

/* RLIMIT_CPU for a budget: whole seconds, a backstop above the engine's
 * finer check. */
uint64_t lt__cpu_limit_for(double seconds);

/* The CPU time, in ns, of the process running a live run's tests (its
 * worker in process mode, with the children it reaped), or -1 (none,
 * or gone).  For lt_task_ops.watch. */
double lt_run_cpu_ns(const struct lt_run_report *r);

/* Keeps a finished run's report beyond lt_task_ops.finished (the
 * executor resets the run when the callback returns): the report moves
 * to the heap, the run is left empty.  Free with lt_run_report_free(). */
struct lt_run_report *lt_run_report_keep(const struct lt_run_report *r);
/* Frees a kept report and what it holds; accepts NULL. */
void lt_run_report_free(struct lt_run_report *r);

#endif
