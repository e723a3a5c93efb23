/* `litmus patches`' mutation layer: a text's mutants (those of the
 * candidate, or of the reference fix), the ones decided without a run,
 * the sample --mutation-budget affords (extended once its runs show what
 * they cost), their runs' verdicts, and the score the text's verdict
 * weighs (docs/patches.md, "Mutation score").
 * SPDX-License-Identifier: MIT */
#include "engine/jobs/patches/patches_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "engine/core/clock.h"
#include "engine/core/mutate.h"
#include "engine/core/select.h"

#define MUT_CONST 0.25        /* s added to a mutant's CPU budget */

/*** Mutation of a text ***/

/* Per line of the buggy file, the main tests that executed it; per
 * test, its cost (line events) and whether it executed anything. */
struct lt__line_index {
    struct lt_u32s {
        uint32_t *v;
        size_t n, cap;
    } *by_line;
    size_t n_lines;
    double *work;
    unsigned char *all, *covered;
};

static void line_index_free(struct lt__line_index *x)
{
    if (!x)
        return;
    for (size_t l = 0; l <= x->n_lines; l++)
        free(x->by_line[l].v);
    free(x->by_line);
    free(x->work);
    free(x->all);
    free(x->covered);
    free(x);
}

/* Coverage reported by a child is hostile input: lines outside the
 * buggy file are dropped (the tracer sees its lines only). */
static struct lt__line_index *line_index(const struct unit *u,
                                         const json_t *cov)
{
    struct lt__line_index *x = xcalloc(1, sizeof(*x));
    size_t nt = u->n_main;
    x->n_lines = u->buggy_lines;
    x->by_line = xcalloc(x->n_lines + 1, sizeof(*x->by_line));
    x->work = xcalloc(nt + 1, sizeof(double));
    x->all = xcalloc(nt + 1, 1);
    x->covered = xcalloc(nt + 1, 1);
    const json_t *lines = json_object_get(cov, "lines");
    const json_t *events = json_object_get(cov, "events");
    for (size_t k = 0; k < nt; k++) {
        x->all[k] = 1;
        x->work[k] = (double)json_integer_value(json_array_get(events, k));
        const json_t *ls = json_array_get(lines, k);
        x->covered[k] = json_array_size(ls) > 0;
        size_t i;
        const json_t *v;
        json_array_foreach(ls, i, v) {
            json_int_t line = json_integer_value(v);
            if (line < 0 || (size_t)line > x->n_lines)
                continue;
            struct lt_u32s *t = &x->by_line[line];
            if (t->n && t->v[t->n - 1] == (uint32_t)k)
                continue;
            if (t->n == t->cap) {
                t->cap = t->cap ? 2 * t->cap : 4;
                t->v = xrealloc(t->v, t->cap * sizeof(uint32_t));
            }
            t->v[t->n++] = (uint32_t)k;
        }
    }
    return x;
}

static size_t index_cover(const void *ctx, long line, const uint32_t **tests)
{
    const struct lt__line_index *x = ctx;
    if (line < 0 || (size_t)line > x->n_lines)
        return 0;
    *tests = x->by_line[line].v;
    return x->by_line[line].n;
}

/* The main tests (as positions in u->main_tests) a mutant of text t runs,
 * by the shared rule (lt__select_tests): those that executed its lines,
 * cheapest first; every test for a structural change; every test that
 * executed anything for a change beyond the buggy file's lines, which
 * the tracer does not see. */
static size_t select_tests(const struct unit *u, struct ptext *t,
                           const json_t *cov, const struct lt_mutant *m,
                           int structural, uint32_t **out)
{
    if (!t->lines_idx)
        t->lines_idx = line_index(u, cov);
    struct lt__line_index *x = t->lines_idx;
    int beyond = !structural && (size_t)m->end_line > u->buggy_lines;
    struct lt__selection sel = {u->n_main, beyond ? x->covered : x->all,
                                x->work, index_cover, x, NULL};
    return lt__select_tests(&sel, m->line, m->end_line,
                            structural || beyond, out);
}

/*** The mutation budget ***/

#define MUT_RUN_S 0.03         /* s a mutant's child costs besides its tests
                                  (fork, compiling the text, the guards) */
#define MUT_TIMEOUT_SHARE 0.05 /* share of mutants expected to time out
                                  (2% on the corpus), for the estimate */

