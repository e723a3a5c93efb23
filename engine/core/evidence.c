/* What a run reported, as the evidence lt_verdict_decide() reads: the
 * one place that knows both struct lt_run_report and struct lt_evidence.
 * SPDX-License-Identifier: MIT */
#include "engine/core/run.h"

#include <stdlib.h>
#include <sys/wait.h>

#include "common/xmalloc.h"
#include "engine/core/suite.h"
#include "engine/core/verdict.h"
#include "harness/wire.h"

static const char *test_name(const struct lt_suite *pool, int t)
{
    return t >= 0 && (size_t)t < pool->n_tests ? pool->test_ids[t] : NULL;
}

/* Contract: see run.h. */
void lt__run_evidence(const struct lt_suite *pool,
                      const struct lt_run_report *j, struct lt_evidence *ev)
{
    int st = j->wait_status;
    *ev = (struct lt_evidence){0};
    switch (j->apply_status) {
    case LT_APPLY_OK: ev->apply = LT_EV_APPLY_OK; break;
    case LT_APPLY_INVALID: ev->apply = LT_EV_APPLY_INVALID; break;
    case LT_APPLY_RAISED: ev->apply = LT_EV_APPLY_RAISED; break;
    case LT_APPLY_EQUIVALENT: ev->apply = LT_EV_APPLY_EQUIVALENT; break;
    default: ev->apply = LT_EV_APPLY_NONE; break;
    }
    ev->apply_text = j->apply_text;
    ev->sandboxed = j->sandboxed;
    ev->ended = j->ended;
    ev->protocol_error = j->protocol_error;
    ev->tamper = j->tamper;
    ev->n_tests = j->n_tests;
    ev->n_results = j->n_results > 0 ? (size_t)j->n_results : 0;
    for (size_t i = 0; j->seen && i < j->n_tests; i++)
        ev->n_selected_seen += j->seen[j->tests[i]] != 0;
    ev->current_test = test_name(pool, j->current);
    ev->fail_test = test_name(pool, j->fail_test);
    ev->fail_memory = j->fail_outcome == LT_TEST_MEMORY;
    ev->fail_text = j->fail_text;
    if (ev->fail_test && j->seen && j->test_outcome) {
        const char **also = xcalloc(j->n_tests + 1, sizeof(*also));
        size_t n = 0;
        for (size_t k = 0; k < j->n_tests; k++) {
            uint32_t t = j->tests[k];
            if ((int)t == j->fail_test || !j->seen[t] ||
                (j->test_outcome[t] != LT_TEST_FAILED &&
                 j->test_outcome[t] != LT_TEST_MEMORY))
                continue;
            if (test_name(pool, (int)t))
                also[n++] = pool->test_ids[t];
        }
        ev->also_failed = also;
        ev->n_also_failed = n;
    }
    ev->exit_code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    ev->signal = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
    ev->timed_out = j->timed_out;
    ev->cpu_over = j->cpu_over;
    ev->cpu_budget_s = j->cpu_budget_ns / 1e9;
    ev->test_over_s = j->test_over_ns / 1e9;
    ev->wall_limit_s = j->deadline - j->started_at;
    ev->output_overflow = j->output_overflow;
    ev->output_cap = LT_OUTPUT_CAP;
}

/* Contract: see run.h. */
void lt__evidence_clear(struct lt_evidence *ev)
{
    free((void *)ev->also_failed);
    ev->also_failed = NULL;
    ev->n_also_failed = 0;
}
