/* The verdict vocabulary: names, the detected/valid classes and the
 * Stryker mutation score.  SPDX-License-Identifier: MIT */
#include "engine/verdict.h"

#include <stdlib.h>
#include <string.h>

/* Indexed by enum lt_verdict.  These strings are stored in the database
 * and printed in every report: never rename one. */
static const char *const names[LT_VERDICT__COUNT] = {
    [LT_VERDICT_PENDING] = "pending",
    [LT_VERDICT_KILLED] = "killed",
    [LT_VERDICT_TIMEOUT] = "timeout",
    [LT_VERDICT_CRASHED] = "crashed",
    [LT_VERDICT_MEMORY] = "memory",
    [LT_VERDICT_SURVIVED] = "survived",
    [LT_VERDICT_NO_COVERAGE] = "no_coverage",
    [LT_VERDICT_EQUIVALENT] = "equivalent",
    [LT_VERDICT_INVALID] = "invalid",
    [LT_VERDICT_ERROR] = "error",
};

/* The name of v, a static string.  Values outside the enum give
 * "pending", the same as LT_VERDICT_PENDING. */
const char *lt_verdict_name(enum lt_verdict v)
{
    if ((int)v < 0 || v >= LT_VERDICT__COUNT)
        return names[LT_VERDICT_PENDING];
    return names[v];
}

/* The verdict called `name` (exact, case-sensitive match); NULL and
 * unknown names give LT_VERDICT_PENDING. */
enum lt_verdict lt_verdict_from_name(const char *name)
{
    if (!name)
        return LT_VERDICT_PENDING;
    for (int v = 0; v < LT_VERDICT__COUNT; v++)
        if (strcmp(names[v], name) == 0)
            return (enum lt_verdict)v;
    return LT_VERDICT_PENDING;
}

/* 1 when a test run noticed the mutant: killed, timeout, crashed, memory.
 * An engine error is never a detection. */
int lt_verdict_is_detected(enum lt_verdict v)
{
    switch (v) {
    case LT_VERDICT_KILLED:
    case LT_VERDICT_TIMEOUT:
    case LT_VERDICT_CRASHED:
    case LT_VERDICT_MEMORY:
        return 1;
    default:
        return 0;
    }
}

/* 1 when the mutant counts in the score's denominator: detected,
 * survived or not covered.  Equivalent, invalid, error and pending do
 * not. */
int lt_verdict_is_valid(enum lt_verdict v)
{
    return lt_verdict_is_detected(v) || v == LT_VERDICT_SURVIVED ||
           v == LT_VERDICT_NO_COVERAGE;
}

/* Frees the strings of r and resets it to all zeroes (a pending result
 * with an empty id).  Accepts NULL. */
void lt_result_clear(struct lt_result *r)
{
    if (!r)
        return;
    free(r->killed_by);
    free(r->detail);
    free(r->output);
    memset(r, 0, sizeof(*r));
}

/* Counts one verdict into s.  Out-of-range values count as pending, so
 * total always equals the sum of counts. */
void lt_summary_add(struct lt_summary *s, enum lt_verdict v)
{
    if ((int)v < 0 || v >= LT_VERDICT__COUNT)
        v = LT_VERDICT_PENDING;
    s->counts[v]++;
    s->total++;
}

/* The Stryker mutation score as a fraction in [0, 1]: detected (killed,
 * timeout, crashed, memory) over valid (detected, survived, no_coverage).
 * -1 when no mutant is valid, so "nothing to score" never reads as 0%. */
double lt_summary_score(const struct lt_summary *s)
{
    long detected = 0, valid = 0;
    for (int v = 0; v < LT_VERDICT__COUNT; v++) {
        if (lt_verdict_is_detected((enum lt_verdict)v))
            detected += s->counts[v];
        if (lt_verdict_is_valid((enum lt_verdict)v))
            valid += s->counts[v];
    }
    if (valid == 0)
        return -1;
    return (double)detected / (double)valid;
}