/* A text's mutants under --mutation-budget (docs/patches.md, "Mutation
 * score"): those whose fate needs a run (valid, covered, not equivalent,
 * and the duplicates of such) in sample order, the first n_sample of
 * them sampled.  Costs are CPU seconds of the tests on the text: the
 * first sample is sized with layer 1's times, which trace coverage and
 * so run pure Python several times slower than a mutant's run; when
 * what that sample cost leaves too little for every mutant, one timing
 * run of the tests on the text without tracing gives the times the
 * sample is extended with.  A mutant's cost is a model from its verdict
 * and the test that decided it, never its own measured time, so the
 * same stored evidence (a resumed run) gives the same sample. */
struct lt__mut_sample {
    size_t *order;
    size_t n_order, n_sample;
    int stage;               /* 1: first sample; 0: its timing run;
                                2: the last */
    double budget;           /* s for the mutants; 0: every mutant */
    double est_total;        /* s: every runnable mutant's estimate */
    double *tcpu;            /* per main test position: CPU s without
                                tracing (the timing run), or NULL */
    int timed;               /* a timing run was needed */
    double timing_s;         /* its cost, taken off the budget */
    double timing_ms;        /* its child time */
    unsigned char *kind;     /* per mutant: enum below */
    unsigned char *needed;   /* per mutant: a sampled mutant needs its run */
    unsigned char *counted;  /* per mutant: in the score */
    long *kpos;              /* per mutant: position of the deciding test
                                in its selection, or -1 */
    double *est;             /* per mutant: estimated cost of its run, s */
    double *ms;              /* per mutant: child time of its run */
    double *work;            /* per main test position: line events */
    double work_total;       /* the suite's line events */
    double l1_total;         /* the suite's CPU s in layer 1 */
    double real_total;       /* ... in the timing run */
};

enum { MK_KNOWN, MK_RUN, MK_DUP };  /* no run; runs; shares a MK_RUN's */

static void sample_free(struct lt__mut_sample *s)
{
    if (!s)
        return;
    free(s->order);
    free(s->tcpu);
    free(s->kind);
    free(s->needed);
    free(s->counted);
    free(s->kpos);
    free(s->est);
    free(s->ms);
    free(s->work);
    free(s);
}

/* How mut_tests prices a test: for the model (estimates and costs), its
 * share of the suite's line events, which are the same on every run,
 * times the suite's CPU time in layer 1 (TM_LAYER1), or in the timing
 * run when there was one (TM_REAL): a suite's total varies less from run
 * to run than the times of its small tests, which the kernel counts in
 * ticks of a few ms.  For a limit (TM_LIMIT), its own time: the timing
 * run's when there was one, else layer 1's. */
enum { TM_LAYER1, TM_REAL, TM_LIMIT };

/* The tests mutant i runs (positions in u->main_tests, *sel) and their
 * CPU seconds on the text (*cpu), priced by mode.  Both the caller's to
 * free. */
static size_t mut_tests(const struct unit *u, struct ptext *t, size_t i,
                        int mode, uint32_t **sel, double **cpu)
{
    const json_t *cov = lt__pt_cov_of(u, t);
    size_t n = select_tests(u, t, cov, &t->ml.items[i],
                            t->an[i].structural, sel);
    const json_t *cpus = json_object_get(cov, "cpu_ms");
    const struct lt__mut_sample *s = t->samp;
    const double *tcpu = mode != TM_LAYER1 && s ? s->tcpu : NULL;
    double scale = -1;
    if (mode != TM_LIMIT && s && s->work_total > 0)
        scale = (tcpu ? s->real_total : s->l1_total) / s->work_total;
    *cpu = xcalloc(n + 1, sizeof(double));
    for (size_t q = 0; q < n; q++) {
        uint32_t k = (*sel)[q];
        double x = scale >= 0 ? s->work[k] * scale
                   : tcpu     ? tcpu[k]
                              : json_number_value(json_array_get(cpus, k)) /
                                1000;
        (*cpu)[q] = isfinite(x) && x > 0 ? x : 0;
    }
    return n;
}

/* What mutant i's run is expected to cost: every selected test (a
 * survivor runs them all), the child's own cost, and a share of the
 * extra a timeout costs (factor x the slowest test + the constant: the
 * per-test limit of task_prepare). */
static double mut_estimate(const struct patches_run *r, const struct unit *u,
                           struct ptext *t, size_t i, int real)
{
    uint32_t *sel = NULL;
    double *cpu = NULL, sum = 0, max = 0;
    size_t n = mut_tests(u, t, i, real ? TM_REAL : TM_LAYER1, &sel, &cpu);
    for (size_t q = 0; q < n; q++) {
        sum += cpu[q];
        max = cpu[q] > max ? cpu[q] : max;
    }
    free(sel);
    free(cpu);
    return MUT_RUN_S + sum +
           MUT_TIMEOUT_SHARE *
               ((r->o->run.timeout_factor - 1) * max + MUT_CONST);
}

