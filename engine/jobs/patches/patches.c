/* `litmus patches`: triage of candidate patches as correct, overfitting,
 * memorized or invalid (docs/patches.md).  This file holds the run: its
 * steps from the inputs to the report, and the tasks each unit queues on
 * the engine's executor (one lane of zygotes per unit,
 * engine/core/exec.h) with what their runs show.  The inputs are read in
 * patches_input.c, units and their cache are in patches_units.c, the
 * mutation layer in patches_mutants.c.
 * SPDX-License-Identifier: MIT */
#include "engine/engine.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "common/err.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "engine/core/clock.h"
#include "engine/core/exe.h"
#include "engine/core/exit.h"
#include "engine/core/progress.h"
#include "engine/jobs/patches/patches_internal.h"
#include "sandbox/sandbox.h"

#ifdef LT_HAVE_SIMILARITY
#include "engine/similarity/similarity.h"
#endif

#define REF_TIMEOUT 300.0     /* s for a reference run */
#define DIFF_TIMEOUT 300.0    /* s for a differential job */
#define CALL_CONST 0.25       /* s added to a differential call's limit */
#define ZYGOTE_TIMEOUT 300.0  /* s for a zygote to collect the tests */
#define BATCH_WRITES 64       /* store writes committed together */
#define MAX_EXTRA (7u << 20)  /* a RUN frame holds at most 8 MiB */

void lt_patches_opts_init(struct lt_patches_opts *o)
{
    memset(o, 0, sizeof(*o));
    o->run.db = ".litmus-patches.db";
    o->format = LT_FORMAT_TEXT;
    o->threshold = 0.60;
    o->sim_threshold = 0.95;
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    o->run.jobs = n > 0 ? (int)n : 1;
    o->run.timeout_factor = 5.0;
    o->run.timeout_const = LT_PATCHES_TIMEOUT_CONST;
    o->timeout = 15.0;
    o->diff_budget = 10.0;
    o->mutation = 1;
    o->probes = 1;
    o->mutation_gate = 1;
    o->mutation_budget = 30.0;
    o->wider_budget = 20.0;
    o->run.memory_mb = LT_MEMORY_MB_DEFAULT;
    o->run.progress = -1;
}

/*** Advancing a unit ***/

static void compute_sim(struct patches_run *r, struct unit *u, struct ptext *t)
{
#ifdef LT_HAVE_SIMILARITY
    const char *s = lt__pe_str(t->l1, "status");
    if (!u->ref || t->sim || !s || strcmp(s, "syntax") == 0 ||
        strcmp(s, "too_large") == 0)
        return;
    double tok = lt_sim_token_levenshtein(t->text, t->len, u->ref->text,
                                          u->ref->len, LT_SIM_PYTHON);
    double ast = lt_sim_tree_edit(t->text, t->len, u->ref->text, u->ref->len,
                                  LT_SIM_PYTHON);
    if (tok < 0 || ast < 0)
        return;
    /* Rounded so that a stored value and a fresh one print alike. */
    t->sim = json_pack("{s:f, s:f}", "token", round(tok * 1e6) / 1e6, "ast",
                       round(ast * 1e6) / 1e6);
    lt__pt_store_layer(r, u, t->sha, "sim", t->sim);
#else
    (void)r;
    (void)u;
    (void)t;
#endif
}

/* A candidate text that compiles to the same code as an earlier one
 * takes that one's runs as they come: its tests, held-out tests,
 * differential results and mutation score (its similarity to the
 * reference, and so its verdict, stay its own). */
static void share_layers(struct patches_run *r, struct unit *u, struct ptext *t)
{
    static const char *const names[] = {"l1", "held", "diff", "mut"};
    struct ptext *s = t->same;
    json_t **mine[] = {&t->l1, &t->held, &t->diff, &t->mut};
    json_t *const theirs[] = {s->l1, s->held, s->diff, s->mut};
    for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++) {
        if (*mine[i] || !theirs[i])
            continue;
        *mine[i] = json_deep_copy(theirs[i]);
        json_object_set_new(*mine[i], "shared_with", json_string(s->sha));
        lt__pt_store_layer(r, u, t->sha, names[i], *mine[i]);
    }
    t->q_l1 = t->q_held = t->q_diff = 1;
    t->mut_started = 1;
}

