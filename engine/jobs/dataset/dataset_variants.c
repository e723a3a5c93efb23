/* `litmus dataset typed|faults|rewrite`: program variants from the
 * generators of operators/dataset.py, each verified by execution against
 * the program it came from.  typed and faults keep variants that change
 * behaviour (K per cell, in a seeded order, with the witness); rewrite
 * keeps variants that behave exactly like their input and carries a fault
 * line through the rewrites, checked against the same rewrites of the
 * fault-free program.  SPDX-License-Identifier: MIT */
#include "engine/jobs/dataset/dataset_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "runners/runner.h"

#define REF_BUDGET_S 300.0 /* CPU seconds for a reference test run */
#define SPECULATE 1        /* candidates run ahead of a cell's need */

static const char *const thirds[] = {"first", "middle", "last"};
static const char *const types[] = {"statement", "value", "decision"};

/* {line, quarter, third, fraction} of a line of a text of `total` lines
 * (the formula of operators/dataset.py, location()). */
static json_t *location(int line, int total)
{
    if (total < 1)
        total = 1;
    int k = (line < total ? line : total) - 1;
    if (k < 0)
        k = 0;
    return json_pack("{s:i, s:i, s:s, s:f}", "line", line, "quarter",
                     k * 4 / total + 1, "third", thirds[k * 3 / total],
                     "fraction", (double)k / total);
}

/*** Reference and variant runs ***/

/* The reference run of a text that is not the file on disk: its time
 * limit comes from the baseline of the file (the same suite on the
 * program it was derived from), so that a faulty input that loops costs
 * a few times the suite, not the start-up limit. */
static void submit_text_ref(struct ds_run *r, struct ds_prog *p)
{
    const struct lt_dataset_opts *o = r->o;
    struct ds_lane *l = p->lane;
    struct ds_task *t = lt__ds_task_new(TK_TESTS, l, p->code, p->len);
    double budget = l->base_cpu_ms >= 0
                        ? o->run.timeout_factor * l->base_cpu_ms / 1000.0 +
                              1.0 + o->run.timeout_const
                        : 6 * o->timeout;
    t->budget_s = budget < REF_BUDGET_S ? budget : REF_BUDGET_S;
    t->untrusted = p->untrusted;
    t->owner = p;
    t->done = p->ref_done;
    lt__ds_submit(r, t);
}

static void base_done(struct ds_run *r, struct ds_task *t)
{
    struct ds_prog *p = t->owner;
    const char *st = json_string_value(json_object_get(t->result, "status"));
    if (st && (strcmp(st, "passed") == 0 || strcmp(st, "failed") == 0))
        p->lane->base_cpu_ms = json_real_value(json_object_get(t->result,
                                                               "cpu_ms"));
    lt__ds_task_free(t);
    submit_text_ref(r, p);
}

static int submit_ref(struct ds_run *r, struct ds_prog *p, ds_done_fn done);

static void clean_done(struct ds_run *r, struct ds_task *t)
{
    struct ds_prog *p = t->owner;
    const char *st = json_string_value(json_object_get(t->result, "status"));
    double ms = json_real_value(json_object_get(t->result, "child_ms"));
    p->base_ms = st && strcmp(st, "ok") == 0 && ms > 0 ? ms : 0;
    lt__ds_task_free(t);
    submit_ref(r, p, p->ref_done);
}

/* Submits the reference run of a program for the variant modes: its
 * inputs, or its tests on its text (the baseline when the text is the
 * file on disk); `done` gets it.  0, or -1 with --no-verify (nothing to
 * run). */
static int submit_ref(struct ds_run *r, struct ds_prog *p, ds_done_fn done)
{
    const struct lt_dataset_opts *o = r->o;
    struct ds_lane *l = p->lane;
    if (!l)
        return -1;
    p->ref_done = done;
    struct ds_task *t;
    const json_t *clean = json_object_get(p->rec, "original_code");
    if (l->bare && json_is_string(clean) && p->base_ms < 0) {
        /* A faulty program: the fault-free one it came from sets the
         * limit of its calls (a fault that loops costs a few times the
         * program, not --timeout). */
        t = lt__ds_task_new(TK_CASES, l, json_string_value(clean),
                            json_string_length(clean));
        t->calls = json_incref(p->inputs);
        t->call_timeout = o->timeout;
        t->budget_s = o->timeout * (double)(json_array_size(p->inputs) + 1) +
                      1;
        t->untrusted = 1;
        t->owner = p;
        t->done = clean_done;
        lt__ds_submit(r, t);
        return 0;
    }
    if (l->bare) {
        t = lt__ds_task_new(TK_CASES, l, p->code, p->len);
        t->calls = json_incref(p->inputs);
        t->call_timeout = o->timeout;
        if (p->base_ms > 0) {
            double lim = o->run.timeout_factor * p->base_ms / 1000.0 +
                         o->run.timeout_const;
            t->call_timeout = lim < o->timeout ? lim : o->timeout;
        }
        t->budget_s = t->call_timeout *
                          (double)(json_array_size(p->inputs) + 1) +
                      1;
        t->untrusted = 1;
    } else if (p->len == l->len && memcmp(p->code, l->source, p->len) == 0) {
        t = lt__ds_task_new(TK_BASELINE, l, "", 0);
        t->budget_s = REF_BUDGET_S;
    } else if (l->base_cpu_ms >= 0) {
        submit_text_ref(r, p);
        return 0;
    } else {
        t = lt__ds_task_new(TK_BASELINE, l, "", 0);
        t->budget_s = REF_BUDGET_S;
        t->owner = p;
        t->done = base_done;
        lt__ds_submit(r, t);
        return 0;
    }
    t->owner = p;
    t->done = done;
    lt__ds_submit(r, t);
    return 0;
}