/* The position in mutant i's selection of the test that decided its
 * verdict v (killed_by names it), or -1: none, or a survivor. */
static long killer_pos(const struct unit *u, struct ptext *t, size_t i,
                       enum lt_verdict v, const char *killed_by)
{
    if (!killed_by || v == LT_VERDICT_SURVIVED)
        return -1;
    uint32_t *sel = NULL;
    double *cpu = NULL;
    size_t n = mut_tests(u, t, i, TM_LAYER1, &sel, &cpu);
    const struct lt_suite *suite = lt_exec_lane_suite(u->lane);
    long p = -1;
    for (size_t q = 0; q < n && p < 0; q++) {
        uint32_t x = u->main_tests[sel[q]];
        if (x < suite->n_tests && suite->test_ids[x] &&
            strcmp(suite->test_ids[x], killed_by) == 0)
            p = (long)q;
    }
    free(sel);
    free(cpu);
    return p;
}

/* What mutant i's run cost by the model: the selected tests up to the
 * one that decided it (all of them for a survivor), a timeout's limit in
 * place of the test that timed out, and the child's own cost.  0 for a
 * fate without a run. */
static double mut_charge(const struct patches_run *r, const struct unit *u,
                         struct ptext *t, size_t i, int real)
{
    enum lt_verdict v = (enum lt_verdict)t->mv[i];
    if (v == LT_VERDICT_PENDING || v == LT_VERDICT_EQUIVALENT ||
        v == LT_VERDICT_INVALID || v == LT_VERDICT_NO_COVERAGE)
        return 0;
    if (v == LT_VERDICT_ERROR)
        return mut_estimate(r, u, t, i, real);
    uint32_t *sel = NULL;
    double *cpu = NULL;
    size_t n = mut_tests(u, t, i, real ? TM_REAL : TM_LAYER1, &sel, &cpu);
    long kp = t->samp->kpos[i];
    size_t p = kp >= 0 && (size_t)kp < n ? (size_t)kp : n;
    double f = r->o->run.timeout_factor, sum = 0;
    for (size_t q = 0; q < p; q++)
        sum += cpu[q];
    if (v == LT_VERDICT_TIMEOUT)
        sum += p < n ? f * cpu[p] + MUT_CONST : (f - 1) * sum + MUT_CONST;
    else if (p < n)
        sum += cpu[p];
    free(sel);
    free(cpu);
    return MUT_RUN_S + sum;
}

struct stored_mut {
    struct unit *u;
    struct ptext *t;
};

static int load_mutant(const struct lt_candidate_mutant *m, void *ud)
{
    struct stored_mut *sm = ud;
    struct ptext *t = sm->t;
    for (size_t i = 0; i < t->ml.count; i++)
        if (strcmp(t->ml.items[i].id, m->mutant_id) == 0) {
            enum lt_verdict v = lt_verdict_from_name(m->verdict);
            if (v != LT_VERDICT_PENDING) {
                t->mv[i] = (unsigned char)v;
                t->samp->ms[i] = isfinite(m->duration_ms) ? m->duration_ms
                                                          : 0;
                if (t->an[i].status == LT_CHANGE_OK && t->dup_of[i] < 0)
                    t->samp->kpos[i] = killer_pos(sm->u, t, i, v,
                                                  m->killed_by);
            }
            break;
        }
    return 0;
}

static void put_mutant(struct patches_run *r, struct unit *u, struct ptext *t,
                       size_t i, enum lt_verdict v, const char *killed_by,
                       const char *detail, double ms)
{
    t->mv[i] = (unsigned char)v;
    struct lt_candidate_mutant cm = {u->key, t->sha, t->ml.items[i].id,
                                     lt_verdict_name(v), killed_by, detail,
                                     ms};
    if (lt_exec_write(&r->ex) == 0)
        lt_exec_wrote(&r->ex, lt_store_put_candidate_mutant(r->st, &cm));
}

/* Texts with the same code as t take its mutation result. */
static void share_mutation(struct patches_run *r, struct unit *u,
                           struct ptext *t)
{
    for (size_t i = 0; i < u->n_texts; i++) {
        struct ptext *w = u->texts[i];
        if (w->twin != t || w->mut)
            continue;
        w->mut = json_deep_copy(t->mut);
        json_object_set_new(w->mut, "shared_with", json_string(t->sha));
        json_object_set_new(w->mut, "duration_ms", json_real(0));
        lt__pt_store_layer(r, u, w->sha, "mut", w->mut);
    }
}