static void advance(struct patches_run *r, struct unit *u)
{
    const struct lt_patches_opts *o = r->o;
    if (!u->have_tests || r->ex.fatal)
        return;
    if (u->ref && !u->ref_json) {
        if (!u->q_ref) {
            lt__patches_submit(r, lt__patches_task_new(r, u, T_REF_MAIN, u->ref),
                               0);
            if (u->n_held)
                lt__patches_submit(
                    r, lt__patches_task_new(r, u, T_REF_HELD, u->ref), 0);
            u->q_ref = 1;
        }
        return; /* budgets and captured calls come from it */
    }
    for (size_t i = 0; i < u->n_texts; i++) {
        struct ptext *t = u->texts[i];
        if (t->is_ref && o->mutation && !t->mut && !t->mut_started)
            lt__pm_start(r, u, t);
        if (!t->is_cand)
            continue;
        if (t->same) {
            share_layers(r, u, t);
            if (lt__pu_l1_passed(t))
                compute_sim(r, u, t);
            continue;
        }
        if (!t->l1 && !t->q_l1) {
            lt__patches_submit(r, lt__patches_task_new(r, u, T_L1, t), 0);
            t->q_l1 = 1;
        }
        if (!lt__pu_l1_passed(t))
            continue;
        if (u->ref && !t->diff && !t->q_diff && t->code[0] &&
            strcmp(t->code, u->ref->code) == 0) {
            /* The reference's own code (comments or layout aside): it
             * agrees with the reference on every input, without a run. */
            t->diff = json_pack("{s:s, s:s, s:i, s:i, s:{}, s:f}", "status",
                                "same", "detail",
                                "compiles to the same code as the reference "
                                "fix", "compared", 0, "skipped", 0,
                                "by_origin", "duration_ms", 0.0);
            lt__pt_store_layer(r, u, t->sha, "diff", t->diff);
        }
        if (u->ref && !t->diff && !t->q_diff) {
            lt__patches_submit(r, lt__patches_task_new(r, u, T_DIFF, t), 0);
            t->q_diff = 1;
        }
        if (u->n_held && !t->held && !t->q_held) {
            lt__patches_submit(r, lt__patches_task_new(r, u, T_HELD, t), 0);
            t->q_held = 1;
        }
        compute_sim(r, u, t);
        if (o->mutation && !t->mut && !t->mut_started)
            lt__pm_start(r, u, t);
    }
}

/*** Finishing a unit: similarity, verdicts ***/

static void progress_show(struct patches_run *r, int force);

static void finish_unit(struct patches_run *r, struct unit *u)
{
    for (size_t i = 0; i < u->n_texts; i++) {
        if (u->texts[i]->same)
            share_layers(r, u, u->texts[i]);
        if (u->texts[i]->is_cand)
            compute_sim(r, u, u->texts[i]);
    }
    for (size_t i = 0; i < r->n_patches; i++) {
        struct patch *p = &r->patches[i];
        if (p->prog->unit != u)
            continue;
        struct pverdict v;
        lt__pe_decide(r->o, u, p->pt, u->ref, &v);
        json_object_set_new(v.evidence, "program", json_string(p->prog->name));
        json_object_set_new(v.evidence, "run_id", json_string(p->run_id));
        char *ev = json_dumps(v.evidence, JSON_COMPACT);
        struct lt_patch_run pr = {p->seq, p->prog->name, p->run_id, u->key,
                                  p->sha, v.verdict, v.reason, v.detail, ev,
                                  v.duration_ms};
        if (lt_exec_write(&r->ex) == 0)
            lt_exec_wrote(&r->ex, lt_store_put_patch_run(r->st, &pr));
        r->decided++;
        free(ev);
        free(v.detail);
        json_decref(v.evidence);
    }
    lt_exec_trim(&r->ex, u->lane, 0);
    u->done = 1;
    progress_show(r, 0);
}

/*** Starting jobs ***/

static const char *kind_name(enum ptask_kind k)
{
    static const char *const n[] = {"ref", "ref_held", "l1", "held", "diff",
                                    "mutant"};
    return n[k];
}

/* The reference's CPU seconds on the main (held 0) or held-out tests: a
 * text's tests are limited by a multiple of it. */
static double ref_cpu_s(const struct unit *u, int held)
{
    const json_t *part = held ? json_object_get(u->ref_json, "held")
                              : u->ref_json;
    return lt__pe_num(part, "cpu_ms_total", 0) / 1000.0;
}

/* The CPU ms of the slowest main test of a text's layer-1 run. */
static double slowest_test_ms(const struct unit *u, const struct ptext *t)
{
    const json_t *cpus = json_object_get(lt__pt_cov_of(u, t), "cpu_ms");
    double max = 0;
    size_t i;
    const json_t *v;
    json_array_foreach(cpus, i, v)
        if (json_number_value(v) > max)
            max = json_number_value(v);
    return max;
}

/* The JSON job of a differential run (runners/runner.h, LT_RUN_CALLS;
 * runners/calls.py, diff_main, reads it). */
static char *diff_extra(const struct lt_patches_opts *opts, struct unit *u,
                        struct ptext *t, double call_timeout)
{
    json_t *o = json_object();
    json_object_set_new(o, "kind", json_string("diff"));
    json_object_set_new(o, "module", json_string(u->module));
    json_object_set_new(o, "path", json_string(u->p0->buggy));
    json_object_set_new(o, "reference", json_stringn(u->ref->text,
                                                     u->ref->len));
    json_object_set_new(o, "candidate", json_stringn(t->text, t->len));
    json_t *calls = json_object_get(u->ref_json, "calls");
    json_t *orig = json_object_get(u->ref_json, "origins");
    json_object_set_new(o, "captured", calls ? json_incref(calls)
                                             : json_array());
    json_object_set_new(o, "captured_origin", orig ? json_incref(orig)
                                                   : json_array());
    json_object_set(o, "inputs", u->inputs);
    json_object_set_new(o, "derive", json_true());
    json_object_set_new(o, "call_timeout", json_real(call_timeout));
    json_object_set_new(o, "timeout_factor",
                        json_real(opts->run.timeout_factor));
    json_object_set_new(o, "timeout_const", json_real(opts->run.timeout_const));
    json_object_set_new(o, "candidate_test_ms",
                        json_real(slowest_test_ms(u, t)));
    json_object_set_new(o, "budget", json_real(opts->diff_budget));
    if (u->precondition)
        json_object_set_new(o, "precondition",
                            json_string(u->precondition));
    json_object_set_new(o, "max_inputs", json_integer(20000));
    /* json_stringn refuses invalid UTF-8: such texts fail layer 1. */
    char *s = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    return s;
}

