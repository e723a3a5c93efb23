/* The verdict vocabulary: names, the detected/valid classes and the
 * Stryker mutation score.  SPDX-License-Identifier: MIT */
#include "engine/core/verdict.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "common/buf.h"
#include "common/xmalloc.h"

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
    [LT_VERDICT_NOT_RUN] = "not_run",
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
 * survived or not covered.  Equivalent, invalid, error, pending and
 * not_run do not. */
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

/*** Reasons ***/

static char *failure_detail(const struct lt_evidence *ev)
{
    struct lt_buf b = LT_BUF_INIT;
    lt_buf_puts(&b, ev->fail_text ? ev->fail_text : "");
    /* With a kill matrix every covering test ran: list the others that
     * failed too. */
    for (size_t k = 0; k < ev->n_also_failed; k++)
        lt_buf_printf(&b, "%s%s", k ? ", " : " [also failed: ",
                      ev->also_failed[k]);
    if (ev->n_also_failed)
        lt_buf_puts(&b, "]");
    return lt_buf_steal(&b);
}

/* The detail of each reason, from the evidence that decided it. */
static char *apply_text(const struct lt_evidence *ev)
{
    return xstrdup(ev->apply_text ? ev->apply_text : "");
}

/* Three rules give tamper (docs/verdicts.md, rules 2 and 8): a guard's
 * report; an untrusted change that raised SystemExit or
 * KeyboardInterrupt at import (then the apply status says it raised: a
 * change that raised otherwise is import); a clean exit before END. */
static char *tamper_text(const struct lt_evidence *ev)
{
    if (ev->tamper)
        return xasprintf("guard: %s", ev->tamper);
    if (ev->apply == LT_EV_APPLY_RAISED)
        return xasprintf("raised %s while being imported",
                         ev->apply_text ? ev->apply_text : "");
    return xstrdup("exited with status 0 before reporting every test");
}

static char *equivalent_text(const struct lt_evidence *ev)
{
    (void)ev;
    return xstrdup("compiles to the original code objects");
}

static char *test_cpu_text(const struct lt_evidence *ev)
{
    return xasprintf("CPU time limit of %.2f s for one test",
                     ev->test_over_s);
}

static char *cpu_text(const struct lt_evidence *ev)
{
    return xasprintf("CPU time limit of %.2f s", ev->cpu_budget_s);
}

static char *wall_text(const struct lt_evidence *ev)
{
    return xasprintf("wall-clock limit of %.2f s", ev->wall_limit_s);
}

static char *rlimit_text(const struct lt_evidence *ev)
{
    (void)ev;
    return xstrdup("CPU time limit");
}

static char *output_text(const struct lt_evidence *ev)
{
    return xasprintf("output limit of %u bytes exceeded", ev->output_cap);
}

static char *protocol_text(const struct lt_evidence *ev)
{
    (void)ev;
    return xstrdup("malformed result frames from the child");
}

static char *no_sandbox_text(const struct lt_evidence *ev)
{
    if (ev->signal)
        return xasprintf("child died by signal %d before the tests",
                         ev->signal);
    return xasprintf("child exited with status %d before the tests",
                     ev->exit_code);
}

static char *signal_text(const struct lt_evidence *ev)
{
    return xasprintf("killed by signal %d (%s)", ev->signal,
                     strsignal(ev->signal));
}

static char *no_apply_text(const struct lt_evidence *ev)
{
    return xasprintf("child exited with status %d before applying the "
                     "change", ev->exit_code);
}

static char *exit_early_text(const struct lt_evidence *ev)
{
    return xasprintf("the process exited with status %d before reporting "
                     "every test", ev->exit_code);
}

/* The one table of reasons, indexed by enum lt_reason: for each, its
 * name (stored in dataset records, printed: never rename one), the
 * verdict it decides, the status names the patches and the dataset jobs
 * record for it (docs/verdicts.md, "Jobs"), and its detail.  A patch's
 * exit_early after END with exit status 0 (a result missing or doubled)
 * is the patches job's "error" rather than "crash" (patches_eval.c). */
