/* The mutants' runs of `litmus score`: each pending mutant as a task of
 * the executor (its selected tests, its limits, a timeout confirmed
 * alone, the rest of a run stopped for CPU time), its verdict decided by
 * the one rule and stored with its duplicates', and the progress line.
 * SPDX-License-Identifier: MIT */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "engine/core/budget.h"
#include "engine/core/clock.h"
#include "engine/core/progress.h"
#include "engine/core/store.h"
#include "engine/core/telemetry.h"
#include "engine/core/verdict.h"
#include "engine/jobs/score/score_internal.h"
#include "harness/wire.h"

/* Results stored in one transaction: at most this many, or what ended
 * within this many seconds. */
#define BATCH_RESULTS 64
#define BATCH_SECONDS 0.5

/* A mutant's run costs about this much besides its tests (the fork, the
 * change applied, the result read), in seconds: the estimates of
 * --max-time only. */
#define MUTANT_OVERHEAD_S 0.005

/*** Verdicts ***/

/* Decides a mutant's verdict from the evidence of its run, by the one
 * rule of every job (lt_verdict_decide), and records its figures. */
static void decide(const struct lt_suite *suite, const struct lt_run_report *j,
                   struct lt_result *res)
{
    res->duration_ms = (lt__now() - j->started_at) * 1000.0;
    res->peak_rss_kb = j->maxrss_kb;
    res->tests_run = j->n_results + (j->current >= 0);
    if (j->output.len)
        res->output = xstrndup(j->output.data, j->output.len);
    struct lt_evidence ev;
    struct lt_decision d;
    lt__run_evidence(suite, j, &ev);
    lt_verdict_decide(&ev, &d);
    lt__evidence_clear(&ev);
    res->verdict = d.verdict;
    res->killed_by = d.killed_by;
    res->detail = d.detail;
}

/*** Running ***/

/* The mutants' tally for the progress line. */
struct progress {
    struct lt_progress show;
    size_t done, total;
    int killed, survived, other;
};