/* A reference run (T_REF_MAIN, T_REF_HELD) or a run of a text's tests
 * (T_L1, T_HELD): the text in place of the buggy file under its tests.
 * Returns its CPU budget (s); its wall budget in *wall. */
static double prepare_tests(const struct patches_run *r, struct ptask *k,
                            struct lt_launch *la, double *wall)
{
    const struct lt_patches_opts *o = r->o;
    struct unit *u = k->u;
    int ref = k->kind == T_REF_MAIN || k->kind == T_REF_HELD;
    int held = k->kind == T_REF_HELD || k->kind == T_HELD;
    lt__patches_job_tests(u, &la->spec, held ? u->held_tests : u->main_tests,
                          held ? u->n_held : u->n_main, !held);
    la->req.replacement = k->t->text;
    if (ref) {
        la->req.flags = held ? LT_PF_REF_HELD : LT_PF_REF_MAIN;
        *wall = REF_TIMEOUT;
        return REF_TIMEOUT;
    }
    la->req.flags = held ? LT_PF_HELD : LT_PF_L1;
    double cpu = u->ref ? o->run.timeout_factor * ref_cpu_s(u, held) +
                              o->run.timeout_const
                        : o->timeout;
    *wall = 3 * cpu + 1;
    return cpu;
}

/* A differential job: the candidate's calls against the reference's.
 * 0, or LT_EUSAGE when it is too large to send. */
static int prepare_diff(const struct patches_run *r, struct ptask *k,
                        struct lt_launch *la)
{
    const struct lt_patches_opts *o = r->o;
    struct unit *u = k->u;
    struct lt_run_request *req = &la->req;
    lt_run_spec_alloc(&la->spec, lt_exec_lane_suite(u->lane)->n_tests, 0);
    la->spec.n_files = 1;
    /* A call's limit: well above the slowest test of the reference
     * and of the candidate (a call the tests make cannot be slower
     * than the test that makes it). */
    double max_ms = lt__pe_num(u->ref_json, "max_test_cpu_ms", 0);
    double own_ms = slowest_test_ms(u, k->t);
    k->call_timeout = CALL_CONST + o->run.timeout_factor *
                                       (max_ms > own_ms ? max_ms : own_ms) /
                                       1000.0;
    char *extra = la->owned[1] = diff_extra(o, u, k->t, k->call_timeout);
    if (!extra || strlen(extra) > MAX_EXTRA)
        return LT_EUSAGE; /* lost: "the job cannot be encoded" */
    req->mode = LT_RUN_CALLS;
    req->start = req->end = 0;
    req->replacement = "";
    req->extra = extra;
    req->flags = LT_PF_DIFF;
    k->probe_index = -1;
    k->probe_at = lt__now();
    k->probe_cpu_ns = -1;
    k->probe_stuck = 0;
    return 0;
}

/* What a task's child runs (the task's prepare op).  0, or LT_EUSAGE
 * when the differential job is too large to send. */
static int task_prepare(struct lt_exec *ex, struct lt_task *xt,
                        struct lt_launch *la)
{
    struct patches_run *r = ex->owner;
    struct ptask *k = xt->owner;
    struct unit *u = k->u;
    struct lt_run_request *req = &la->req;
    req->mode = LT_RUN_MUTANT;
    req->subject = 0;
    req->start = 0;
    req->end = u->buggy_len;
    req->memory_bytes = (uint64_t)r->o->run.memory_mb << 20;
    double cpu = 0, wall = 0;
    switch (k->kind) {
    case T_REF_MAIN:
    case T_REF_HELD:
    case T_L1:
    case T_HELD:
        cpu = prepare_tests(r, k, la, &wall);
        break;
    case T_DIFF:
        if (prepare_diff(r, k, la) < 0)
            return LT_EUSAGE;
        cpu = 0; /* no engine CPU budget: the probe watchdog and the
                    runner's per-call limit stop stuck calls */
        wall = DIFF_TIMEOUT;
        break;
    case T_MUT:
        lt__pm_prepare(r, k, la, &cpu);
        wall = 3 * cpu + 1;
        break;
    }
    req->cpu_seconds = lt__cpu_limit_for(cpu > 0 ? cpu : DIFF_TIMEOUT);
    la->spec.cpu_budget_ns = cpu * 1e9;
    la->wall = wall;
    return 0;
}

/* A zygote of a unit started (t NULL), or task t's child did (the lane's
 * started op): the run's figures and its log. */
static void unit_started(struct lt_exec *ex, struct lt_lane *l,
                         struct lt_task *xt)
{
    struct patches_run *r = ex->owner;
    struct unit *u = lt_exec_lane_owner(l);
    struct ptask *k = xt ? xt->owner : NULL;
    if (k)
        r->jobs_started[k->kind]++;
    else
        r->zygotes_started++;
    if (!r->run_log)
        return;
    /* Test aid: which zygotes and runs this process started. */
    if (!k) {
        fprintf(r->run_log, "%s zygote\n", u->key);
    } else {
        const char *mid = k->kind != T_MUT        ? ""
                          : k->mi == LT_PM_TIMING ? "timing"
                                                : k->t->ml.items[k->mi].id;
        fprintf(r->run_log, "%s %s %.16s%s%s\n", u->key, kind_name(k->kind),
                k->t->sha, *mid ? " " : "", mid);
    }
    fflush(r->run_log);
}