/* Checks a finished reference run.  1: usable; 0: the program is skipped
 * (after a warning); -1: the program text compiles to the file on disk,
 * a baseline run was submitted in its place. */
static int ref_usable(struct ds_run *r, struct ds_prog *p, struct ds_task *t,
                      ds_done_fn again, int need_pass)
{
    const char *st = json_string_value(json_object_get(t->result, "status"));
    if (!st)
        st = "error";
    if (t->kind == TK_TESTS && strcmp(st, "equivalent") == 0) {
        struct ds_task *b = lt__ds_task_new(TK_BASELINE, t->lane, "", 0);
        b->budget_s = REF_BUDGET_S;
        b->owner = p;
        b->done = again;
        lt__ds_submit(r, b);
        return -1;
    }
    const char *why = NULL;
    if (lt__ds_compile_error(t)) {
        why = "does not compile";
    } else if (t->kind == TK_CASES) {
        if (strcmp(st, "ok") != 0)
            why = strcmp(st, "load_error") == 0 ? "does not load"
                  : strcmp(st, "timeout") == 0  ? "does not finish in time"
                                                : "fails to run";
    } else if (strcmp(st, "passed") != 0 && strcmp(st, "failed") != 0) {
        why = strcmp(st, "raised") == 0    ? "raises when imported"
              : strcmp(st, "timeout") == 0 ? "does not finish its tests "
                                             "in time"
                                           : "cannot run its tests";
    } else if (need_pass) {
        const char *oc = json_string_value(json_object_get(t->result,
                                                           "outcomes"));
        if (!oc || !strchr(oc, 'P'))
            why = "passes none of its tests";
    }
    if (why) {
        const json_t *e = json_object_get(t->result, "error");
        lt_warn("%s: id %s: the program %s%s%s; skipped", p->where,
                p->id_str, why, json_is_string(e) ? ": " : "",
                json_is_string(e) ? json_string_value(e) : "");
        return 0;
    }
    if (t->kind == TK_BASELINE)
        json_object_set_new(t->result, "disk", json_true());
    return 1;
}

struct ds_task *lt__ds_variant_task(struct ds_run *r, struct ds_prog *p,
                                    const struct ds_task *ref,
                                    const char *text, size_t len,
                                    int whole_suite)
{
    const struct lt_dataset_opts *o = r->o;
    struct ds_task *t;
    if (ref->kind == TK_CASES) {
        t = lt__ds_task_new(TK_CASES, ref->lane, text, len);
        /* Inputs on which the reference has no answer (it ran out of
         * time, or the input does not compile) are not run again. */
        t->calls = json_array();
        const json_t *rc = json_object_get(ref->result, "cases");
        size_t lost = 0;
        for (size_t i = 0; i < json_array_size(ref->calls); i++) {
            if (lt__ds_case_usable(json_array_get(rc, i)))
                json_array_append(t->calls, json_array_get(ref->calls, i));
            else
                lost++;
        }
        double child_s = json_real_value(json_object_get(ref->result,
                                                         "child_ms")) /
                             1000.0 -
                         (double)lost * ref->call_timeout;
        if (child_s < 0.001)
            child_s = 0.001;
        double limit = o->run.timeout_factor * child_s + o->run.timeout_const;
        if (limit > o->timeout)
            limit = o->timeout;
        t->call_timeout = limit;
        t->budget_s = limit * (double)(json_array_size(t->calls) + 1) + 0.5;
        t->untrusted = 1;
    } else {
        t = lt__ds_task_new(TK_TESTS, ref->lane, text, len);
        const char *oc = json_string_value(json_object_get(ref->result,
                                                           "outcomes"));
        size_t nt = oc ? strlen(oc) : 0;
        t->tests = xmalloc((nt + 1) * sizeof(uint32_t));
        int all_pass = 1;
        for (size_t i = 0; i < nt; i++) {
            if (oc[i] == '-' || (!whole_suite && oc[i] != 'P'))
                continue;
            all_pass &= oc[i] == 'P' || oc[i] == 'S';
            t->tests[t->n_tests++] = (uint32_t)i;
        }
        /* Any failure decides when every test passed on the reference;
         * otherwise the whole outcome vector is compared. */
        t->stop_first = all_pass;
        double cpu_s = json_real_value(json_object_get(ref->result,
                                                       "cpu_ms")) /
                       1000.0;
        t->budget_s =
            o->run.timeout_factor * cpu_s + 0.5 + o->run.timeout_const;
        t->untrusted = p->untrusted;
    }
    t->owner = p;
    return t;
}

static const char *verified_by(const struct ds_prog *p)
{
    if (p->lane && p->lane->java && p->lane->bare && !p->inputs)
        return "compile";
    return !p->lane ? NULL : p->lane->bare ? "inputs" : "tests";
}

/* Program fields carried into the output records, so that the next
 * command (faults -> rewrite) can verify them the same way. */
