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

/*** Evidence -> verdict ***/

static void set(struct lt_decision *d, enum lt_verdict v, const char *reason,
                const char *killed_by, char *detail)
{
    d->verdict = v;
    d->reason = reason;
    d->killed_by = killed_by ? xstrdup(killed_by) : NULL;
    d->detail = detail;
}

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
        set(d, LT_VERDICT_INVALID, "syntax", NULL,
            xstrdup(ev->apply_text ? ev->apply_text : ""));
        return;
    }
    if (ev->tamper) {
        set(d, LT_VERDICT_KILLED, "tamper", cur,
            xasprintf("guard: %s", ev->tamper));
        return;
    }
    const char *raised = ev->apply_text ? ev->apply_text : "";
    if (ev->untrusted && ev->apply == LT_EV_APPLY_RAISED &&
        (strncmp(raised, "SystemExit", 10) == 0 ||
         strncmp(raised, "KeyboardInterrupt", 17) == 0)) {
        set(d, LT_VERDICT_KILLED, "tamper", NULL,
            xasprintf("raised %s while being imported", raised));
        return;
    }
    switch (ev->apply) {
    case LT_EV_APPLY_EQUIVALENT:
        set(d, LT_VERDICT_EQUIVALENT, "equivalent", NULL,
            xstrdup("compiles to the original code objects"));
        return;
    case LT_EV_APPLY_RAISED:
        set(d, LT_VERDICT_KILLED, "import", "<module import>",
            xstrdup(ev->apply_text ? ev->apply_text : ""));
        return;
    default:
        break;
    }
    if (ev->fail_test && !ev->need_all) {
        set(d, ev->fail_memory ? LT_VERDICT_MEMORY : LT_VERDICT_KILLED,
            ev->fail_memory ? "test_memory" : "test_failed", ev->fail_test,
            failure_detail(ev));
        return;
    }
    if (ev->timed_out) {
        set(d, LT_VERDICT_TIMEOUT,
            ev->test_over_s > 0 ? "test_cpu_limit"
            : ev->cpu_over      ? "cpu_limit"
                                : "wall_limit",
            cur,
            ev->test_over_s > 0
                ? xasprintf("CPU time limit of %.2f s for one test",
                            ev->test_over_s)
            : ev->cpu_over ? xasprintf("CPU time limit of %.2f s",
                                       ev->cpu_budget_s)
                           : xasprintf("wall-clock limit of %.2f s",
                                       ev->wall_limit_s));
        return;
    }
    if (ev->signal == SIGXCPU) {
        set(d, LT_VERDICT_TIMEOUT, "cpu_rlimit", cur,
            xstrdup("CPU time limit"));
        return;
    }
    if (ev->output_overflow) {
        set(d, LT_VERDICT_CRASHED, "output_limit", cur,
            xasprintf("output limit of %u bytes exceeded", ev->output_cap));
        return;
    }
    if (ev->protocol_error) {
        set(d, LT_VERDICT_ERROR, "protocol", NULL,
            xstrdup("malformed result frames from the child"));
        return;
    }
    if (!ev->sandboxed) {
        set(d, LT_VERDICT_ERROR, "no_sandbox", NULL,
            ev->signal ? xasprintf("child died by signal %d before the "
                                   "tests", ev->signal)
                       : xasprintf("child exited with status %d before the "
                                   "tests", ev->exit_code));
        return;
    }
    if (ev->signal) {
        set(d, LT_VERDICT_CRASHED, "signal", cur,
            xasprintf("killed by signal %d (%s)", ev->signal,
                      strsignal(ev->signal)));
        return;
    }
    if (ev->untrusted && ev->exit_code == 0 && !ev->ended) {
        set(d, LT_VERDICT_KILLED, "tamper", cur,
            xstrdup("exited with status 0 before reporting every test"));
        return;
    }
    if (ev->apply != LT_EV_APPLY_OK) {
        set(d, LT_VERDICT_ERROR, "no_apply", NULL,
            xasprintf("child exited with status %d before applying the "
                      "change", ev->exit_code));
        return;
    }
    int complete = ev->ended && ev->exit_code == 0 && !cur &&
                   ev->n_results == ev->n_tests &&
                   ev->n_selected_seen == ev->n_tests;
    if (complete && ev->fail_test) {
        set(d, ev->fail_memory ? LT_VERDICT_MEMORY : LT_VERDICT_KILLED,
            ev->fail_memory ? "test_memory" : "test_failed", ev->fail_test,
            failure_detail(ev));
        return;
    }
    if (complete) {
        set(d, LT_VERDICT_SURVIVED, "passed", NULL, NULL);
        return;
    }
    /* exit() or os._exit() in the middle of a test is a behaviour
     * change, never a pass. */
    set(d, LT_VERDICT_KILLED, "exit_early", cur,
        xasprintf("the process exited with status %d before reporting "
                  "every test", ev->exit_code));
}