/* A stored mutation result counts under the current --mutation-budget
 * only (the mutants' verdicts are kept: a new budget reruns none that
 * ran). */
int lt__pm_budget_same(const struct lt_patches_opts *o, const json_t *mut)
{
    const char *s = lt__pe_str(mut, "status");
    if (!s || strcmp(s, "done") != 0)
        return 1;
    double b = lt__pe_num(mut, "budget_s", -1);
    return fabs(b - o->mutation_budget) < 1e-9;
}

static void finish_mutation(struct patches_run *r, struct unit *u,
                            struct ptext *t)
{
    struct lt__mut_sample *sp = t->samp;
    struct lt_summary s;
    memset(&s, 0, sizeof(s));
    /* The sampled mutants apart from those decided without a run. */
    double d = 0, v = 0, dk = 0, vk = 0, ms = sp->timing_ms;
    for (size_t i = 0; i < t->ml.count; i++) {
        enum lt_verdict x = (enum lt_verdict)t->mv[i];
        if (sp->needed[i])
            ms += sp->ms[i];
        if (!sp->counted[i])
            continue;
        lt_summary_add(&s, x);
        if (sp->kind[i] == MK_KNOWN) {
            dk += lt_verdict_is_detected(x);
            vk += lt_verdict_is_valid(x);
        } else {
            d += lt_verdict_is_detected(x);
            v += lt_verdict_is_valid(x);
        }
    }
    int sampled = sp->n_sample < sp->n_order;
    double lo = -1, hi = -1;
    double score = sampled ? lt__ps_score(d, v, (double)sp->n_sample,
                                          (double)sp->n_order, dk, vk, &lo,
                                          &hi)
                           : lt_summary_score(&s);
    json_t *counts = json_object();
    for (int x = LT_VERDICT_KILLED; x < LT_VERDICT__COUNT; x++)
        json_object_set_new(counts, lt_verdict_name((enum lt_verdict)x),
                            json_integer(s.counts[x]));
    json_decref(t->mut);
    t->mut = json_object();
    json_object_set_new(t->mut, "status", json_string("done"));
    json_object_set_new(t->mut, "score", score < 0 ? json_null()
                                                   : json_real(score));
    json_object_set_new(t->mut, "detected",
                        json_integer((json_int_t)(d + dk)));
    json_object_set_new(t->mut, "valid", json_integer((json_int_t)(v + vk)));
    json_object_set_new(t->mut, "mutants",
                        json_integer((json_int_t)t->ml.count));
    json_object_set_new(t->mut, "mutants_total",
                        json_integer((json_int_t)sp->n_order));
    json_object_set_new(t->mut, "mutants_run",
                        json_integer((json_int_t)sp->n_sample));
    json_object_set_new(t->mut, "sampled", json_boolean(sampled));
    if (sampled && score >= 0) {
        json_object_set_new(t->mut, "score_low", json_real(lo));
        json_object_set_new(t->mut, "score_high", json_real(hi));
    }
    json_object_set_new(t->mut, "budget_s", json_real(r->o->mutation_budget));
    json_object_set_new(t->mut, "estimate_s",
                        json_real(round(sp->est_total * 10) / 10));
    json_object_set_new(t->mut, "timing_run", json_boolean(sp->timed));
    json_object_set_new(t->mut, "counts", counts);
    json_object_set_new(t->mut, "duration_ms", json_real(ms));
    lt__pt_store_layer(r, u, t->sha, "mut", t->mut);
    share_mutation(r, u, t);
}

static void mutation_error(struct patches_run *r, struct unit *u,
                           struct ptext *t, const char *why)
{
    json_decref(t->mut);
    t->mut = json_pack("{s:s, s:s, s:n, s:f}", "status", "error", "detail",
                       why, "score", "duration_ms", 0.0);
    lt__pt_store_layer(r, u, t->sha, "mut", t->mut);
    share_mutation(r, u, t);
}

/* Asks for the runs of the sampled mutants from position `from` on in
 * sample order: a duplicate's run is its representative's. */
static void queue_sample(struct patches_run *r, struct unit *u, struct ptext *t,
                         size_t from)
{
    struct lt__mut_sample *s = t->samp;
    for (size_t j = from; j < s->n_sample; j++) {
        size_t i = s->order[j];
        size_t rep = t->dup_of[i] >= 0 ? (size_t)t->dup_of[i] : i;
        s->counted[i] = 1;
        int asked = s->needed[rep];
        s->needed[rep] = 1;
        if (t->mv[rep]) {
            if (!t->mv[i])
                put_mutant(r, u, t, i, (enum lt_verdict)t->mv[rep], NULL,
                           "same code as another mutant", 0);
        } else if (!asked) {
            struct ptask *task = lt__patches_task_new(r, u, T_MUT, t);
            task->mi = rep;
            lt__patches_submit(r, task, 0);
            t->mut_left++;
        }
    }
}