static void carry(json_t *rec, const struct ds_prog *p)
{
    if (p->path)
        json_object_set_new(rec, "path", json_string(p->path));
    if (p->tests)
        json_object_set_new(rec, "tests", json_string(p->tests));
    if (p->inputs)
        json_object_set(rec, "inputs", p->inputs);
    const json_t *fn = json_object_get(p->rec, "function_name");
    if (fn)
        json_object_set(rec, "function_name", (json_t *)fn);
}

/*** typed and faults: K behaviour-changing variants per cell ***/

enum cstate { C_PENDING, C_RUNNING, C_CHANGED, C_SAME, C_UNKNOWN };

struct cand {
    json_t *g;           /* the generator's item (borrowed from gen) */
    enum cstate state;
    json_t *witness;
    size_t cell;
};

struct cell {
    size_t *order;       /* candidates in the seeded order */
    size_t n, next, running, chosen;
    int done;
    size_t *pick;        /* the first K that changed behaviour */
};

struct var {
    json_t *gen;
    struct cand *c;
    size_t nc;
    struct cell cells[12];
    size_t ncells;
    struct ds_task *ref;
    size_t running;
    size_t k;
    int finished;
};

void lt__ds_variants_free(struct ds_prog *p)
{
    struct var *v = p->m;
    if (!v)
        return;
    for (size_t i = 0; i < v->nc; i++)
        json_decref(v->c[i].witness);
    free(v->c);
    for (size_t i = 0; i < v->ncells; i++) {
        free(v->cells[i].order);
        free(v->cells[i].pick);
    }
    json_decref(v->gen);
    lt__ds_task_free(v->ref);
    free(v);
    p->m = NULL;
}

static int index_of(const char *const *names, size_t n, const char *s)
{
    for (size_t i = 0; s && i < n; i++)
        if (strcmp(names[i], s) == 0)
            return (int)i;
    return -1;
}

static int kind_wanted(const char *kinds, const char *k)
{
    if (!kinds)
        return 1;
    size_t n = strlen(k);
    for (const char *s = kinds; *s;) {
        const char *e = strchr(s, ',');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        if (len == n && strncasecmp(s, k, n) == 0)
            return 1;
        s += len + (e != NULL);
    }
    return 0;
}

/* Deals the candidates into their cells, each in a seeded order.  They
 * are not compiled here first: the generator promises that they compile,
 * and one that compiles to the original's code shows up as the same
 * behaviour when it runs (the runner does not even run the tests). */
static int deal(struct ds_run *r, struct ds_prog *p, struct var *v,
                int (*cell_of)(const struct ds_run *, const json_t *))
{
    size_t n = json_array_size(v->gen);
    v->c = xcalloc(n + 1, sizeof(*v->c));
    for (size_t i = 0; i < n; i++) {
        json_t *g = json_array_get(v->gen, i);
        int cell = cell_of(r, g);
        const char *src = json_string_value(json_object_get(g, "source"));
        if (cell < 0 || !src)
            continue;
        v->c[v->nc] = (struct cand){g, C_PENDING, NULL, (size_t)cell};
        struct cell *cl = &v->cells[cell];
        cl->order = xrealloc(cl->order, (cl->n + 1) * sizeof(size_t));
        cl->order[cl->n++] = v->nc++;
    }
    r->s.candidates += v->nc;
    uint64_t base = lt__ds_mix(r->o->seed ^ lt__ds_hash(p->id_str));
    for (size_t k = 0; k < v->ncells; k++) {
        struct cell *cl = &v->cells[k];
        lt__ds_shuffle(cl->order, cl->n, lt__ds_mix(base + k));
        cl->pick = xcalloc(v->k + 1, sizeof(size_t));
    }
    (void)p;
    return 0;
}

static int typed_cell(const struct ds_run *r, const json_t *g)
{
    (void)r;
    int t = index_of(types, 3, json_string_value(json_object_get(g, "type")));
    int h = index_of(thirds, 3,
                     json_string_value(json_object_get(g, "third")));
    return t < 0 || h < 0 ? -1 : t * 3 + h;
}

static int fault_cell(const struct ds_run *r, const json_t *g)
{
    const struct lt_dataset_opts *o = r->o;
    const char *kind = json_string_value(json_object_get(g, "kind"));
    json_int_t q = json_integer_value(json_object_get(g, "quarter"));
    if (!kind || !kind_wanted(o->kinds, kind) || q < 1 || q > 4)
        return -1;
    if (o->quarter > 0)
        return q == o->quarter ? 0 : -1;
    return o->quarter < 0 ? (int)q - 1 : 0;
}

static int gen_prepare(struct ds_run *r, struct ds_prog *p, const char *fn,
                       size_t ncells, size_t k,
                       int (*cell_of)(const struct ds_run *, const json_t *))
{
    json_t *args = json_pack("{s:s%}", "source", p->code, p->len);
    json_t *gen = lt__ds_call(r, fn, args, p->where);
    if (!gen || !json_is_array(gen)) {
        lt_error("%s: id %s: %s", p->where, p->id_str,
                 gen ? "bad answer from the generator" : r->call_err);
        json_decref(gen);
        return r->call_rc == LT_EUSAGE || !gen ? LT_EXIT_USAGE
                                               : LT_EXIT_ENGINE;
    }
    struct var *v = xcalloc(1, sizeof(*v));
    p->m = v;
    v->gen = gen;
    v->ncells = ncells;
    v->k = k;
    return deal(r, p, v, cell_of);
}