/*** Finishing jobs ***/

static int fail_input(struct patches_run *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int fail_input(struct patches_run *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = xvasprintf(fmt, ap);
    va_end(ap);
    lt_error("%s", s ? s : "input error");
    free(s);
    lt_exec_fail(&r->ex, LT_EXIT_USAGE);
    return -1;
}

static unsigned char *ref_skipped_map(const struct unit *u)
{
    unsigned char *m = xcalloc(lt_exec_lane_suite(u->lane)->n_tests + 1, 1);
    const json_t *parts[2] = {u->ref_json,
                              u->ref_json ? json_object_get(u->ref_json,
                                                            "held")
                                          : NULL};
    for (int p = 0; p < 2; p++) {
        const json_t *sk = parts[p] ? json_object_get(parts[p], "skipped_idx")
                                    : NULL;
        size_t i;
        json_t *v;
        json_array_foreach(sk, i, v) {
            json_int_t x = json_integer_value(v);
            if (x >= 0 && (size_t)x < lt_exec_lane_suite(u->lane)->n_tests)
                m[x] = 1;
        }
    }
    return m;
}

static void ref_done(struct patches_run *r, struct unit *u)
{
    if (!u->ref_main || (u->n_held && !u->ref_held))
        return;
    json_t *o = json_deep_copy(u->ref_main);
    json_t *calls = json_array(), *origins = json_array();
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(u->ref_main, "calls"), i, v) {
        json_array_append(calls, v);
        json_array_append_new(origins, json_string("test"));
    }
    if (u->ref_held) {
        json_array_foreach(json_object_get(u->ref_held, "calls"), i, v) {
            json_array_append(calls, v);
            json_array_append_new(origins, json_string("held_out"));
        }
        json_t *h = json_deep_copy(u->ref_held);
        json_object_del(h, "calls");
        json_object_set_new(o, "held", h);
    }
    json_object_set_new(o, "calls", calls);
    json_object_set_new(o, "origins", origins);
    u->ref_json = o;
    lt__pt_store_layer(r, u, u->ref->sha, "ref", o);
}

/* A reference run ended: its evidence, or the run stops when the
 * reference does not pass its own tests. */
static void reference_finished(struct patches_run *r, struct ptask *k,
                               const struct lt_run_report *j)
{
    struct unit *u = k->u;
    int held = k->kind == T_REF_HELD;
    char *why = NULL;
    json_t *ev = lt__pe_reference(u, j, held, &why);
    if (!ev) {
        fail_input(r, "program '%s': the reference fix %s does not pass "
                   "its own %stests: %s", u->p0->name, u->p0->reference,
                   held ? "held-out " : "", why);
        free(why);
        return;
    }
    if (held)
        u->ref_held = ev;
    else
        u->ref_main = ev;
    ref_done(r, u);
}

/* A run of a text's tests (layer 1 or held-out) ended: its evidence.
 * 1 when k was queued again (an engine error, once), else 0. */
static int tests_finished(struct patches_run *r, struct ptask *k,
                          const struct lt_run_report *j)
{
    struct unit *u = k->u;
    struct ptext *t = k->t;
    int held = k->kind == T_HELD;
    unsigned char *sk = u->ref_json ? ref_skipped_map(u) : NULL;
    json_t *ev = lt__pe_tests(u, j, held, sk);
    free(sk);
    if (!held && lt__pu_l1_passed(&(struct ptext){.l1 = ev}))
        json_object_set_new(ev, "cov", lt__pe_coverage(u, j));
    for (size_t i = 0; !held && j->test_needs && i < j->n_tests; i++)
        if (j->test_needs[j->tests[i]]) {
            json_object_set_new(ev, "processes", json_true());
            break;
        }
    if (strcmp(lt__pe_str(ev, "status"), "error") == 0 && !k->task.retried) {
        json_decref(ev);
        lt__patches_submit(r, k, 1);
        return 1;
    }
    if (held) {
        t->held = ev;
    } else {
        size_t collected = lt_exec_lane_suite(u->lane)->n_tests;
        json_object_set_new(ev, "tests_collected",
                            json_integer((json_int_t)collected));
        t->l1 = ev;
    }
    lt__pt_store_layer(r, u, t->sha, held ? "held" : "l1", ev);
    return 0;
}

/* A differential job ended: its evidence.  1 when k was queued again
 * (an engine error, once), else 0. */
static int diff_finished(struct patches_run *r, struct ptask *k,
                         const struct lt_run_report *j)
{
    json_t *ev = lt__pe_diff(j, k->probe_stuck);
    if (strcmp(lt__pe_str(ev, "status"), "error") == 0 && !k->task.retried) {
        json_decref(ev);
        lt__patches_submit(r, k, 1);
        return 1;
    }
    k->t->diff = ev;
    lt__pt_store_layer(r, k->u, k->t->sha, "diff", ev);
    return 0;
}

/* Records what a finished job showed and queues what it unlocks (the
 * task's finished op; the executor said once when the kernel could not
 * give the whole sandbox).  A job whose evidence is an engine error runs
 * once more. */