/* Every run a text's sample asked for has ended: a first sample is
 * extended with the budget it left, at the cost its runs showed (by the
 * times of a timing run, asked for first when layer 1's times leave too
 * little for every mutant); else the score is final. */
static void mutation_next(struct patches_run *r, struct unit *u,
                          struct ptext *t)
{
    struct lt__mut_sample *s = t->samp;
    if (s->stage == 1) {
        int real = s->tcpu != NULL;
        double spent = 0, est = 0;
        for (size_t i = 0; i < t->ml.count; i++)
            if (s->needed[i]) {
                spent += mut_charge(r, u, t, i, real);
                est += real ? mut_estimate(r, u, t, i, 1) : s->est[i];
            }
        size_t k = lt__ps_extend(s->n_sample, s->n_order, spent, est,
                                 s->budget - s->timing_s);
        lt_debug("mutants of %.8s: %zu of %zu cost %.3f s (estimated "
                 "%.3f s, %s times; timing run %.3f s): %zu", t->sha,
                 s->n_sample, s->n_order, spent, est,
                 real ? "untraced" : "layer-1", s->timing_s, k);
        if (k < s->n_order && !s->timed) {
            s->stage = 0;
            struct ptask *task = lt__patches_task_new(r, u, T_MUT, t);
            task->mi = LT_PM_TIMING;
            lt__patches_submit(r, task, 0);
            return;
        }
        s->stage = 2;
        if (k > s->n_sample) {
            size_t from = s->n_sample;
            s->n_sample = k;
            queue_sample(r, u, t, from);
            if (t->mut_left)
                return;
        }
    }
    finish_mutation(r, u, t);
}

/* Sorts a text's mutants into those decided without a run and those to
 * run, in sample order. */
static void classify_mutants(struct patches_run *r, struct unit *u,
                             struct ptext *t)
{
    struct lt__mut_sample *s = t->samp;
    size_t n = t->ml.count;
    for (size_t i = 0; i < n; i++) {
        if (t->an[i].status == LT_CHANGE_EQUIVALENT) {
            if (!t->mv[i])
                put_mutant(r, u, t, i, LT_VERDICT_EQUIVALENT, NULL,
                           "compiles to the candidate's code objects", 0);
        } else if (t->an[i].status != LT_CHANGE_OK) {
            if (!t->mv[i])
                put_mutant(r, u, t, i, LT_VERDICT_INVALID, NULL,
                           t->an[i].detail, 0);
        } else if (t->dup_of[i] < 0) {
            uint32_t *sel = NULL;
            size_t k = select_tests(u, t, lt__pt_cov_of(u, t), &t->ml.items[i],
                                    t->an[i].structural, &sel);
            free(sel);
            if (k == 0 && !t->mv[i])
                put_mutant(r, u, t, i, LT_VERDICT_NO_COVERAGE, NULL,
                           "no test executes its lines", 0);
            if (k > 0)
                s->kind[i] = MK_RUN;
        }
    }
    for (size_t i = 0; i < n; i++) {
        long d = t->dup_of[i];
        if (t->an[i].status == LT_CHANGE_OK && d >= 0 &&
            s->kind[d] == MK_RUN)
            s->kind[i] = MK_DUP;
        if (s->kind[i] == MK_KNOWN)
            s->counted[i] = 1;
        else
            s->order[s->n_order++] = i;
    }
    lt__ps_shuffle(t->sha, s->order, s->n_order);
}

/* The first sample, from the estimates by layer 1's times (a resumed
 * run, which may have the timing run's, must choose the same): every
 * runnable mutant when they fit the budget. */
static void first_sample(struct patches_run *r, struct unit *u, struct ptext *t)
{
    struct lt__mut_sample *s = t->samp;
    size_t n = t->ml.count;
    s->est_total = 0;
    for (size_t i = 0; i < n; i++) {
        if (s->kind[i] != MK_RUN)
            continue;
        s->est[i] = mut_estimate(r, u, t, i, 0);
        s->est_total += s->est[i];
    }
    double budget = s->budget;
    s->n_sample = s->n_order;
    s->stage = 2;
    if (s->budget > 0 && s->est_total > budget) {
        /* Each run's estimate counts at the first member needing it. */
        double *cost = xcalloc(s->n_order + 1, sizeof(double));
        unsigned char *seen = xcalloc(n + 1, 1);
        for (size_t j = 0; j < s->n_order; j++) {
            size_t i = s->order[j];
            size_t rep = t->dup_of[i] >= 0 ? (size_t)t->dup_of[i] : i;
            if (!seen[rep])
                cost[j] = s->est[rep];
            seen[rep] = 1;
        }
        s->n_sample = lt__ps_first(cost, s->n_order, budget);
        s->stage = s->n_sample < s->n_order ? 1 : 2;
        free(cost);
        free(seen);
    }
}