int lt__ds_typed_prepare(struct ds_run *r, struct ds_prog *p)
{
    return gen_prepare(r, p, "typed", 9, (size_t)r->o->per_cell,
                       typed_cell);
}

int lt__ds_faults_prepare(struct ds_run *r, struct ds_prog *p)
{
    const struct lt_dataset_opts *o = r->o;
    return gen_prepare(r, p, "faults", o->quarter < 0 ? 4 : 1,
                       (size_t)o->per_program, fault_cell);
}

static json_t *typed_record(struct ds_run *r, struct ds_prog *p,
                            const struct cand *c, size_t rank)
{
    const json_t *g = c->g;
    const char *type = json_string_value(json_object_get(g, "type"));
    const char *third = json_string_value(json_object_get(g, "third"));
    const char *src = json_string_value(json_object_get(g, "source"));
    char *id = xasprintf("%s_%s_%s_%zu", p->id_str, type, third, rank + 1);
    char *name = xasprintf("%s.py", p->id_str);
    char *diff = lt__ds_udiff(p->code, src, name);
    json_t *rec = json_pack(
        "{s:s, s:O, s:s, s:s, s:O, s:O, s:O, s:O, s:O, s:s, s:s, s:O, s:s?,"
        " s:s%}",
        "id", id, "original_id", p->id, "type", type, "third", third, "line",
        json_object_get(g, "line"), "end_line",
        json_object_get(g, "end_line"), "fraction",
        json_object_get(g, "fraction"), "op", json_object_get(g, "op"),
        "description", json_object_get(g, "description"), "code", src,
        "diff", diff, "witness", c->witness ? c->witness : json_null(),
        "verified_by", verified_by(p), "original_code", p->code, p->len);
    carry(rec, p);
    free(id);
    free(name);
    free(diff);
    lt__ds_count_item(r, json_string_value(json_object_get(g, "op")), type,
                      third);
    return rec;
}

static json_t *fault_record(struct ds_run *r, struct ds_prog *p,
                            const struct cand *c, size_t cell, size_t rank)
{
    const json_t *g = c->g;
    const char *kind = json_string_value(json_object_get(g, "kind"));
    json_int_t q = json_integer_value(json_object_get(g, "quarter"));
    char *id = r->o->quarter < 0
                   ? xasprintf("%s_fault_q%zu_%zu", p->id_str, cell + 1,
                               rank + 1)
                   : xasprintf("%s_fault_%zu", p->id_str, rank + 1);
    const char *src = json_string_value(json_object_get(g, "source"));
    int line = (int)json_integer_value(json_object_get(g, "line"));
    json_t *loc = location(line, lt__ds_count_lines(p->code, p->len));
    json_t *rec = json_pack(
        "{s:s, s:O, s:s, s:i, s:I, s:O, s:O, s:O, s:O, s:O, s:s, s:s%, s:O,"
        " s:s?}",
        "id", id, "original_id", p->id, "kind", kind, "fault_line", line,
        "quarter", q, "third", json_object_get(loc, "third"), "fraction",
        json_object_get(g, "fraction"), "description",
        json_object_get(g, "description"), "original_line",
        json_object_get(g, "original_line"), "faulty_line",
        json_object_get(g, "faulty_line"), "code", src, "original_code",
        p->code, p->len, "witness", c->witness ? c->witness : json_null(),
        "verified_by", verified_by(p));
    json_decref(loc);
    carry(rec, p);
    free(id);
    char where[16];
    snprintf(where, sizeof(where), "quarter %d", (int)q);
    lt__ds_count_item(r, kind, "fault", where);
    return rec;
}

static void var_finish(struct ds_run *r, struct ds_prog *p)
{
    struct var *v = p->m;
    p->items = json_array();
    size_t short_cells = 0;
    for (size_t k = 0; k < v->ncells; k++) {
        struct cell *cl = &v->cells[k];
        if (cl->chosen < v->k)
            short_cells++;
        for (size_t j = 0; j < cl->chosen; j++) {
            const struct cand *c = &v->c[cl->pick[j]];
            json_array_append_new(
                p->items, r->o->mode == LT_DS_TYPED
                              ? typed_record(r, p, c, j)
                              : fault_record(r, p, c, k, j));
        }
        r->s.verified += cl->chosen;
    }
    if (short_cells)
        lt__ds_drop(r, r->o->mode == LT_DS_TYPED ? "cells_short"
                                                 : "programs_short",
                    short_cells);
    lt__ds_variants_free(p);
    lt__ds_prog_done(r, p);
}

/* A cell is done once its first K behaviour-changing candidates (in the
 * seeded order, every earlier candidate decided) are known, or every
 * candidate is decided. */
static void cell_update(struct var *v, struct cell *cl)
{
    if (cl->done)
        return;
    size_t chosen = 0;
    size_t i = 0;
    for (; i < cl->n && chosen < v->k; i++) {
        const struct cand *c = &v->c[cl->order[i]];
        if (c->state == C_PENDING || c->state == C_RUNNING)
            break;
        if (c->state == C_CHANGED)
            cl->pick[chosen++] = cl->order[i];
    }
    cl->chosen = chosen;
    if (chosen == v->k || i == cl->n)
        cl->done = 1;
}

