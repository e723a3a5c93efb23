/* The one vocabulary of outcomes for mutants and patches, and the
 * mutation score.  SPDX-License-Identifier: MIT */
#ifndef LT_ENGINE_VERDICT_H
#define LT_ENGINE_VERDICT_H

#include <stddef.h>

enum lt_verdict {
    LT_VERDICT_PENDING = 0,   /* not run yet */
    LT_VERDICT_KILLED,        /* a test failed or raised */
    LT_VERDICT_TIMEOUT,
    LT_VERDICT_CRASHED,       /* killed by a signal */
    LT_VERDICT_MEMORY,        /* MemoryError or the memory limit */
    LT_VERDICT_SURVIVED,
    LT_VERDICT_NO_COVERAGE,   /* no test reaches it */
    LT_VERDICT_EQUIVALENT,    /* compiles to the original's code: not run */
    LT_VERDICT_INVALID,       /* does not compile */
    LT_VERDICT_ERROR,         /* engine or sandbox failed: never a kill */
    LT_VERDICT_NOT_RUN,       /* the run's --max-time came first: never
                                 stored (no result is what the rerun
                                 runs), given by reports only */
    LT_VERDICT__COUNT
};

/* "killed", "survived", ...; "pending" for LT_VERDICT_PENDING, "not_run"
 * for LT_VERDICT_NOT_RUN. */
const char *lt_verdict_name(enum lt_verdict v);
/* Inverse of lt_verdict_name; LT_VERDICT_PENDING for unknown names. */
enum lt_verdict lt_verdict_from_name(const char *name);
/* killed, timeout, crashed, memory. */
int lt_verdict_is_detected(enum lt_verdict v);
/* detected, survived, no_coverage. */
int lt_verdict_is_valid(enum lt_verdict v);

/* What one mutant's run produced. */
struct lt_result {
    char mutant_id[17];
    enum lt_verdict verdict;
    char *killed_by;     /* test id, or NULL */
    char *detail;        /* one line: exception, signal, reason; or NULL */
    char *output;        /* first bytes of the child's stdout+stderr, or NULL */
    double duration_ms;  /* wall time of the child */
    long peak_rss_kb;
    int tests_run;
};

void lt_result_clear(struct lt_result *r);

/* What a child reported about one run, gathered by the engine from its
 * frames, its exit and the limits the engine enforced.  Test names are
 * borrowed, never freed here. */
struct lt_evidence {
    int apply;                 /* LT_EV_APPLY_*: how applying went */
    const char *apply_text;    /* compile error or exception, or NULL */
    int sandboxed;             /* SANDBOXED came: the child was confined */
    int ended;                 /* END came: the runner finished the list */
    int protocol_error;        /* malformed or oversized frames */
    const char *tamper;        /* an untrusted run's guard fired: what */
    size_t n_tests;            /* tests selected */
    size_t n_results;          /* results received */
    size_t n_selected_seen;    /* selected tests with a result */
    const char *current_test;  /* started without a result, or NULL */
    const char *fail_test;     /* first failing test, or NULL */
    int fail_memory;           /* ... and it failed with MemoryError */
    const char *fail_text;     /* ... its message, or NULL */
    const char *const *also_failed; /* other failing tests (kill matrix) */
    size_t n_also_failed;
    int need_all;              /* the job needs every test's outcome: a
                                  failure decides only a complete run */
    int untrusted;             /* a candidate patch: raising SystemExit
                                  or KeyboardInterrupt at import, or a
                                  clean exit before END, fakes an end
                                  (tamper) */
    int exit_code;             /* exit status, or -1 when signalled */
    int signal;                /* terminating signal, or 0 */
    int timed_out;             /* the engine killed it at a limit ... */
    int cpu_over;              /* ... for CPU over the run's budget */
    double cpu_budget_s;
    double test_over_s;        /* > 0: ... over one test's budget */
    double wall_limit_s;       /* ... else at the wall-clock limit */
    int output_overflow;       /* wrote more than the output cap */
    unsigned output_cap;       /* that cap in bytes */
};

enum {
    LT_EV_APPLY_NONE = -1,     /* the child never said */
    LT_EV_APPLY_OK = 0,
    LT_EV_APPLY_INVALID = 1,   /* does not compile */
    LT_EV_APPLY_RAISED = 2,    /* importing the changed module raised */
    LT_EV_APPLY_EQUIVALENT = 3,/* same code objects as the original */
};