/* Queues the first sample's runs. */
static void run_sample(struct patches_run *r, struct unit *u, struct ptext *t)
{
    queue_sample(r, u, t, 0);
    /* Duplicates of mutants decided without a run. */
    for (size_t i = 0; i < t->ml.count; i++)
        if (!t->mv[i] && t->dup_of[i] >= 0 && t->mv[t->dup_of[i]] &&
            t->samp->kind[i] == MK_KNOWN)
            put_mutant(r, u, t, i, (enum lt_verdict)t->mv[t->dup_of[i]],
                       NULL, "same code as another mutant", 0);
    if (t->mut_left == 0)
        mutation_next(r, u, t);
}

/* Takes the per-test CPU times of a timing run ("mtime" layer: cpu_ms per
 * main test, or status "error"): the estimates and the mutants' limits
 * use them from then on. */
static void use_timing(const struct unit *u, struct ptext *t,
                       const json_t *mt)
{
    struct lt__mut_sample *s = t->samp;
    const json_t *cpus = json_object_get(mt, "cpu_ms");
    s->timed = 1;
    s->timing_ms = lt__pe_num(mt, "duration_ms", 0);
    s->timing_s = MUT_RUN_S;
    if (json_array_size(cpus) != u->n_main || u->n_main == 0)
        return;
    double *v = xcalloc(u->n_main + 1, sizeof(double));
    for (size_t q = 0; q < u->n_main; q++) {
        double ms = json_number_value(json_array_get(cpus, q));
        if (!isfinite(ms) || ms < 0) {
            free(v);
            return;
        }
        v[q] = ms / 1000.0;
        s->real_total += v[q];
    }
    s->timing_s += s->real_total;
    s->tcpu = v;
}

/* The timing run of text t ended (j NULL: it could not run): its
 * per-test times are stored, and the sample extended with them. */
static void mutation_timed(struct patches_run *r, struct unit *u,
                           struct ptext *t, const struct lt_run_report *j)
{
    json_t *mt = json_object();
    int ok = j && !j->timed_out && j->seen;
    json_t *cpus = json_array();
    for (size_t q = 0; ok && q < u->n_main; q++) {
        uint32_t x = u->main_tests[q];
        ok = j->seen[x];
        json_array_append_new(cpus, json_real(j->test_cpu_ns[x] / 1e6));
    }
    double ms = 0;
    if (j && j->exited_at > 0)
        ms = (j->exited_at - j->started_at) * 1000.0;
    json_object_set_new(mt, "status", json_string(ok ? "done" : "error"));
    json_object_set_new(mt, "cpu_ms", ok ? cpus : json_array());
    if (!ok)
        json_decref(cpus);
    json_object_set_new(mt, "duration_ms", json_real(ms));
    lt__pt_store_layer(r, u, t->sha, "mtime", mt);
    use_timing(u, t, mt);
    json_decref(mt);
    t->samp->stage = 1;
    mutation_next(r, u, t);
}

/* Whether text t has the reference's code (the same tokens and the same
 * syntax tree): the same code, hence the same mutants with the same
 * fates. */
static int same_as_reference(const struct unit *u, const struct ptext *t)
{
    return !t->is_ref && u->ref &&
           ((t->code[0] && strcmp(t->code, u->ref->code) == 0) ||
            (t->sim && lt__pe_num(t->sim, "token", 0) >= 1.0 &&
             lt__pe_num(t->sim, "ast", 0) >= 1.0));
}

/* Generates the mutants of text t and analyses them (equivalent,
 * invalid, duplicates).  0, or -1 after its mutation result was set to
 * an error. */
static int generate_mutants(struct patches_run *r, struct unit *u,
                            struct ptext *t)
{
    char *name = xasprintf("candidate-%.16s.py", t->sha);
    char *msg = NULL;
    int rc = lt_operators_generate(name, t->text, t->len, "mutmut", &t->ml,
                                   &msg);
    free(name);
    if (rc < 0) {
        char *why = xasprintf("cannot generate mutants: %s",
                              msg ? msg : lt_strerror(rc));
        mutation_error(r, u, t, why);
        free(why);
        free(msg);
        return -1;
    }
    free(msg);
    size_t n = t->ml.count;
    t->an = xcalloc(n + 1, sizeof(*t->an));
    t->dup_of = xcalloc(n + 1, sizeof(long));
    t->mv = xcalloc(n + 1, 1);
    rc = lt__mutants_analyse(u->p0->buggy, t->text, t->len, t->ml.items, n,
                             NULL, t->an, t->dup_of, NULL, NULL);
    if (rc < 0) {
        mutation_error(r, u, t, "cannot compile the mutants");
        return -1;
    }
    return 0;
}