static void cand_done(struct ds_run *r, struct ds_task *t);

static void dispatch(struct ds_run *r, struct ds_prog *p)
{
    struct var *v = p->m;
    for (size_t k = 0; k < v->ncells; k++) {
        struct cell *cl = &v->cells[k];
        cell_update(v, cl);
        while (!cl->done && cl->next < cl->n) {
            size_t changed = 0;
            for (size_t i = 0; i < cl->next; i++)
                changed += v->c[cl->order[i]].state == C_CHANGED;
            if (changed + cl->running >= v->k + SPECULATE)
                break;
            size_t ci = cl->order[cl->next++];
            struct cand *c = &v->c[ci];
            if (!v->ref) {
                /* --no-verify: taken as they come. */
                c->state = C_CHANGED;
                cell_update(v, cl);
                continue;
            }
            const char *src = json_string_value(json_object_get(c->g,
                                                                "source"));
            struct ds_task *t = lt__ds_variant_task(r, p, v->ref, src,
                                                    strlen(src), 0);
            t->done = cand_done;
            t->tag = (long)ci;
            c->state = C_RUNNING;
            cl->running++;
            v->running++;
            lt__ds_submit(r, t);
        }
    }
    int all = 1;
    for (size_t k = 0; k < v->ncells; k++)
        all &= v->cells[k].done;
    if (all && v->running == 0 && !v->finished) {
        v->finished = 1;
        var_finish(r, p);
    }
}

/* A Java variant that does not compile is dropped, with the compiler's
 * first message as the reason, said as a warning (the generators promise
 * compiling variants: one that does not is worth a line). */
static int not_compiled(struct ds_run *r, const struct ds_prog *p,
                        const struct ds_task *t, const char *what)
{
    const char *e = lt__ds_compile_error(t);
    if (!e)
        return 0;
    lt__ds_drop(r, "does_not_compile", 1);
    lt_warn("%s: id %s: a %s does not compile, dropped: %s", p->where,
            p->id_str, what, e);
    return 1;
}

static void cand_done(struct ds_run *r, struct ds_task *t)
{
    struct ds_prog *p = t->owner;
    struct var *v = p->m;
    struct cand *c = &v->c[t->tag];
    struct cell *cl = &v->cells[c->cell];
    cl->running--;
    v->running--;
    json_t *w = NULL;
    int rc = not_compiled(r, p, t, "fault") ? -1
                                              : lt__ds_compare(v->ref, t, &w);
    c->state = rc > 0 ? C_CHANGED : rc == 0 ? C_SAME : C_UNKNOWN;
    c->witness = w;
    if (rc == 0)
        lt__ds_drop(r, "same_behaviour", 1);
    else if (rc < 0 && !lt__ds_compile_error(t))
        lt__ds_drop(r, "unverified", 1);
    lt__ds_task_free(t);
    dispatch(r, p);
}

static void var_ref_done(struct ds_run *r, struct ds_task *t)
{
    struct ds_prog *p = t->owner;
    struct var *v = p->m;
    int ok = ref_usable(r, p, t, var_ref_done, 1);
    if (ok < 0) {
        lt__ds_task_free(t);
        return;
    }
    if (ok == 0) {
        lt__ds_task_free(t);
        r->s.programs_skipped++;
        lt__ds_drop(r, "program_failed", 1);
        p->items = json_array();
        lt__ds_variants_free(p);
        lt__ds_prog_done(r, p);
        return;
    }
    v->ref = t;
    dispatch(r, p);
}

void lt__ds_variants_start(struct ds_run *r, struct ds_prog *p)
{
    if (submit_ref(r, p, var_ref_done) < 0)
        dispatch(r, p);
}

/*** rewrite: variants that behave exactly like their input ***/

struct rw {
    json_t *gen;             /* variant() answers, one per seed */
    json_t *clean;           /* the same of the fault-free program */
    json_int_t *seeds;
    size_t n;
    signed char *ok;         /* per variant: 1 kept, 0 dropped, -1 running */
    json_t **witness;
    int fault_line;
    size_t base;             /* gen and clean hold variants base.. */
    size_t count_op[5], count_q[4], records; /* for the summary */
    struct ds_task *ref;
    size_t pending;
};

static const char *const rw_ops[] = {"dead_code", "comment", "rename",
                                     "reorder", "?"};

void lt__ds_rewrite_free(struct ds_run *r, struct ds_prog *p)
{
    struct rw *w = p->m;
    if (!w)
        return;
    if (r) {
        for (int i = 0; i < 5; i++)
            lt__ds_count(r, 0, rw_ops[i], w->count_op[i]);
        for (int i = 0; i < 4; i++) {
            char q[24];
            snprintf(q, sizeof(q), "quarter %d", i + 1);
            lt__ds_count(r, 2, q, w->count_q[i]);
        }
        lt__ds_count(r, 1, r->o->ops, w->records);
    }
    json_decref(w->gen);
    json_decref(w->clean);
    free(w->seeds);
    free(w->ok);
    for (size_t i = 0; w->witness && i < w->n; i++)
        json_decref(w->witness[i]);
    free(w->witness);
    lt__ds_task_free(w->ref);
    free(w);
    p->m = NULL;
}