static void task_finished(struct lt_exec *ex, struct lt_task *xt,
                          const struct lt_run_report *j)
{
    struct patches_run *r = ex->owner;
    struct ptask *k = xt->owner;
    struct unit *u = k->u;
    int again = 0;
    switch (k->kind) {
    case T_REF_MAIN:
    case T_REF_HELD:
        reference_finished(r, k, j);
        break;
    case T_L1:
    case T_HELD:
        again = tests_finished(r, k, j);
        break;
    case T_DIFF:
        again = diff_finished(r, k, j);
        break;
    case T_MUT:
        again = lt__pm_finished(r, k, j);
        break;
    }
    if (again)
        return;
    free(k);
    advance(r, u);
}

/* A task that cannot run (the task's lost op): its zygote died with it
 * twice (the executor ran it once more after the first death), or its
 * differential job is too large to send; an engine error. */
static void task_lost(struct lt_exec *ex, struct lt_task *xt,
                      const char *why)
{
    struct patches_run *r = ex->owner;
    struct ptask *k = xt->owner;
    struct unit *u = k->u;
    struct ptext *t = k->t;
    lt__patches_unqueued(k);
    if (strcmp(why, "the job cannot be encoded") == 0 && k->kind == T_DIFF)
        why = "the differential job is too large";
    switch (k->kind) {
    case T_REF_MAIN:
    case T_REF_HELD:
        if (strcmp(why, "the runner died twice") == 0)
            lt_error("program '%s': the runner died twice during the "
                     "reference run", u->p0->name);
        else
            lt_error("program '%s': the reference run: %s", u->p0->name,
                     why);
        lt_exec_fail(ex, LT_EXIT_ENGINE);
        break;
    case T_L1:
    case T_HELD:
    case T_DIFF: {
        json_t *ev = json_pack("{s:s, s:s, s:f}", "status", "error",
                               "detail", why, "duration_ms", 0.0);
        const char *layer = k->kind == T_L1     ? "l1"
                            : k->kind == T_HELD ? "held"
                                                : "diff";
        if (k->kind == T_L1)
            t->l1 = ev;
        else if (k->kind == T_HELD)
            t->held = ev;
        else
            t->diff = ev;
        lt__pt_store_layer(r, u, t->sha, layer, ev);
        break;
    }
    case T_MUT:
        lt__pm_lost(r, k, why);
        break;
    }
    free(k);
    advance(r, u);
}

/*** A unit's tests ***/

/* The test ids of the unit's suite, split into main and held-out tests
 * by the file part of each node id. */
static int setup_tests(struct patches_run *r, struct unit *u)
{
    size_t nt = lt_exec_lane_suite(u->lane)->n_tests;
    u->main_tests = xcalloc(nt + 1, sizeof(uint32_t));
    u->held_tests = xcalloc(nt + 1, sizeof(uint32_t));
    char *held = u->p0->held_out;
    size_t hl = held ? strlen(held) : 0;
    for (size_t i = 0; i < nt; i++) {
        int is_held = 0;
        if (held) {
            const char *id = lt_exec_lane_suite(u->lane)->test_ids[i];
            const char *sep = strstr(id, "::");
            char *file = sep ? xstrndup(id, (size_t)(sep - id)) : xstrdup(id);
            /* Node ids are relative to pytest's rootdir: try the working
             * directory and its ancestors as that root. */
            char *root = xstrdup(u->cwd);
            for (;;) {
                char *p = xasprintf("%s/%s", root, file);
                char *real = realpath(p, NULL);
                free(p);
                if (real) {
                    is_held = strcmp(real, held) == 0 ||
                              (strncmp(real, held, hl) == 0 &&
                               real[hl] == '/');
                    free(real);
                    break;
                }
                char *up = lt__pi_dir_of(root);
                int top = strcmp(up, root) == 0;
                free(root);
                root = up;
                if (top)
                    break;
            }
            free(root);
            free(file);
        }
        if (is_held)
            u->held_tests[u->n_held++] = (uint32_t)i;
        else
            u->main_tests[u->n_main++] = (uint32_t)i;
    }
    if (u->n_main == 0)
        return fail_input(r, "program '%s': no tests collected from %s",
                          u->p0->name, u->p0->tests);
    if (held && u->n_held == 0)
        return fail_input(r, "program '%s': no held-out tests collected from "
                          "%s", u->p0->name, held);
    u->have_tests = 1;
    return 0;
}

/*** The unit's lane ***/

/* Work a pending unit will have once its tests are known, roughly. */
static size_t initial_work(const struct unit *u)
{
    size_t n = u->ref && !u->ref_json ? 1 : 0;
    for (size_t i = 0; i < u->n_texts; i++)
        n += u->texts[i]->is_cand && !u->texts[i]->l1;
    return n ? n : 1;
}

/* A zygote of the unit is ready (the lane's ready op); the first one's
 * tests are the unit's, and its first tasks follow from them. */
static int unit_ready(struct lt_exec *ex, struct lt_lane *l, int first,
                      char **why)
{
    struct patches_run *r = ex->owner;
    struct unit *u = lt_exec_lane_owner(l);
    (void)why; /* every failure stops the run */
    if (!first)
        return 0;
    if (lt_exec_lane_suite(l)->n_tests == 0)
        return fail_input(r, "program '%s': no tests collected from %s",
                          u->p0->name, u->p0->tests);
    if (setup_tests(r, u) < 0)
        return -1;
    advance(r, u);
    return 0;
}

/* A zygote of the unit could not start or collect the tests (the lane's
 * start_failed op): the run stops. */