/* A new, empty sample of text t's mutants under the run's budget, with
 * the suite's costs by layer 1's coverage cov. */
static struct lt__mut_sample *sample_new(const struct patches_run *r,
                                         const struct unit *u,
                                         const struct ptext *t,
                                         const json_t *cov)
{
    size_t n = t->ml.count;
    struct lt__mut_sample *s = xcalloc(1, sizeof(*s));
    s->budget = r->o->mutation_budget;
    s->order = xcalloc(n + 1, sizeof(size_t));
    s->kind = xcalloc(n + 1, 1);
    s->needed = xcalloc(n + 1, 1);
    s->counted = xcalloc(n + 1, 1);
    s->kpos = xcalloc(n + 1, sizeof(long));
    for (size_t i = 0; i < n; i++)
        s->kpos[i] = -1;
    s->est = xcalloc(n + 1, sizeof(double));
    s->ms = xcalloc(n + 1, sizeof(double));
    s->work = xcalloc(u->n_main + 1, sizeof(double));
    for (size_t q = 0; q < u->n_main; q++) {
        double e = (double)json_integer_value(
            json_array_get(json_object_get(cov, "events"), q));
        double c = json_number_value(
            json_array_get(json_object_get(cov, "cpu_ms"), q));
        s->work[q] = e > 0 ? e : 0;
        s->work_total += s->work[q];
        s->l1_total += isfinite(c) && c > 0 ? c / 1000 : 0;
    }
    return s;
}

/* Restores what the store holds of text t's mutants: the timing run's
 * times and the verdicts.  0, or a negative store code. */
static int restore_stored(struct patches_run *r, struct unit *u,
                          struct ptext *t)
{
    json_t *mt = NULL;
    int rc = lt__pt_load_layer(r, u, t, "mtime", &mt);
    if (rc == 0 && mt)
        use_timing(u, t, mt);
    json_decref(mt);
    struct stored_mut sm = {u, t};
    if (rc == 0)
        rc = lt_store_each_candidate_mutant(r->st, u->key, t->sha,
                                            load_mutant, &sm);
    return rc;
}

/* Generates the mutants of a text, drops the equivalent and invalid
 * ones, restores the verdicts already stored and queues the runs of its
 * first sample (every mutant within --mutation-budget). */
void lt__pm_start(struct patches_run *r, struct unit *u, struct ptext *t)
{
    t->mut_started = 1;
    if (same_as_reference(u, t)) {
        t->twin = u->ref;
        if (u->ref->mut)
            share_mutation(r, u, u->ref);
        return;
    }
    const json_t *cov = lt__pt_cov_of(u, t);
    const json_t *lines = cov ? json_object_get(cov, "lines") : NULL;
    if (!cov || json_array_size(lines) != u->n_main) {
        mutation_error(r, u, t, "no coverage of the tests on this text "
                       "(stored results of other tests? use a new --db)");
        return;
    }
    if (generate_mutants(r, u, t) < 0)
        return;
    t->samp = sample_new(r, u, t, cov);
    int rc = restore_stored(r, u, t);
    if (rc < 0) {
        lt_error("%s: %s", r->o->run.db, lt_strerror(rc));
        lt_exec_fail(&r->ex, LT_EXIT_ENGINE);
        return;
    }
    classify_mutants(r, u, t);
    first_sample(r, u, t);
    run_sample(r, u, t);
}

/*** A mutant's run ***/

/* The flags of a mutant run of text t: process mode when its layer 1
 * saw a test start a process or open a network socket. */
static uint32_t mut_flags(const struct ptext *t)
{
    const json_t *l1 = t->same ? t->same->l1 : t->l1;
    return LT_PF_MUT | (l1 && json_is_true(json_object_get(l1, "processes"))
                            ? LT_RUN_PROCESSES : 0);
}

/* The timing run of text t: every main test on the text itself, without
 * tracing; its limit is layer 1's, which tracing made longer. */
