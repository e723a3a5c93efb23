/* The one vocabulary of outcomes for mutants and patches, and the
 * mutation score.  SPDX-License-Identifier: MIT */
#ifndef LT_ENGINE_VERDICT_H
#define LT_ENGINE_VERDICT_H

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
    LT_VERDICT__COUNT
};

/* "killed", "survived", ...; "pending" for LT_VERDICT_PENDING. */
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

/* Counts per verdict and the Stryker score detected / valid. */
struct lt_summary {
    int counts[LT_VERDICT__COUNT];
    int total;
};
void lt_summary_add(struct lt_summary *s, enum lt_verdict v);
/* detected / valid, or -1 when there is no valid mutant. */
double lt_summary_score(const struct lt_summary *s);

#endif