/* The one line where a and b differ (1-based), 0 when they are equal,
 * -1 when they differ on more than one line or in their line count. */
static int only_differing_line(const char *a, const char *b)
{
    int line = 1, found = 0;
    const char *pa = a, *pb = b;
    for (;;) {
        const char *ea = strchr(pa, '\n'), *eb = strchr(pb, '\n');
        size_t la = ea ? (size_t)(ea - pa) : strlen(pa);
        size_t lb = eb ? (size_t)(eb - pb) : strlen(pb);
        if (la != lb || memcmp(pa, pb, la) != 0) {
            if (found)
                return -1;
            found = line;
        }
        if (!ea || !eb)
            return !ea && !eb ? found : -1;
        pa = ea + 1;
        pb = eb + 1;
        line++;
    }
}

static json_t *rewrite_args(struct ds_run *r, const char *src, size_t len,
                            json_t *seeds, int fault_line)
{
    const struct lt_dataset_opts *o = r->o;
    json_t *a = json_pack("{s:s%, s:s, s:i, s:O}", "source", src, len, "ops",
                          o->ops, "strength", o->strength, "seeds", seeds);
    if (r->vocab)
        json_object_set(a, "vocab", r->vocab);
    if (o->quarter > 0)
        json_object_set_new(a, "quarter", json_integer(o->quarter));
    if (fault_line > 0)
        json_object_set_new(a, "fault_line", json_integer(fault_line));
    return a;
}

/* Generates variants k0..k1 (w->gen then holds them, w->base = k0) and
 * checks their fault line.  0; 1 when the program has nothing to rewrite
 * (after a warning; the program is skipped); 2 or 3 (after an error). */
static int rw_generate(struct ds_run *r, struct ds_prog *p, size_t k0,
                       size_t k1)
{
    struct rw *w = p->m;
    json_decref(w->gen);
    json_decref(w->clean);
    w->gen = w->clean = NULL;
    w->base = k0;
    const json_t *clean = json_object_get(p->rec, "original_code");
    int fault = w->fault_line;
    json_t *seeds = json_array();
    for (size_t k = k0; k < k1; k++)
        json_array_append_new(seeds, json_integer(w->seeds[k]));
    w->gen = lt__ds_call(r, "rewrite",
                         rewrite_args(r, p->code, p->len, seeds, fault),
                         p->where);
    if (w->gen && fault && clean)
        w->clean = lt__ds_call(
            r, "rewrite",
            rewrite_args(r, json_string_value(clean),
                         json_string_length(clean), seeds, 0),
            p->where);
    json_decref(seeds);
    if (!w->gen || (fault && clean && !w->clean) ||
        json_array_size(w->gen) != k1 - k0) {
        if (w->gen && r->call_rc != LT_EUSAGE) {
            lt_error("%s: id %s: the rewrite generator answered %zu variants "
                     "for %zu seeds", p->where, p->id_str,
                     json_array_size(w->gen), k1 - k0);
            return LT_EXIT_ENGINE;
        }
        if (r->call_rc != LT_EUSAGE) {
            lt_error("%s: id %s: %s", p->where, p->id_str, r->call_err);
            return LT_EXIT_ENGINE;
        }
        lt_warn("%s: id %s: %s; skipped", p->where, p->id_str, r->call_err);
        json_decref(w->gen);
        json_decref(w->clean);
        w->gen = w->clean = NULL;
        w->n = 0;
        r->s.programs_skipped++;
        lt__ds_drop(r, "not_applicable", 1);
        return 1;
    }
    /* The answer key: after the same rewrites, the faulty and the clean
     * program differ on the recorded line alone. */
    for (size_t k = k0; k < k1; k++) {
        json_t *v = json_array_get(w->gen, k - k0);
        w->ok[k] = 1;
        if (!fault)
            continue;
        json_int_t out = json_integer_value(json_object_get(v, "fault_line"));
        if (!w->clean) {
            if (out < 1)
                w->ok[k] = 0;
            continue;
        }
        const char *a1 = json_string_value(json_object_get(v, "source"));
        const char *b1 = json_string_value(
            json_object_get(json_array_get(w->clean, k - k0), "source"));
        if (!a1 || !b1 || out < 1 || only_differing_line(b1, a1) != out) {
            w->ok[k] = 0;
            lt__ds_drop(r, "fault_line_check", 1);
        }
    }
    return 0;
}