/* Why a run got its verdict: which rule of lt_verdict_decide() decided
 * (docs/verdicts.md).  One table in verdict.c gives each reason its
 * verdict, the status names the patches and dataset jobs record for it,
 * its detail text and its name; code branches on these values, never on
 * the names, which are for output only. */
enum lt_reason {
    LT_REASON_NONE = 0,        /* not decided (a zeroed decision, an
                                  unknown name) */
    LT_REASON_SYNTAX,          /* does not compile */
    LT_REASON_TAMPER,          /* a guard fired, or a faked end */
    LT_REASON_EQUIVALENT,      /* same code objects as the original */
    LT_REASON_IMPORT,          /* importing the change raised */
    LT_REASON_TEST_FAILED,     /* a test failed */
    LT_REASON_TEST_MEMORY,     /* ... with MemoryError */
    LT_REASON_TEST_CPU_LIMIT,  /* over one test's CPU budget */
    LT_REASON_CPU_LIMIT,       /* over the run's CPU budget */
    LT_REASON_WALL_LIMIT,      /* past the wall-clock limit */
    LT_REASON_CPU_RLIMIT,      /* SIGXCPU (RLIMIT_CPU) */
    LT_REASON_OUTPUT_LIMIT,    /* more output than the cap */
    LT_REASON_PROTOCOL,        /* malformed or oversized frames */
    LT_REASON_NO_SANDBOX,      /* ended before entering the sandbox */
    LT_REASON_SIGNAL,          /* killed by a signal in the sandbox */
    LT_REASON_NO_APPLY,        /* ended without applying the change */
    LT_REASON_PASSED,          /* every selected test passed, clean end */
    LT_REASON_EXIT_EARLY,      /* ended before reporting every test */
    LT_REASON__COUNT
};

/* The reason's stable token ("syntax", "test_failed", ...: stored in
 * records and printed in reports, never renamed); "none" for
 * LT_REASON_NONE and values outside the enum. */
const char *lt_reason_name(enum lt_reason r);
/* Inverse of lt_reason_name, for reading stored records; NULL and unknown
 * names give LT_REASON_NONE. */
enum lt_reason lt_reason_from_name(const char *name);
/* The verdict the reason decides (LT_VERDICT_PENDING for none). */
enum lt_verdict lt_reason_verdict(enum lt_reason r);
/* The status a candidate patch's test run records (litmus patches:
 * "syntax", "unchanged", "tamper", "import_error", "timeout", "crash",
 * "error"); NULL for the reasons of a complete run (test_failed,
 * test_memory, passed), whose test outcomes decide the status. */
const char *lt_reason_patch_status(enum lt_reason r);
/* The status a test job of litmus dataset records ("invalid",
 * "equivalent", "raised", "tamper", "failed", "timeout", "crashed",
 * "error", "passed"). */
const char *lt_reason_ds_status(enum lt_reason r);

/* The one line of detail lt_verdict_decide() writes for reason r on
 * evidence ev (the figures of the limit, the signal, the exit status, the
 * failing test's message ...): a new string the caller frees, or NULL
 * (passed, none). */
char *lt_reason_detail(enum lt_reason r, const struct lt_evidence *ev);

/* The decision: a verdict, why (a reason, docs/verdicts.md), the test to
 * blame and one line of detail. */
struct lt_decision {
    enum lt_verdict verdict;   /* lt_reason_verdict(reason) */
    enum lt_reason reason;
    char *killed_by;           /* test id, "<module import>" or NULL */
    char *detail;              /* or NULL */
};

/* The one evidence -> verdict rule of every job (docs/verdicts.md).  Fills
 * *d; the caller frees d->killed_by and d->detail. */
void lt_verdict_decide(const struct lt_evidence *ev, struct lt_decision *d);

/* Counts per verdict and the Stryker score detected / valid. */
struct lt_summary {
    int counts[LT_VERDICT__COUNT];
    int total;
};
void lt_summary_add(struct lt_summary *s, enum lt_verdict v);
/* detected / valid, or -1 when there is no valid mutant. */
double lt_summary_score(const struct lt_summary *s);

#endif