static void progress_show(struct progress *p, int force)
{
    lt__progress_show(&p->show, force, p->done, p->total,
                      "%d killed, %d survived, %d other", p->killed,
                      p->survived, p->other);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Order of a timeout re-check: every other selected test in collection
 * order, then the test that timed out.  A failing test then wins over a
 * looping one whatever order the first run met them in, and the timeout
 * itself is confirmed alone. */
static void recheck_order(uint32_t *tests, size_t n, int timed_out)
{
    size_t k = 0;
    int found = 0;
    for (size_t i = 0; i < n; i++) {
        if ((int)tests[i] == timed_out)
            found = 1;
        else
            tests[k++] = tests[i];
    }
    qsort(tests, k, sizeof(uint32_t), cmp_u32);
    if (found)
        tests[k++] = (uint32_t)timed_out;
}


/* A mutant's expected cost: its selected tests' baseline wall time. */
struct by_cost {
    double ms;
    size_t pos;      /* position in the plan's order: ties keep it */
    size_t mutant;
};

static int cmp_by_cost(const void *a, const void *b)
{
    const struct by_cost *x = a, *y = b;
    if (x->ms != y->ms)
        return x->ms > y->ms ? -1 : 1;
    return (x->pos > y->pos) - (x->pos < y->pos);
}

/* 1 when mutant mi runs in a fresh child that imports its module again
 * (a change to module-level or class-body code, or to a line that runs
 * at import, not applied by re-executing one statement). */
static int runs_fresh(const struct mplan *mp, const struct baseline *base,
                      const struct lt_plan *plan, size_t mi)
{
    return !mp[mi].rebind &&
           (mp[mi].a.structural ||
            lt__baseline_at_import(base, &plan->mutants.items[mi],
                                   plan->mutant_file[mi]));
}

/* What the mutants' callbacks share. */
struct mrun {
    const struct lt_score_opts *o;
    const struct lt_plan *plan;
    const struct mplan *mp;
    const struct baseline *base;
    struct lt_store *st;
    struct lt_telemetry *tm;
    struct progress prog;
    unsigned char *rechecked;  /* per mutant: its timeout is confirmed */
    int *timed_out_test;       /* per mutant: the test that timed out */
    size_t n_rechecks;         /* wall-clock timeouts run again alone */
    size_t n_rests;            /* CPU timeouts whose other tests ran */
    size_t finished;           /* runs that ended */
    size_t left;               /* mutants the deadline left (--max-time) */
    int fresh_off;             /* LITMUS_FRESH=0 (bench aid) */
    FILE *run_log;             /* LITMUS_RUN_LOG (test aid) */
    struct mtask *tasks;       /* one per queued mutant */
};

/* One run of a mutant: its first, or the confirmation of a timeout,
 * which runs alone (exclusive) so that machine load cannot fake it. */
struct mtask {
    struct lt_task xt;
    struct mrun *mr;
    size_t mi;
    /* The rest of a run stopped for CPU time: the selected tests it never
     * reached, in collection order, and its result, which stands unless
     * one of them fails. */
    uint32_t *rest;
    size_t n_rest;
    struct lt_result stopped;
    int rest_confirms;  /* the rest ends with the test that ran out (a
                           fresh run's): if all pass, no timeout */
};

static int mutant_prepare(struct lt_exec *ex, struct lt_task *xt,
                          struct lt_launch *la)
{
    struct mtask *t = xt->owner;
    struct mrun *mr = t->mr;
    const struct lt_score_opts *o = mr->o;
    const struct baseline *base = mr->base;
    const struct lt_suite *suite = lt_exec_lane_suite(xt->lane);
    size_t mi = t->mi;
    const struct lt_mutant *m = &mr->plan->mutants.items[mi];
    struct lt_run_spec *spec = &la->spec;
    (void)ex;
    spec->mutant = mi;
    spec->recheck = xt->exclusive;
    if (t->rest) {
        spec->tests = xmalloc((t->n_rest + 1) * sizeof(uint32_t));
        memcpy(spec->tests, t->rest, t->n_rest * sizeof(uint32_t));
        spec->n_tests = t->n_rest;
    } else {
        spec->n_tests = lt__baseline_select(suite, base, m,
                                     mr->plan->mutant_file[mi],
                                     mr->mp[mi].a.structural, &spec->tests);
    }
    if (xt->exclusive)
        recheck_order(spec->tests, spec->n_tests, mr->timed_out_test[mi]);
    double wall_ms = 0, cpu_ms = 0;
    for (size_t k = 0; k < spec->n_tests; k++) {
        wall_ms += base->wall_ms[spec->tests[k]];
        cpu_ms += base->cpu_ms[spec->tests[k]];
    }
    /* The budget is CPU time, which machine load does not stretch; wall
     * time is a looser backstop for sleepers. */
    double cpu_budget = o->run.timeout_factor * cpu_ms / 1000.0 +
                        o->run.timeout_const;
    double wall_budget = 3.0 * (o->run.timeout_factor * wall_ms / 1000.0 +
                                o->run.timeout_const);
    spec->cpu_budget_ns = cpu_budget * 1e9;
    /* A fresh run imports and collects again before its tests: its wall
     * deadline allows for that, then restarts at SANDBOXED (its CPU
     * budget counts from there anyway). */
    int fresh = runs_fresh(mr->mp, base, mr->plan, mi);
    la->wall = wall_budget;
    if (fresh) {
        spec->sandbox_wall_s = wall_budget;
        la->wall += 3.0 * (o->run.timeout_factor * suite->import_s +
                           o->run.timeout_const);
    }
    /* Each test also has a budget of its own, from its own baseline
     * time: a looping test is stopped after about factor x its time +
     * the constant, not after the budget of all the tests selected with
     * it. */
    size_t nt = suite->n_tests;
    lt_run_spec_alloc(spec, nt, 0);
    spec->test_budget_ns = xcalloc(nt + 1, sizeof(double));
    /* A fresh interpreter's tests meet cold what the baseline's warm
     * zygote had imported and run before them (a test's lazy imports,
     * the first assertion's helpers): each may use factor x the suite's
     * import time more, and the run as much. */
    double cold = fresh ? o->run.timeout_factor * suite->import_s : 0;
    spec->cpu_budget_ns += cold * 1e9;
    for (size_t k = 0; k < spec->n_tests; k++)
        spec->test_budget_ns[spec->tests[k]] =
            (o->run.timeout_factor * base->cpu_ms[spec->tests[k]] / 1000.0 +
             o->run.timeout_const + cold) * 1e9;
    uint32_t flags = fresh && !mr->fresh_off ? LT_RUN_FRESH : 0;
    for (size_t k = 0; k < spec->n_tests; k++)
        if (base->needs[spec->tests[k]])
            flags |= LT_RUN_PROCESSES;
    la->req = (struct lt_run_request){
        .mode = LT_RUN_MUTANT,
        .subject = (uint32_t)mr->plan->mutant_file[mi],
        .start = m->start, .end = m->end, .replacement = m->replacement,
        .stop_first = !o->full_matrix,
        .cpu_seconds = lt__cpu_limit_for(cpu_budget),
        .memory_bytes = (uint64_t)o->run.memory_mb << 20,
        .flags = flags,
        .swap = fresh ? NULL : mr->mp[mi].a.swap,
        .swap_len = fresh ? 0 : mr->mp[mi].a.swap_len};
    return 0;
}

static void count_verdict(struct mrun *mr, enum lt_verdict v)
{
    if (v == LT_VERDICT_SURVIVED)
        mr->prog.survived++;
    else if (lt_verdict_is_detected(v))
        mr->prog.killed++;
    else
        mr->prog.other++;
    mr->prog.done++;
}

/* Stores a mutant's result, and the same for its duplicates. */
static void put_result(struct lt_exec *ex, struct mrun *mr, size_t mi,
                       struct lt_result *res, const struct lt_run_report *j)
{
    size_t nm = mr->plan->mutants.count;
    if (lt_exec_write(ex) < 0)
        return;
    int rc = lt_store_put_result(mr->st, res);
    if (rc == 0 && mr->tm && j)
        rc = lt_store_put_telemetry(mr->st, res->mutant_id, &j->tm);
    lt_exec_wrote(ex, rc);
    /* Duplicates share the representative's verdict. */
    for (size_t k = mi + 1; k < nm && rc == 0; k++) {
        if (mr->mp[k].dup_of != (long)mi)
            continue;
        struct lt_result dup = *res;
        memcpy(dup.mutant_id, mr->plan->mutants.items[k].id, 17);
        char *d = xasprintf("same code as mutant %s%s%s",
                            mr->plan->mutants.items[mi].id,
                            res->detail ? "; " : "",
                            res->detail ? res->detail : "");
        dup.detail = d;
        rc = lt_store_put_result(mr->st, &dup);
        lt_exec_wrote(ex, rc);
        free(d);
    }
    count_verdict(mr, res->verdict);
}

static void mutant_finished(struct lt_exec *ex, struct lt_task *xt,
                            const struct lt_run_report *j)
{
    struct mtask *t = xt->owner;
    struct mrun *mr = t->mr;
    size_t mi = t->mi;
    struct lt_result res;
    memset(&res, 0, sizeof(res));
    memcpy(res.mutant_id, mr->plan->mutants.items[mi].id, 17);
    decide(lt_exec_lane_suite(xt->lane), j, &res);
    mr->finished++;
    if (t->rest) {
        /* The rest of a run stopped for CPU time: a failing test wins
         * over the looping one, else the timeout stands, unless the
         * rest ran the looping test again (rest_confirms) and it passed. */
        free(t->rest);
        t->rest = NULL;
        if (res.verdict == LT_VERDICT_SURVIVED && !t->rest_confirms) {
            lt_result_clear(&res);
            res = t->stopped;
            memset(&t->stopped, 0, sizeof(t->stopped));
        }
        lt_result_clear(&t->stopped);
        put_result(ex, mr, mi, &res, j);
        lt_result_clear(&res);
        return;
    }
    /* A timeout must not depend on the order the tests ran in: a mutant
     * that a selected test kills is killed, whichever test looped first.
     * A child stopped for CPU time (of one test, or of the run) used more
     * than its budget of CPU, which machine load does not stretch: the
     * selected tests it never reached run now, in collection order, and
     * the timeout stands unless one fails.  A child stopped at the
     * wall-clock limit may only have waited for a CPU: it runs again
     * alone, after every other mutant, every other test first. */
    int by_cpu = j->cpu_over || j->test_over_ns > 0 ||
                 (WIFSIGNALED(j->wait_status) &&
                  WTERMSIG(j->wait_status) == SIGXCPU);
    /* A fresh run's test that ran out runs again, last: a cold
     * interpreter's cost is what machine load stretches most (on a VM
     * with slow page faults, five tests at once on 2 cores), and the
     * timeout stands only if it runs out again. */
    int confirm = by_cpu && j->current >= 0 &&
                  runs_fresh(mr->mp, mr->base, mr->plan, mi);
    if (res.verdict == LT_VERDICT_TIMEOUT && by_cpu && !xt->exclusive &&
        !mr->rechecked[mi]) {
        mr->rechecked[mi] = 1;
        t->rest = xmalloc((j->n_tests + 1) * sizeof(uint32_t));
        t->n_rest = 0;
        for (size_t k = 0; k < j->n_tests; k++) {
            uint32_t ti = j->tests[k];
            if ((int)ti != j->current && !(j->seen && j->seen[ti]))
                t->rest[t->n_rest++] = ti;
        }
        qsort(t->rest, t->n_rest, sizeof(uint32_t), cmp_u32);
        t->rest_confirms = confirm;
        if (confirm)
            t->rest[t->n_rest++] = (uint32_t)j->current;
        if (t->n_rest > 0) {
            t->stopped = res;
            mr->n_rests++;
            xt->retried = 0;
            lt_exec_submit(ex, xt);
            return;
        }
        free(t->rest);
        t->rest = NULL;
    }
    if (res.verdict == LT_VERDICT_TIMEOUT && !by_cpu && !xt->exclusive &&
        !mr->rechecked[mi]) {
        mr->rechecked[mi] = 1;
        mr->timed_out_test[mi] = j->current;
        mr->n_rechecks++;
        xt->exclusive = 1;
        xt->retried = 0;
        lt_exec_submit(ex, xt);
        lt_result_clear(&res);
        return;
    }
    put_result(ex, mr, mi, &res, j);
    lt_result_clear(&res);
}

static void mutant_lost(struct lt_exec *ex, struct lt_task *xt,
                        const char *why)
{
    struct mtask *t = xt->owner;
    struct mrun *mr = t->mr;
    struct lt_result res;
    memset(&res, 0, sizeof(res));
    memcpy(res.mutant_id, mr->plan->mutants.items[t->mi].id, 17);
    res.verdict = LT_VERDICT_ERROR;
    res.detail = xstrdup(why);
    free(t->rest);
    t->rest = NULL;
    lt_result_clear(&t->stopped);
    mr->finished++;
    put_result(ex, mr, t->mi, &res, NULL);
    lt_result_clear(&res);
}

/* --max-time came before the mutant's run ended: it has no result, and
 * a rerun runs it whole (a timeout whose other tests never ran is not
 * kept either). */
static void mutant_left(struct lt_exec *ex, struct lt_task *xt)
{
    struct mtask *t = xt->owner;
    (void)ex;
    free(t->rest);
    t->rest = NULL;
    lt_result_clear(&t->stopped);
    t->mr->left++;
}

static const struct lt_task_ops mutant_ops = {
    .prepare = mutant_prepare, .finished = mutant_finished,
    .lost = mutant_lost, .left = mutant_left};

static void mutants_progress(struct lt_exec *ex, int force)
{
    struct mrun *mr = ex->owner;
    if (!mr)
        return;
    progress_show(&mr->prog, force);
}

/*** The automatic unittest runner ***/

/* A zygote of the lane l of run r could not start or collect: 1 when
 * that is the automatic unittest runner's business (pytest failed on a
 * unittest-style suite and no runner was named: score.c then tries the
 * unittest runner; or that runner failed too: pytest's failure is
 * printed and the run stops), 0 when the caller reports it. */
static int unittest_fallback(struct score_run *r, struct lt_exec *ex,
                             struct lt_lane *l, int rc, const char *msg)
{
    const struct lt_score_opts *o = r->o;
    if (lt__interrupted || rc != LT_ENOTESTS || lt_exec_lane_ready_once(l))
        return 0;
    if (r->pytest_failure) {
        if (lt_exec_lane_config(l)->runner == LT_TEST_RUNNER_PYTEST)
            return 1; /* another of pytest's zygotes: said once */
        /* The unittest runner could not collect the suite either:
         * pytest's failure, with its hint, is the one to read. */
        lt_debug("the unittest runner could not collect the tests "
                 "either: %s", msg);
        lt_error("%s", r->pytest_failure);
        lt_exec_fail(ex, LT_EXIT_USAGE);
        return 1;
    }
    /* Arguments after `--` (or pytest-args) were written for pytest, and
     * a runner named (even pytest) is the one the user wants. */
    if (lt_exec_lane_suite(l)->fail_cause != LT_FAIL_UNITTEST_SUITE ||
        o->runner_given || r->runner != LT_TEST_RUNNER_PYTEST ||
        o->n_pytest_args > 0)
        return 0;
    lt_debug("pytest could not collect a unittest suite (%s): the "
             "unittest runner is tried", msg);
    r->pytest_failure = xstrdup(msg);
    return 1;
}

/*** The lanes' ops ***/

/* A zygote that cannot start or collect: before the first is ready, the
 * run cannot go on; later, the run goes on with the zygotes it has. */
static void score_start_failed(struct lt_exec *ex, struct lt_lane *l, int rc,
                               const char *msg)
{
    int live = lt_exec_lane_live(l);
    if (lt_exec_lane_ready_once(l) && live > 0 && !lt__interrupted) {
        lt_debug("a runner did not start: %s; going on with %d", msg, live);
        lt_exec_set_jobs(ex, live);
        return;
    }
    if (lt_exec_lane_owner(l) &&
        unittest_fallback(lt_exec_lane_owner(l), ex, l, rc, msg))
        return;
    lt_error("%s", msg);
    lt_exec_fail(ex, rc == LT_ENOTESTS ? LT_EXIT_USAGE
                     : lt__interrupted ? LT_EXIT_INTERRUPTED
                                       : LT_EXIT_ENGINE);
}

/* Test aid (LITMUS_RUN_LOG): which mutants this process started. */
static void score_started(struct lt_exec *ex, struct lt_lane *l,
                          struct lt_task *xt)
{
    struct mrun *mr = ex->owner;
    (void)l;
    if (!xt || xt->ops != &mutant_ops || !mr || !mr->run_log)
        return;
    struct mtask *t = xt->owner;
    fprintf(mr->run_log, "%s%s\n", mr->plan->mutants.items[t->mi].id,
            xt->exclusive ? " recheck" : t->rest ? " rest" : "");
    fflush(mr->run_log);
}

const struct lt_lane_ops lt__score_lane_ops = {
    .start_failed = score_start_failed, .started = score_started};


/*** The time budget (--max-time) ***/

/* A duration for a message: "0.25 s", "4.5 s", "40 s", "12 min",
 * "1.5 h". */
static void say_duration(double s, char *buf, size_t len)
{
    if (s < 0)
        s = 0;
    if (s < 1)
        snprintf(buf, len, "%.2f s", s);
    else if (s < 10)
        snprintf(buf, len, "%.1f s", s);
    else if (s < 90)
        snprintf(buf, len, "%.0f s", s);
    else if (s < 90 * 60)
        snprintf(buf, len, "%.0f min", s / 60);
    else
        snprintf(buf, len, "%.1f h", s / 3600);
}

/* Children running when the budget comes get this long to end: 2% of
 * the budget, from 1 to 10 s.  Then they are stopped, and their mutants
 * are not_run as those that never started. */
static double budget_grace(double max_time)
{
    double g = max_time * 0.02;
    return g < 1 ? 1 : g > 10 ? 10 : g;
}

/* --max-time: puts the queue in the order of a run that may stop
 * part-way (lt__budget_order: every line's cheapest mutant first, then
 * every line's next), with cost[] in the same order; says, when the
 * mutants are expected to pass the budget, how long they would take and
 * how many will run by it; and sets the executor's deadline. */
static void budget_plan(struct score_run *r, double *cost)
{
    const struct lt_score_opts *o = r->o;
    size_t n = r->n_queue;
    struct lt__budget_item *items = xcalloc(n + 1, sizeof(*items));
    for (size_t q = 0; q < n; q++) {
        size_t i = r->queue[q];
        uint64_t line = (uint32_t)r->plan.mutants.items[i].line;
        items[q] = (struct lt__budget_item){
            cost[q], ((uint64_t)r->plan.mutant_file[i] << 32) | line};
    }
    size_t *order = xcalloc(n + 1, sizeof(size_t));
    lt__budget_order(items, n, order);
    size_t *queue = xcalloc(n + 1, sizeof(size_t));
    for (size_t q = 0; q < n; q++) {
        queue[q] = r->queue[order[q]];
        cost[q] = items[order[q]].cost_s;
    }
    memcpy(r->queue, queue, n * sizeof(size_t));
    free(queue);
    free(order);
    free(items);

    double deadline = r->t_start + o->max_time, now = lt__now();
    double room = deadline - now, all = 0;
    size_t fit = lt__budget_fit(cost, n, r->ex.jobs, room, &all);
    char budget[32], need[32], have[32], spent[32];
    say_duration(o->max_time, budget, sizeof(budget));
    say_duration(all, need, sizeof(need));
    say_duration(room, have, sizeof(have));
    say_duration(now - r->t_start, spent, sizeof(spent));
    if (n > 0 && room <= 0)
        fprintf(stderr, "litmus: --max-time %s was spent before the "
                "mutants (start-up and baseline took %s): none of the %zu "
                "to run starts; they are reported as not_run, and the same "
                "command runs them on the stored baseline\n", budget, spent,
                n);
    else if (n > 0 && all > room)
        fprintf(stderr, "litmus: the %zu mutants to run are expected to "
                "take about %s on %d %s; --max-time %s leaves %s: about "
                "%zu of them will run, the cheapest first and one per line "
                "before any line's next, and the rest will be reported as "
                "not_run (the same command runs them)\n", n, need,
                r->ex.jobs, r->ex.jobs == 1 ? "child" : "children", budget,
                have, fit);
    else
        lt_debug("the %zu mutants are expected to take about %s of the "
                 "%s --max-time leaves", n, need, have);
    lt_exec_set_deadline(&r->ex, deadline, budget_grace(o->max_time));
}

/* Contract: see score_internal.h. */
int lt__score_run_mutants(struct score_run *r)
{
    const struct lt_score_opts *o = r->o;
    size_t nm = r->plan.mutants.count, n_queue = r->n_queue;
    struct mrun *mr = xcalloc(1, sizeof(*mr));
    r->mr = mr;
    *mr = (struct mrun){
        .o = o, .plan = &r->plan, .mp = r->mp, .base = &r->base,
        .st = r->st, .tm = r->tm, .prog = {.total = n_queue},
        .rechecked = xcalloc(nm + 1, 1),
        .timed_out_test = xcalloc(nm + 1, sizeof(int))};
    lt__progress_init(&mr->prog.show, o->run.progress, "mutants");
    /* Bench aid (bench/fresh_bench.sh): LITMUS_FRESH=0 applies module- and
     * class-level mutants by re-execution, the mechanism fresh imports
     * replaced, so that the two can be timed on the same mutants. */
    const char *fresh_env = getenv("LITMUS_FRESH");
    mr->fresh_off = fresh_env && strcmp(fresh_env, "0") == 0;
    const char *run_log_path = getenv("LITMUS_RUN_LOG");
    mr->run_log = run_log_path && *run_log_path ? fopen(run_log_path, "a")
                                                : NULL;
    /* Each mutant's expected cost: its selected tests' baseline wall
     * time, and a fresh import when it needs one. */
    double *tests_ms = xcalloc(n_queue + 1, sizeof(double));
    double *cost = xcalloc(n_queue + 1, sizeof(double));
    for (size_t q = 0; q < n_queue; q++) {
        size_t i = r->queue[q];
        uint32_t *sel = NULL;
        size_t n = lt__mutant_select(r, i, &sel);
        for (size_t k = 0; k < n; k++)
            tests_ms[q] += r->base.wall_ms[sel[k]];
        free(sel);
        cost[q] = tests_ms[q] / 1000.0 + MUTANT_OVERHEAD_S +
                  (runs_fresh(r->mp, &r->base, &r->plan, i) ? r->suite->import_s
                                                             : 0);
    }
    if (o->max_time > 0) {
        budget_plan(r, cost);
    } else {
        /* Longest first: the mutants whose selected tests take longest
         * start first, so that the last ones to end are short and the
         * children end together (what a mutant costs, not its verdict,
         * depends on the order). */
        struct by_cost *bc = xcalloc(n_queue + 1, sizeof(*bc));
        for (size_t q = 0; q < n_queue; q++)
            bc[q] = (struct by_cost){tests_ms[q], q, r->queue[q]};
        qsort(bc, n_queue, sizeof(*bc), cmp_by_cost);
        for (size_t q = 0; q < n_queue; q++)
            r->queue[q] = bc[q].mutant;
        free(bc);
    }
    free(cost);
    free(tests_ms);
    mr->tasks = xcalloc(n_queue + 1, sizeof(*mr->tasks));
    for (size_t q = 0; q < n_queue; q++) {
        struct mtask *t = &mr->tasks[q];
        *t = (struct mtask){.mr = mr, .mi = r->queue[q]};
        t->xt = (struct lt_task){.ops = &mutant_ops, .lane = r->lane,
                                 .owner = t};
        lt_exec_submit(&r->ex, &t->xt);
    }
    /* The first failed write to the store stops the run: what was
     * committed stays, and the rerun runs the rest. */
    r->ex.st = r->st;
    r->ex.db = o->run.db;
    r->ex.batch = BATCH_RESULTS;
    r->ex.batch_s = BATCH_SECONDS;
    r->ex.owner = mr;
    r->ex.progress = mutants_progress;
    int rc = lt_exec_run(&r->ex);
    r->ex.progress = NULL;
    r->n_rechecks = mr->n_rechecks;
    if (rc != 0)
        return rc;
    /* Each run ends once: finished, or left at the deadline. */
    size_t ended = mr->finished + r->ex.left;
    if (ended < n_queue + mr->n_rechecks + mr->n_rests) {
        lt_error("internal error: %zu mutant runs were never finished",
                 n_queue + mr->n_rechecks + mr->n_rests - ended);
        return LT_EXIT_ENGINE;
    }
    r->n_left = mr->left;
    return 0;
}

/* Contract: see score_internal.h. */
void lt__score_mutants_free(struct score_run *r)
{
    struct mrun *mr = r->mr;
    if (!mr)
        return;
    if (mr->run_log)
        fclose(mr->run_log);
    free(mr->rechecked);
    free(mr->timed_out_test);
    free(mr->tasks);
    free(mr);
    r->mr = NULL;
}