int lt__ds_rewrite_prepare(struct ds_run *r, struct ds_prog *p)
{
    const struct lt_dataset_opts *o = r->o;
    const json_t *fl = json_object_get(p->rec, "fault_line");
    const json_t *clean = json_object_get(p->rec, "original_code");
    if (fl && !json_is_null(fl) &&
        (!json_is_integer(fl) || json_integer_value(fl) < 1 ||
         json_integer_value(fl) > lt__ds_count_lines(p->code, p->len))) {
        lt_error("%s: \"fault_line\" must be a line of the code (1..%d)",
                 p->where, lt__ds_count_lines(p->code, p->len));
        return LT_EXIT_USAGE;
    }
    if (clean && !json_is_string(clean)) {
        lt_error("%s: \"original_code\" must be a string", p->where);
        return LT_EXIT_USAGE;
    }
    int fault = json_is_integer(fl) ? (int)json_integer_value(fl) : 0;
    if (fault && clean) {
        int d = only_differing_line(json_string_value(clean), p->code);
        if (d != fault) {
            lt_error("%s: id %s: line %d is not the only line where the code "
                     "differs from \"original_code\"%s", p->where, p->id_str,
                     fault, d < 0 ? " (they differ on several lines)" : "");
            return LT_EXIT_USAGE;
        }
    }
    /* The analysis alone: a source that does not parse or a bad
     * vocabulary is an input error; nothing to rewrite (in the quarter)
     * only skips the program. */
    json_t *a = json_pack("{s:s%}", "source", p->code, p->len);
    if (r->vocab)
        json_object_set(a, "vocab", r->vocab);
    json_t *ap = lt__ds_call(r, "applicable", a, p->where);
    if (!ap) {
        lt_error("%s: id %s: %s", p->where, p->id_str, r->call_err);
        return r->call_rc == LT_EUSAGE ? LT_EXIT_USAGE : LT_EXIT_ENGINE;
    }
    json_t *skipped = json_object_get(ap, "skipped");
    if (json_array_size(skipped) && p->index == 0)
        lt_info("--vocab: %zu entries unusable for %s (they clash with its "
                "names)", json_array_size(skipped), p->id_str);
    json_decref(ap);

    struct rw *w = xcalloc(1, sizeof(*w));
    p->m = w;
    w->fault_line = fault;
    w->n = (size_t)o->variants;
    w->seeds = xcalloc(w->n + 1, sizeof(json_int_t));
    w->ok = xcalloc(w->n + 1, 1);
    w->witness = xcalloc(w->n + 1, sizeof(json_t *));
    json_t *seeds = json_array();
    uint64_t base = lt__ds_mix(o->seed ^ lt__ds_hash(p->id_str));
    for (size_t k = 0; k < w->n; k++) {
        /* 53 bits: the seed survives any JSON reader. */
        w->seeds[k] = (json_int_t)(lt__ds_mix(base + k) >> 11);
        json_array_append_new(seeds, json_integer(w->seeds[k]));
    }
    json_decref(seeds);
    r->s.candidates += w->n;
    if (!o->verify)
        return 0; /* generated while written, in start */
    int rc = rw_generate(r, p, 0, w->n);
    return rc == 1 ? 0 : rc;
}

static void put_key(struct lt_buf *b, const char *key)
{
    lt_buf_printf(b, ", \"%s\": ", key);
}

static void put_str(struct lt_buf *b, const char *key, const char *v)
{
    put_key(b, key);
    if (v)
        lt__ds_dump_str(v, strlen(v), b);
    else
        lt_buf_puts(b, "null");
}

/* Writes the output record of variant k straight into p->raw: rewrite
 * makes thousands of records a second, jansson objects would cost more
 * than the generator. */
static void rewrite_render(struct ds_run *r, struct ds_prog *p, size_t k)
{
    const struct lt_dataset_opts *o = r->o;
    struct rw *w = p->m;
    struct lt_buf *b = &p->raw;
    json_t *v = json_array_get(w->gen, k - w->base);
    const json_t *sv = json_object_get(v, "source");
    const char *src = json_string_value(sv);
    size_t slen = json_string_length(sv);
    int total = lt__ds_count_lines(src, slen);
    if (total < 1)
        total = 1;
    lt_buf_printf(b, "{\"id\": ");
    char *id = xasprintf("%s_rw_%zu", p->id_str, k + 1);
    lt__ds_dump_str(id, strlen(id), b);
    free(id);
    put_key(b, "original_id");
    lt__ds_dump(p->id, b);
    put_str(b, "ops", o->ops);
    lt_buf_printf(b, ", \"strength\": %d", o->strength);
    put_key(b, "quarter");
    lt__ds_dump(json_object_get(v, "quarter"), b);
    lt_buf_printf(b, ", \"seed\": %" JSON_INTEGER_FORMAT, w->seeds[k]);
    put_key(b, "code");
    lt__ds_dump_str(src, slen, b);
    if (w->fault_line) {
        int fl = (int)json_integer_value(json_object_get(v, "fault_line"));
        int fk = (fl < total ? fl : total) - 1;
        lt_buf_printf(b, ", \"fault_line\": %d", fl);
        const json_t *kind = json_object_get(p->rec, "kind");
        if (kind) {
            put_key(b, "kind");
            lt__ds_dump(kind, b);
        }
        lt_buf_printf(b, ", \"fault_quarter\": %d", fk * 4 / total + 1);
        put_key(b, "fault_fraction");
        lt__ds_dump_real((double)fk / total, b);
    }
    put_key(b, "applied");
    lt_buf_puts(b, "[");
    size_t i;
    json_t *a;
    json_array_foreach(json_object_get(v, "applied"), i, a) {
        const char *op = json_string_value(json_object_get(a, "op"));
        int line = (int)json_integer_value(json_object_get(a, "line"));
        int lk = (line < total ? line : total) - 1;
        if (lk < 0)
            lk = 0;
        int q = lk * 4 / total + 1;
        lt_buf_printf(b, "%s{\"op\": ", i ? ", " : "");
        lt__ds_dump_str(op ? op : "?", op ? strlen(op) : 1, b);
        lt_buf_printf(b, ", \"line\": %d, \"quarter\": %d, \"third\": \"%s\"",
                      line, q, thirds[lk * 3 / total]);
        put_key(b, "fraction");
        lt__ds_dump_real((double)lk / total, b);
        put_key(b, "detail");
        lt__ds_dump(json_object_get(a, "detail"), b);
        lt_buf_puts(b, "}");
        const char *ops = "dcvr";
        const char *at = op && op[0] ? strchr(ops, op[0]) : NULL;
        w->count_op[at ? at - ops : 4]++;
        w->count_q[q - 1]++;
    }
    lt_buf_puts(b, "]");
    put_str(b, "verified_by", verified_by(p));
    if (w->fault_line && json_object_get(p->rec, "original_code"))
        lt_buf_puts(b, ", \"fault_checked\": true");
    if (p->path)
        put_str(b, "path", p->path);
    if (p->tests)
        put_str(b, "tests", p->tests);
    if (p->inputs) {
        put_key(b, "inputs");
        lt__ds_dump(p->inputs, b);
    }
    const json_t *fn = json_object_get(p->rec, "function_name");
    if (fn) {
        put_key(b, "function_name");
        lt__ds_dump(fn, b);
    }
    lt_buf_puts(b, "}\n");
    w->records++;
    r->s.emitted++;
}