static void unit_start_failed(struct lt_exec *ex, struct lt_lane *l, int rc,
                              const char *msg)
{
    struct patches_run *r = ex->owner;
    struct unit *u = lt_exec_lane_owner(l);
    if (rc == LT_ENOTESTS) {
        /* A FAILED frame without a readable message says nothing more
         * (the executor would name the code). */
        fail_input(r, "program '%s': the tests cannot be collected with "
                   "the buggy file in place: %s", u->p0->name,
                   strcmp(msg, lt_strerror(rc)) == 0 ? "" : msg);
        return;
    }
    lt_error("program '%s': %s", u->p0->name, msg);
    lt_exec_fail(ex, LT_EXIT_ENGINE);
}

/* The tasks the unit will have, for sharing the zygote slots (the lane's
 * work op): what it queued once its tests are known, before that an
 * estimate; none once it is done or when it needs no run. */
static size_t unit_work(const struct lt_lane *l)
{
    const struct unit *u = lt_exec_lane_owner(l);
    if (u->done || !u->pending_work)
        return 0;
    return u->have_tests ? lt_exec_queued(l) : initial_work(u);
}

/* The probe watchdog of a differential job (its task's watch op): a call
 * that makes no progress, which the runner's own per-call limit did not
 * stop, is killed.  No progress is CPU time, which load does not
 * stretch: a child starved of the CPU on a busy machine must not make
 * the reference look stuck (the comparison would be inconclusive and an
 * overfitting patch pass).  A call that sleeps uses no CPU: the wall
 * clock catches it, later. */
static int diff_watch(struct lt_exec *ex, struct lt_task *xt,
                      const struct lt_run_report *j,
                       double now)
{
    struct ptask *t = xt->owner;
    (void)ex;
    if (t->probe_stuck)
        return 0;
    double cpu = lt_run_cpu_ns(j);
    if (j->probe_index != t->probe_index ||
        j->probe_phase != t->probe_phase) {
        t->probe_index = j->probe_index;
        t->probe_phase = j->probe_phase;
        t->probe_at = now;
        t->probe_cpu_ns = cpu;
        return 0;
    }
    if (t->probe_cpu_ns < 0) /* the first reading of this probe */
        t->probe_cpu_ns = cpu;
    double limit = 3 * t->call_timeout + 2.0;
    if ((cpu >= 0 && cpu - t->probe_cpu_ns > limit * 1e9) ||
        now - t->probe_at > 3 * limit + 10.0) {
        t->probe_stuck = 1;
        return 1;
    }
    return 0;
}

static const struct lt_task_ops task_ops = {
    .prepare = task_prepare, .finished = task_finished, .lost = task_lost};
static const struct lt_task_ops diff_ops = {
    .prepare = task_prepare, .finished = task_finished, .lost = task_lost,
    .watch = diff_watch};
static const struct lt_lane_ops lane_ops = {
    .ready = unit_ready, .start_failed = unit_start_failed,
    .work = unit_work, .next = lt__patches_next, .started = unit_started};

/* The unit's lane: its zygotes run pytest on its tests with its buggy
 * file as the subject. */
static void unit_lane(struct patches_run *r, struct unit *u)
{
    struct lt_runner_config cfg = {
        .exe = lt__engine_exe(), .cwd = u->cwd, .scratch_base = r->scratch,
        .pytest_args = u->args, .n_pytest_args = u->n_args,
        .subjects = &u->subject, .n_subjects = 1, .debug = r->o->debug,
        .preload_generator = u->ref != NULL};
    u->lane = lt_exec_lane(&r->ex, &cfg, &lane_ops, u);
    lt_exec_lane_set_start_timeout(u->lane, ZYGOTE_TIMEOUT);
}

/*** The run's hooks ***/

static void progress_show(struct patches_run *r, int force)
{
    lt__progress_show(&r->prog, force, r->decided, r->n_patches, NULL);
}

/* Finishes the units with nothing queued or running (the executor's
 * idle hook).  Returns how many units wait for their first zygote: no
 * task of theirs is outstanding before it collected their tests. */
static size_t settle(struct lt_exec *ex)
{
    struct patches_run *r = ex->owner;
    size_t waiting = 0;
    for (size_t i = 0; i < r->n_units && !ex->fatal; i++) {
        struct unit *u = r->units[i];
        if (u->done)
            continue;
        if (!u->pending_work ||
            (u->have_tests && lt_exec_queued(u->lane) == 0 &&
             lt_exec_lane_running(u->lane) == 0))
            finish_unit(r, u);
        else if (!u->have_tests)
            waiting++;
    }
    return waiting;
}

/* The end of the run, after the executor's last commit: the run's
 * figures in the store (for bench/patches_bench.sh), then the last
 * progress line.  The executor then reports a failed write. */