static const struct {
    const char *name;
    enum lt_verdict verdict;
    const char *patch_status;  /* NULL: a complete run, outcomes decide */
    const char *ds_status;
    char *(*detail)(const struct lt_evidence *ev); /* NULL: no detail */
} reasons[LT_REASON__COUNT] = {
    [LT_REASON_NONE] = {"none", LT_VERDICT_PENDING, "error", "error", NULL},
    [LT_REASON_SYNTAX] = {"syntax", LT_VERDICT_INVALID, "syntax", "invalid",
                          apply_text},
    [LT_REASON_TAMPER] = {"tamper", LT_VERDICT_KILLED, "tamper", "tamper",
                          tamper_text},
    [LT_REASON_EQUIVALENT] = {"equivalent", LT_VERDICT_EQUIVALENT,
                              "unchanged", "equivalent", equivalent_text},
    [LT_REASON_IMPORT] = {"import", LT_VERDICT_KILLED, "import_error",
                          "raised", apply_text},
    [LT_REASON_TEST_FAILED] = {"test_failed", LT_VERDICT_KILLED, NULL,
                               "failed", failure_detail},
    [LT_REASON_TEST_MEMORY] = {"test_memory", LT_VERDICT_MEMORY, NULL,
                               "failed", failure_detail},
    [LT_REASON_TEST_CPU_LIMIT] = {"test_cpu_limit", LT_VERDICT_TIMEOUT,
                                  "timeout", "timeout", test_cpu_text},
    [LT_REASON_CPU_LIMIT] = {"cpu_limit", LT_VERDICT_TIMEOUT, "timeout",
                             "timeout", cpu_text},
    [LT_REASON_WALL_LIMIT] = {"wall_limit", LT_VERDICT_TIMEOUT, "timeout",
                              "timeout", wall_text},
    [LT_REASON_CPU_RLIMIT] = {"cpu_rlimit", LT_VERDICT_TIMEOUT, "timeout",
                              "timeout", rlimit_text},
    [LT_REASON_OUTPUT_LIMIT] = {"output_limit", LT_VERDICT_CRASHED, "crash",
                                "crashed", output_text},
    [LT_REASON_PROTOCOL] = {"protocol", LT_VERDICT_ERROR, "error", "error",
                            protocol_text},
    [LT_REASON_NO_SANDBOX] = {"no_sandbox", LT_VERDICT_ERROR, "error",
                              "error", no_sandbox_text},
    [LT_REASON_SIGNAL] = {"signal", LT_VERDICT_CRASHED, "crash", "crashed",
                          signal_text},
    [LT_REASON_NO_APPLY] = {"no_apply", LT_VERDICT_ERROR, "error", "error",
                            no_apply_text},
    [LT_REASON_PASSED] = {"passed", LT_VERDICT_SURVIVED, NULL, "passed",
                          NULL},
    [LT_REASON_EXIT_EARLY] = {"exit_early", LT_VERDICT_KILLED, "crash",
                              "crashed", exit_early_text},
};

static enum lt_reason in_range(enum lt_reason r)
{
    return (int)r < 0 || r >= LT_REASON__COUNT ? LT_REASON_NONE : r;
}

/* The name of r, a static string; "none" outside the enum. */
const char *lt_reason_name(enum lt_reason r)
{
    return reasons[in_range(r)].name;
}

/* The reason called `name` (exact, case-sensitive match); NULL and
 * unknown names give LT_REASON_NONE.  The only place a reason's name is
 * read back: code compares enum values. */
enum lt_reason lt_reason_from_name(const char *name)
{
    if (!name)
        return LT_REASON_NONE;
    for (int r = 0; r < LT_REASON__COUNT; r++)
        if (strcmp(reasons[r].name, name) == 0)
            return (enum lt_reason)r;
    return LT_REASON_NONE;
}

/* The verdict r decides. */
enum lt_verdict lt_reason_verdict(enum lt_reason r)
{
    return reasons[in_range(r)].verdict;
}

/* The patches job's status for r, a static string, or NULL for a
 * complete run. */
const char *lt_reason_patch_status(enum lt_reason r)
{
    return reasons[in_range(r)].patch_status;
}

/* The dataset job's status for r, a static string. */
const char *lt_reason_ds_status(enum lt_reason r)
{
    return reasons[in_range(r)].ds_status;
}

/* The detail of r on ev, a heap string, or NULL when r has none. */
char *lt_reason_detail(enum lt_reason r, const struct lt_evidence *ev)
{
    r = in_range(r);
    return reasons[r].detail ? reasons[r].detail(ev) : NULL;
}

/*** Evidence -> verdict ***/

/* Decides reason r: its verdict and detail come from the table. */
static void set(struct lt_decision *d, const struct lt_evidence *ev,
                enum lt_reason r, const char *killed_by)
{
    d->verdict = lt_reason_verdict(r);
    d->reason = r;
    d->killed_by = killed_by ? xstrdup(killed_by) : NULL;
    d->detail = lt_reason_detail(r, ev);
}