static void rw_finish(struct ds_run *r, struct ds_prog *p)
{
    struct rw *w = p->m;
    p->items = json_array();
    for (size_t k = 0; k < w->n; k++) {
        if (w->ok[k] != 1)
            continue;
        r->s.verified += p->lane != NULL;
        rewrite_render(r, p, k);
    }
    lt__ds_rewrite_free(r, p);
    lt__ds_prog_done(r, p);
}

static void rw_done(struct ds_run *r, struct ds_task *t)
{
    struct ds_prog *p = t->owner;
    struct rw *w = p->m;
    json_t *wit = NULL;
    int rc = not_compiled(r, p, t, "rewrite") ? -2
                                                : lt__ds_compare(w->ref, t, &wit);
    /* 2: compiling is the whole check (Java without tests or inputs). */
    w->ok[t->tag] = rc == 0 || rc == 2;
    if (rc != 0 && rc != 2 && rc != -2) {
        lt__ds_drop(r, rc > 0 ? "behaviour_changed" : "unverified", 1);
        if (rc > 0 && lt_log_get_level() >= LT_LOG_INFO) {
            struct lt_buf b = LT_BUF_INIT;
            lt__ds_dump(wit, &b);
            lt_info("%s: id %s: rewrite %ld changes behaviour: %s", p->where,
                    p->id_str, t->tag + 1, b.data);
            lt_buf_free(&b);
        }
    }
    json_decref(wit);
    lt__ds_task_free(t);
    if (--w->pending == 0)
        rw_finish(r, p);
}

static void rw_ref_done(struct ds_run *r, struct ds_task *t)
{
    struct ds_prog *p = t->owner;
    struct rw *w = p->m;
    int ok = ref_usable(r, p, t, rw_ref_done, 0);
    if (ok < 0) {
        lt__ds_task_free(t);
        return;
    }
    if (ok == 0) {
        lt__ds_task_free(t);
        r->s.programs_skipped++;
        lt__ds_drop(r, "program_failed", 1);
        p->items = json_array();
        lt__ds_rewrite_free(r, p);
        lt__ds_prog_done(r, p);
        return;
    }
    w->ref = t;
    for (size_t k = 0; k < w->n; k++) {
        if (w->ok[k] != 1)
            continue;
        const char *src = json_string_value(
            json_object_get(json_array_get(w->gen, k - w->base), "source"));
        struct ds_task *v = lt__ds_variant_task(r, p, t, src, strlen(src), 1);
        v->done = rw_done;
        v->tag = (long)k;
        w->ok[k] = -1;
        w->pending++;
        lt__ds_submit(r, v);
    }
    if (w->pending == 0)
        rw_finish(r, p);
}

#define STREAM_CHUNK 256

/* --no-verify: generates and writes the variants in chunks, so that
 * memory stays small and the output flows. */
static void rw_stream(struct ds_run *r, struct ds_prog *p)
{
    struct rw *w = p->m;
    for (size_t k0 = 0; k0 < w->n && !r->ex.fatal; k0 += STREAM_CHUNK) {
        size_t k1 = k0 + STREAM_CHUNK < w->n ? k0 + STREAM_CHUNK : w->n;
        int rc = rw_generate(r, p, k0, k1);
        if (rc == 1)
            break;
        if (rc) {
            lt_exec_fail(&r->ex, rc);
            break;
        }
        for (size_t k = k0; k < k1; k++)
            if (w->ok[k] == 1)
                rewrite_render(r, p, k);
        lt__ds_emit_now(r, p);
    }
    lt__ds_rewrite_free(r, p);
    if (!p->items)
        p->items = json_array();
    lt__ds_prog_done(r, p);
}

void lt__ds_rewrite_start(struct ds_run *r, struct ds_prog *p)
{
    struct rw *w = p->m;
    if (!w) {
        p->items = json_array();
        lt__ds_prog_done(r, p);
        return;
    }
    if (!r->o->verify) {
        rw_stream(r, p);
        return;
    }
    if (w->n == 0 || submit_ref(r, p, rw_ref_done) < 0)
        rw_finish(r, p);
}