static void run_end(struct patches_run *r)
{
    if (!r->ex.store_rc && lt_exec_write(&r->ex) == 0) {
        static const char *const keys[] = {
            "patches_elapsed_s", "patches_zygotes", "patches_jobs",
            "patches_mutant_jobs", "patches_texts"};
        char v[5][64];
        size_t jobs = 0;
        for (int k = 0; k <= T_MUT; k++)
            jobs += r->jobs_started[k];
        snprintf(v[0], sizeof(v[0]), "%.3f", lt__now() - r->t_start);
        snprintf(v[1], sizeof(v[1]), "%zu", r->zygotes_started);
        snprintf(v[2], sizeof(v[2]), "%zu", jobs);
        snprintf(v[3], sizeof(v[3]), "%zu", r->jobs_started[T_MUT]);
        snprintf(v[4], sizeof(v[4]), "%zu", r->n_texts);
        for (size_t k = 0; k < sizeof(keys) / sizeof(*keys); k++) {
            int rc = lt_store_set_meta(r->st, keys[k], v[k]);
            lt_exec_wrote(&r->ex, rc);
            if (rc < 0)
                break;
        }
    }
    lt_exec_commit(&r->ex, 1);
    {
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        lt_debug("patches: %.2f s (engine CPU %.2f s), %zu zygotes, jobs: "
                 "ref %zu, l1 %zu, held %zu, diff %zu, mutants %zu",
                 lt__now() - r->t_start,
                 (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
                     (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6,
                 r->zygotes_started,
                 r->jobs_started[T_REF_MAIN] + r->jobs_started[T_REF_HELD],
                 r->jobs_started[T_L1], r->jobs_started[T_HELD],
                 r->jobs_started[T_DIFF], r->jobs_started[T_MUT]);
    }
    progress_show(r, 1);
}

/* The executor's progress hook; its last call (force) ends the run. */
static void run_progress(struct lt_exec *ex, int force)
{
    struct patches_run *r = ex->owner;
    if (force)
        run_end(r);
    else
        progress_show(r, 0);
}

/*** Entry point: the run's steps ***/

/* Removes a database this run created and left empty (a usage error
 * before any result), with its SQLite side files. */
static void remove_db_files(const char *db)
{
    static const char *const suffixes[] = {"", "-wal", "-shm", "-journal",
                                           ".lock"};
    for (size_t i = 0; i < sizeof(suffixes) / sizeof(*suffixes); i++) {
        char *p = xasprintf("%s%s", db, suffixes[i]);
        unlink(p);
        free(p);
    }
}

/* Reads the programs and candidates, and keeps this shard's (shard:
 * "index/count", or "" for the whole triage).  Sets *plan to the triage's
 * fingerprint.  0, or an exit code after an error printed. */
static int read_candidates(struct patches_run *r, const char *shard,
                           char **plan)
{
    const struct lt_patches_opts *o = r->o;
    if (lt__pi_read_programs(r) < 0 || lt__pi_read_patches(r) < 0)
        return LT_EXIT_USAGE;
    *plan = lt__pi_fingerprint(r);
    if (*shard && r->n_patches) {
        size_t all = r->n_patches;
        lt__pi_shard(r, o->run.shard_index, o->run.shard_count);
        if (r->n_patches == 0) {
            lt_error("shard %s gets none of the %zu patches: use at most %zu "
                     "shards", shard, all, all);
            return LT_EXIT_USAGE;
        }
    }
    if (r->n_patches == 0) {
        lt_error("--patches %s: no patch found", o->patches);
        return LT_EXIT_USAGE;
    }
    return 0;
}

/* Groups the programs with candidates into units, and the candidates
 * into their units' distinct texts.  0, or an exit code. */
static int build_units(struct patches_run *r)
{
    for (size_t i = 0; i < r->n_progs; i++)
        if (r->progs[i].n_patches && lt__pu_unit_for(r, &r->progs[i]) < 0)
            return LT_EXIT_USAGE;
    for (size_t i = 0; i < r->n_patches; i++) {
        struct patch *p = &r->patches[i];
        p->pt = lt__pu_text_of(p->prog->unit, p->text, p->len, p->sha);
        p->pt->is_cand = 1;
    }
    for (size_t i = 0; i < r->n_units; i++)
        r->n_texts += r->units[i]->n_texts;
    return 0;
}

/* Opens the store and marks this run in it: its schema, shard and plan,
 * not complete yet; the previous run's verdicts are cleared.  Sets
 * *db_existed.  0, or an exit code after an error printed. */
static int open_store(struct patches_run *r, const char *shard,
                      const char *plan, int *db_existed)
{
    const struct lt_patches_opts *o = r->o;
    *db_existed = access(o->run.db, F_OK) == 0;
    int code = lt__patches_store_open(o->run.db, LT_PATCHES_SCHEMA, shard,
                                      plan, &r->st);
    if (code && !r->st) /* not opened: whatever is there is not ours */
        *db_existed = 1;
    return code;
}

/* Contract: see patches_internal.h. */
int lt__patches_store_open(const char *db, const char *schema,
                           const char *shard, const char *plan,
                           struct lt_store **st)
{
    char *errmsg = NULL;
    *st = NULL;
    int rc = lt_store_open(db, st, &errmsg);
    if (rc < 0) {
        lt_error("%s: %s", db, errmsg ? errmsg : lt_strerror(rc));
        free(errmsg);
        return lt_exit_from_error(rc);
    }
    rc = lt_store_patches_init(*st);
    if (rc == 0)
        rc = lt_store_begin(*st);
    if (rc == 0)
        rc = lt_store_clear_patch_runs(*st);
    if (rc == 0)
        rc = lt_store_set_meta(*st, "patches_schema", schema);
    /* A shard's store holds its candidates' results; used as another
     * shard, `litmus merge` would take it for that one. */
    char *was = NULL;
    if (rc == 0)
        rc = lt_store_get_meta(*st, lt_patches_shard_store.shard_key, &was);
    if (rc == 0 && was && strcmp(was, shard) != 0) {
        lt_error("%s holds %s%s, not %s%s; use another --db", db,
                 *was ? "patches shard " : "the whole triage", was,
                 *shard ? "shard " : "the whole triage", shard);
        free(was);
        lt_store_rollback(*st);
        return LT_EXIT_USAGE;
    }
    free(was);
    if (rc == 0 && *shard)
        rc = lt_store_set_meta(*st, lt_patches_shard_store.shard_key, shard);
    if (rc == 0)
        rc = lt_store_set_meta(*st, lt_patches_shard_store.settings_key, plan);
    if (rc == 0)
        rc = lt_store_set_meta(*st, lt_patches_shard_store.complete_key, "0");
    if (rc == 0)
        rc = lt_store_commit(*st);
    return rc < 0 ? lt__store_write_failed(*st, db, rc) : 0;
}

/* Plans every unit from the store and, when any run is needed, readies
 * what runs need: the embedded Python (code sharing, mutants) and a
 * scratch directory.  0, or LT_EXIT_ENGINE after an error printed. */
static int plan_runs(struct patches_run *r)
{
    int need_runs = 0;
    for (size_t i = 0; i < r->n_units; i++) {
        if (lt__pu_plan(r, r->units[i]) < 0)
            return LT_EXIT_ENGINE;
        need_runs |= r->units[i]->pending_work;
    }
    if (!need_runs)
        return 0;
    /* The embedded interpreter compiles the texts (code sharing) and the
     * mutants. */
    if (lt_operators_init() < 0) {
        lt_error("cannot start the embedded Python for the operators");
        return LT_EXIT_ENGINE;
    }
    for (size_t i = 0; i < r->n_units; i++)
        lt__pu_share_by_code(r->units[i]);
    r->scratch = lt_sandbox_scratch_new(NULL);
    if (!r->scratch) {
        lt_error("cannot create a scratch directory: %s", strerror(errno));
        return LT_EXIT_ENGINE;
    }
    return 0;
}

/* Runs every unit's tasks on the executor, one lane each, until every
 * unit is decided.  Returns the executor's exit code. */
static int execute(struct patches_run *r)
{
    const char *log_path = getenv("LITMUS_RUN_LOG");
    r->run_log = log_path && *log_path ? fopen(log_path, "a") : NULL;
    lt__progress_init(&r->prog, r->o->run.progress, "patches");
    for (size_t i = 0; i < r->n_units; i++)
        unit_lane(r, r->units[i]);
    r->ex.st = r->st;
    r->ex.db = r->o->run.db;
    r->ex.batch = BATCH_WRITES;
    r->ex.idle = settle;
    r->ex.progress = run_progress;
    return lt_exec_run(&r->ex);
}

/* Reports every verdict and, when each candidate has one (exit 1 is the
 * overfitting gate), marks the triage complete.  Returns the exit code. */
static int report(struct patches_run *r)
{
    int code = lt__patches_report(r->st, r->o, lt__now() - r->t_start,
                                  r->n_texts, stdout);
    if (code == 0 || code == 1) {
        int rc = lt_store_set_meta(r->st, lt_patches_shard_store.complete_key,
                                   "1");
        if (rc < 0)
            code = lt__store_write_failed(r->st, r->o->run.db, rc);
    }
    return code;
}

/* Frees the run; the zygotes stop first, since a lane's pool uses its
 * unit's strings. */
static void run_free(struct patches_run *r)
{
    if (r->run_log)
        fclose(r->run_log);
    for (size_t i = 0; i < r->n_units; i++)
        lt__pu_free_tasks(&r->ex, r->units[i]);
    lt_exec_close(&r->ex); /* stops the zygotes */
    for (size_t i = 0; i < r->n_units; i++)
        lt__pu_free(r->units[i]);
    free(r->units);
    if (r->scratch) {
        lt_sandbox_scratch_remove(r->scratch);
        free(r->scratch);
    }
    for (size_t i = 0; i < r->n_patches; i++) {
        free(r->patches[i].run_id);
        free(r->patches[i].text);
    }
    free(r->patches);
    for (size_t i = 0; i < r->n_progs; i++)
        lt__pi_prog_free(&r->progs[i]);
    free(r->progs);
    lt_store_close(r->st);
}

/* Contract: see engine.h. */
int lt_patches(const struct lt_patches_opts *o)
{
    struct patches_run r;
    memset(&r, 0, sizeof(r));
    r.o = o;
    r.task_ops = &task_ops;
    r.diff_ops = &diff_ops;
    lt_exec_init(&r.ex, o->run.jobs);
    r.ex.owner = &r;
    r.t_start = lt__now();
    int db_existed = 1;
    char *plan = NULL;
    char shard[48] = "";
    if (o->run.shard_count)
        snprintf(shard, sizeof(shard), "%u/%u", o->run.shard_index,
                 o->run.shard_count);
    int code = read_candidates(&r, shard, &plan);
    if (code == 0)
        code = build_units(&r);
    if (code == 0)
        code = open_store(&r, shard, plan, &db_existed);
    if (code == 0)
        code = plan_runs(&r);
    if (code == 0)
        code = execute(&r);
    if (code == 0)
        code = report(&r);
    free(plan);
    run_free(&r);
    if (code == LT_EXIT_USAGE && !db_existed)
        remove_db_files(o->run.db);
    return code;
}