/* Decides a run's verdict from its evidence.  The rules, first match wins
 * (docs/verdicts.md explains each):
 *   1. a change that does not compile is invalid;
 *   2. a guard report (tamper) is a detection, whatever the tests said:
 *      a child that tampered cannot be believed about its tests; an
 *      untrusted change that raised SystemExit or KeyboardInterrupt at
 *      import tampered too;
 *   2b. applying decides alone: equivalent, killed at import;
 *   3. a failing test kills (memory when it failed with MemoryError),
 *      unless the job needs every outcome (then rule 9 decides);
 *   4. the engine's limits: one test's CPU budget, the run's CPU budget,
 *      the wall-clock limit, RLIMIT_CPU's SIGXCPU: timeout;
 *   5. more output than the cap: crashed;
 *   6. malformed frames: error (never a kill);
 *   7. ended before entering the sandbox: error;
 *   8. a signal after that: crashed; an untrusted change's clean exit
 *      before END: tamper (it faked an end); no APPLIED report: error;
 *   9. a pass needs positive evidence: END, exit 0, no test pending and
 *      every selected test reported once; else the child left early: a
 *      behaviour change, killed.
 * killed_by names the failing test, else the test running when the child
 * stopped (rules 2, 4, 5, 8, 9), else "<module import>" (rule 1). */
void lt_verdict_decide(const struct lt_evidence *ev, struct lt_decision *d)
{
    const char *cur = ev->current_test;
    memset(d, 0, sizeof(*d));
    if (ev->apply == LT_EV_APPLY_INVALID) {
        set(d, ev, LT_REASON_SYNTAX, NULL);
        return;
    }
    if (ev->tamper) {
        set(d, ev, LT_REASON_TAMPER, cur);
        return;
    }
    const char *raised = ev->apply_text ? ev->apply_text : "";
    if (ev->untrusted && ev->apply == LT_EV_APPLY_RAISED &&
        (strncmp(raised, "SystemExit", 10) == 0 ||
         strncmp(raised, "KeyboardInterrupt", 17) == 0)) {
        set(d, ev, LT_REASON_TAMPER, NULL);
        return;
    }
    switch (ev->apply) {
    case LT_EV_APPLY_EQUIVALENT:
        set(d, ev, LT_REASON_EQUIVALENT, NULL);
        return;
    case LT_EV_APPLY_RAISED:
        set(d, ev, LT_REASON_IMPORT, "<module import>");
        return;
    default:
        break;
    }
    if (ev->fail_test && !ev->need_all) {
        set(d, ev,
            ev->fail_memory ? LT_REASON_TEST_MEMORY : LT_REASON_TEST_FAILED,
            ev->fail_test);
        return;
    }
    if (ev->timed_out) {
        set(d, ev,
            ev->test_over_s > 0 ? LT_REASON_TEST_CPU_LIMIT
            : ev->cpu_over      ? LT_REASON_CPU_LIMIT
                                : LT_REASON_WALL_LIMIT,
            cur);
        return;
    }
    if (ev->signal == SIGXCPU) {
        set(d, ev, LT_REASON_CPU_RLIMIT, cur);
        return;
    }
    if (ev->output_overflow) {
        set(d, ev, LT_REASON_OUTPUT_LIMIT, cur);
        return;
    }
    if (ev->protocol_error) {
        set(d, ev, LT_REASON_PROTOCOL, NULL);
        return;
    }
    if (!ev->sandboxed) {
        set(d, ev, LT_REASON_NO_SANDBOX, NULL);
        return;
    }
    if (ev->signal) {
        set(d, ev, LT_REASON_SIGNAL, cur);
        return;
    }
    if (ev->untrusted && ev->exit_code == 0 && !ev->ended) {
        set(d, ev, LT_REASON_TAMPER, cur);
        return;
    }
    if (ev->apply != LT_EV_APPLY_OK) {
        set(d, ev, LT_REASON_NO_APPLY, NULL);
        return;
    }
    int complete = ev->ended && ev->exit_code == 0 && !cur &&
                   ev->n_results == ev->n_tests &&
                   ev->n_selected_seen == ev->n_tests;
    if (complete && ev->fail_test) {
        set(d, ev,
            ev->fail_memory ? LT_REASON_TEST_MEMORY : LT_REASON_TEST_FAILED,
            ev->fail_test);
        return;
    }
    if (complete) {
        set(d, ev, LT_REASON_PASSED, NULL);
        return;
    }
    /* exit() or os._exit() in the middle of a test is a behaviour
     * change, never a pass. */
    set(d, ev, LT_REASON_EXIT_EARLY, cur);
}