static void prepare_timing(const struct patches_run *r, struct ptask *k,
                           struct lt_launch *la, double *cpu)
{
    struct unit *u = k->u;
    struct ptext *t = k->t;
    lt__patches_job_tests(u, &la->spec, u->main_tests, u->n_main, 0);
    la->req.replacement = t->text;
    la->req.flags = mut_flags(t);
    const json_t *cpus = json_object_get(lt__pt_cov_of(u, t), "cpu_ms");
    double sum = 0;
    for (size_t i = 0; i < u->n_main; i++)
        sum += json_number_value(json_array_get(cpus, i)) / 1000;
    *cpu = r->o->run.timeout_factor * sum + MUT_CONST;
}

/* Contract: see patches_internal.h. */
void lt__pm_prepare(const struct patches_run *r, struct ptask *k,
                    struct lt_launch *la, double *cpu)
{
    const struct lt_patches_opts *o = r->o;
    struct unit *u = k->u;
    struct ptext *t = k->t;
    struct lt_run_spec *spec = &la->spec;
    if (k->mi == LT_PM_TIMING) {
        prepare_timing(r, k, la, cpu);
        return;
    }
    const struct lt_mutant *m = &t->ml.items[k->mi];
    uint32_t *sel = NULL;
    double *tcpu = NULL, sum = 0;
    size_t n = mut_tests(u, t, k->mi, TM_LIMIT, &sel, &tcpu);
    for (size_t i = 0; i < n; i++) {
        sum += tcpu[i];
        sel[i] = u->main_tests[sel[i]];
    }
    lt__patches_job_tests(u, spec, sel, n, 0);
    /* Each test also has a limit of its own, from its own time: a
     * mutant that loops in its first, cheapest test is stopped after
     * about factor x that test + the constant, not after the limit
     * of every test selected with it (on an exponential program, the
     * costliest test's). */
    spec->test_budget_ns = xcalloc(lt_exec_lane_suite(u->lane)->n_tests + 1,
                                   sizeof(double));
    for (size_t i = 0; i < n; i++)
        spec->test_budget_ns[sel[i]] =
            (o->run.timeout_factor * tcpu[i] + MUT_CONST) * 1e9;
    free(sel);
    free(tcpu);
    size_t len = 0;
    la->req.replacement = la->owned[0] = lt_mutant_apply(m, t->text, t->len,
                                                         &len);
    la->req.flags = mut_flags(t);
    la->req.stop_first = 1;
    *cpu = o->run.timeout_factor * sum + MUT_CONST;
}

/* Contract: see patches_internal.h. */
int lt__pm_finished(struct patches_run *r, struct ptask *k,
                    const struct lt_run_report *j)
{
    struct unit *u = k->u;
    struct ptext *t = k->t;
    if (k->mi == LT_PM_TIMING) {
        mutation_timed(r, u, t, j);
        return 0;
    }
    char *detail = NULL, *killed_by = NULL;
    enum lt_verdict v = lt__pe_mutant(lt_exec_lane_suite(u->lane), j, &detail,
                                      &killed_by);
    if (v == LT_VERDICT_ERROR && !k->task.retried) {
        free(detail);
        free(killed_by);
        lt__patches_submit(r, k, 1);
        return 1;
    }
    double ms = (lt__now() - j->started_at) * 1000.0;
    if (j->exited_at > 0)
        ms = (j->exited_at - j->started_at) * 1000.0;
    t->samp->ms[k->mi] = ms;
    t->samp->kpos[k->mi] = killer_pos(u, t, k->mi, v, killed_by);
    put_mutant(r, u, t, k->mi, v, killed_by, detail, ms);
    for (size_t i = 0; i < t->ml.count; i++)
        if (t->dup_of[i] == (long)k->mi && !t->mv[i])
            put_mutant(r, u, t, i, v, killed_by,
                       "same code as another mutant", 0);
    free(detail);
    free(killed_by);
    if (--t->mut_left == 0)
        mutation_next(r, u, t);
    return 0;
}

/* Contract: see patches_internal.h. */
void lt__pm_lost(struct patches_run *r, struct ptask *k, const char *why)
{
    struct unit *u = k->u;
    struct ptext *t = k->t;
    if (k->mi == LT_PM_TIMING) {
        mutation_timed(r, u, t, NULL);
        return;
    }
    put_mutant(r, u, t, k->mi, LT_VERDICT_ERROR, NULL, why, 0);
    if (--t->mut_left == 0)
        mutation_next(r, u, t);
}

/* Contract: see patches_internal.h. */
void lt__pm_text_free(struct ptext *t)
{
    lt__mutants_clear(t->an, t->ml.count);
    line_index_free(t->lines_idx);
    lt_mutant_list_free(&t->ml);
    free(t->an);
    free(t->dup_of);
    free(t->mv);
    sample_free(t->samp);
}
