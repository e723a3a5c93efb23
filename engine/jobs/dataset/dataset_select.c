/* `litmus dataset select` (Algorithm 1 of shared/SEEDS.md section 3): for
 * each record {id, function_name, code, input, output}, every single-change
 * mutant of the code runs on the input with line tracing; of those that
 * finish without error and give another output (repr or exact type), the
 * one whose executed lines are most like the original's (Jaccard) is
 * emitted after the original, in the seed's record format.
 * SPDX-License-Identifier: MIT */
#include "engine/jobs/dataset/dataset_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "operators/operators.h"
#include "runners/runner.h"

#define REPR_MAX 2000 /* runners/calls.py cuts longer reprs */

enum rep { REP_REPR, REP_JSON, REP_STR };

struct sel {
    char *call;                  /* the call expression */
    struct lt_mutant_list ml;
    struct lt_change_analysis *an;
    long *dup_of;                /* same code as an earlier mutant, or -1 */
    json_t **res;                /* per mutant: the case outcome */
    size_t pending;
    struct ds_task *orig;
    enum rep rep;
};

void lt__ds_select_free(struct ds_prog *p)
{
    struct sel *s = p->m;
    if (!s)
        return;
    free(s->call);
    for (size_t i = 0; i < s->ml.count; i++) {
        free(s->an ? s->an[i].detail : NULL);
        json_decref(s->res ? s->res[i] : NULL);
    }
    lt_mutant_list_free(&s->ml);
    free(s->an);
    free(s->dup_of);
    free(s->res);
    lt__ds_task_free(s->orig);
    free(s);
    p->m = NULL;
}

/* A JSON value as a Python literal (for "input" given as an argument
 * list): JSON strings are Python string literals already. */
static void py_literal(const json_t *v, struct lt_buf *b)
{
    switch (json_typeof(v)) {
    case JSON_NULL:
        lt_buf_puts(b, "None");
        break;
    case JSON_TRUE:
        lt_buf_puts(b, "True");
        break;
    case JSON_FALSE:
        lt_buf_puts(b, "False");
        break;
    case JSON_ARRAY:
        lt_buf_puts(b, "[");
        for (size_t i = 0; i < json_array_size(v); i++) {
            if (i)
                lt_buf_puts(b, ", ");
            py_literal(json_array_get(v, i), b);
        }
        lt_buf_puts(b, "]");
        break;
    case JSON_OBJECT: {
        const char *k;
        json_t *x;
        int first = 1;
        lt_buf_puts(b, "{");
        json_object_foreach((json_t *)v, k, x) {
            json_t *ks = json_string(k);
            if (!first)
                lt_buf_puts(b, ", ");
            first = 0;
            lt__ds_dump(ks, b);
            json_decref(ks);
            lt_buf_puts(b, ": ");
            py_literal(x, b);
        }
        lt_buf_puts(b, "}");
        break;
    }
    default:
        lt__ds_dump(v, b);
        break;
    }
}

static int is_ident(const char *s)
{
    for (const char *c = s; *c; c++) {
        unsigned char u = (unsigned char)*c;
        int alpha = u == '_' || u >= 0x80 ||
                    ((u | 32) >= 'a' && (u | 32) <= 'z');
        if (!alpha && !(c > s && u >= '0' && u <= '9'))
            return 0;
    }
    return *s != '\0';
}

/* The call expression of a record: `input` itself when it is a string
 * that calls function_name (or when there is no function_name);
 * function_name(input) for another string; function_name(*input) for an
 * array of arguments. */
static char *call_expr(const json_t *fn, const json_t *input)
{
    const char *name = json_string_value(fn);
    if (json_is_string(input)) {
        const char *in = json_string_value(input);
        while (*in == ' ' || *in == '\t')
            in++;
        if (!name)
            return xstrdup(in);
        size_t n = strlen(name);
        const char *after = in + n;
        while (*after == ' ')
            after++;
        if (strncmp(in, name, n) == 0 && *after == '(')
            return xstrdup(in);
        return xasprintf("%s(%s)", name, in);
    }
    struct lt_buf b = LT_BUF_INIT;
    lt_buf_printf(&b, "%s(", name);
    if (json_is_array(input)) {
        for (size_t i = 0; i < json_array_size(input); i++) {
            if (i)
                lt_buf_puts(&b, ", ");
            py_literal(json_array_get(input, i), &b);
        }
    } else {
        py_literal(input, &b);
    }
    lt_buf_puts(&b, ")");
    return lt_buf_steal(&b);
}

int lt__ds_select_prepare(struct ds_run *r, struct ds_prog *p)
{
    const struct lt_dataset_opts *o = r->o;
    const json_t *fn = json_object_get(p->rec, "function_name");
    const json_t *input = json_object_get(p->rec, "input");
    if (fn && !json_is_null(fn) &&
        (!json_is_string(fn) || !is_ident(json_string_value(fn)))) {
        lt_error("%s: \"function_name\" must be a function name", p->where);
        return LT_EXIT_USAGE;
    }
    if (!input || json_is_null(input)) {
        lt_error("%s: missing \"input\" (a call expression such as "
                 "\"f(1, 2)\")", p->where);
        return LT_EXIT_USAGE;
    }
    if (!json_is_string(input) && !json_is_string(fn)) {
        lt_error("%s: an \"input\" that is not a call expression needs "
                 "\"function_name\"", p->where);
        return LT_EXIT_USAGE;
    }
    struct sel *s = xcalloc(1, sizeof(*s));
    p->m = s;
    s->call = call_expr(fn, input);
    {
        json_t *calls = json_pack("[s]", s->call);
        int c = lt__ds_check_calls(r, p->where, p->id_str, calls);
        json_decref(calls);
        if (c)
            return c;
    }
    char *msg = NULL;
    int rc = lt_operators_generate(p->id_str, p->code, p->len, o->operators,
                                   &s->ml, &msg);
    if (rc < 0) {
        if (rc == LT_EUSAGE)
            lt_error("--operators: %s", msg ? msg : "unknown operator set");
        else
            lt_error("%s: id %s: the code does not parse: %s", p->where,
                     p->id_str, msg ? msg : lt_strerror(rc));
        free(msg);
        return rc == LT_EPYTHON ? LT_EXIT_ENGINE : LT_EXIT_USAGE;
    }
    free(msg);
    size_t n = s->ml.count;
    s->an = xcalloc(n + 1, sizeof(*s->an));
    s->dup_of = xcalloc(n + 1, sizeof(long));
    s->res = xcalloc(n + 1, sizeof(json_t *));
    /* Every mutant runs: compiling each one here first to drop the
     * equivalent ones costs more engine time (about 1 ms a mutant, before
     * anything runs) than the few it saves; a mutant that does not
     * compile ends as a load error, an equivalent one as the same
     * output. */
    for (size_t i = 0; i < n; i++) {
        s->an[i].status = LT_CHANGE_OK;
        s->dup_of[i] = -1;
    }
    r->s.candidates += n;
    return 0;
}

static void finish(struct ds_run *r, struct ds_prog *p);

static void mutant_done(struct ds_run *r, struct ds_task *t)
{
    struct ds_prog *p = t->owner;
    struct sel *s = p->m;
    json_t *res = t->result;
    const char *st = json_string_value(json_object_get(res, "status"));
    json_t *c = st && strcmp(st, "ok") == 0
                    ? json_array_get(json_object_get(res, "cases"), 0)
                    : NULL;
    s->res[t->tag] = c ? json_incref(c) : json_pack("{s:s}", "status",
                                                  st ? st : "error");
    lt__ds_task_free(t);
    if (--s->pending == 0)
        finish(r, p);
}

static const char *case_status(const json_t *c)
{
    const char *st = json_string_value(json_object_get(c, "status"));
    return st ? st : "error";
}

static void skip_prog(struct ds_run *r, struct ds_prog *p, const char *reason)
{
    r->s.programs_skipped++;
    lt__ds_drop(r, reason, 1);
    p->items = json_array();
    lt__ds_select_free(p);
    lt__ds_prog_done(r, p);
}

static void orig_done(struct ds_run *r, struct ds_task *t)
{
    const struct lt_dataset_opts *o = r->o;
    struct ds_prog *p = t->owner;
    struct sel *s = p->m;
    s->orig = t;
    const char *st = json_string_value(json_object_get(t->result, "status"));
    const json_t *c = json_array_get(json_object_get(t->result, "cases"), 0);
    if (!st || strcmp(st, "ok") != 0 || strcmp(case_status(c), "ok") != 0) {
        const char *why = st && strcmp(st, "ok") == 0 ? case_status(c) : st;
        const json_t *e = json_object_get(c ? c : t->result,
                                          c ? "repr" : "error");
        lt_warn("%s: id %s: the original %s on its input%s%s; record "
                "skipped", p->where, p->id_str,
                strcmp(why ? why : "", "raised") == 0 ? "raises"
                : strcmp(why ? why : "", "timeout") == 0
                    ? "does not finish in time"
                : strcmp(why ? why : "", "load_error") == 0
                    ? "does not load"
                    : "fails",
                json_is_string(e) ? ": " : "",
                json_is_string(e) ? json_string_value(e) : "");
        skip_prog(r, p, "original_failed");
        return;
    }
    /* How the records write outputs: a repr, JSON data, or the string
     * itself (see docs/datasets.md). */
    const json_t *want = json_object_get(p->rec, "output");
    const char *repr = json_string_value(json_object_get(c, "repr"));
    const char *type = json_string_value(json_object_get(c, "type"));
    const json_t *jv = json_object_get(c, "json");
    int agree = 1;
    if (!want) {
        s->rep = REP_REPR;
    } else if (json_is_string(want)) {
        if (strcmp(json_string_value(want), repr) == 0) {
            s->rep = REP_REPR;
        } else if (strcmp(type, "str") == 0 && json_is_string(jv) &&
                   json_equal(want, jv)) {
            s->rep = REP_STR;
        } else {
            s->rep = REP_REPR;
            agree = 0;
        }
    } else {
        s->rep = REP_JSON;
        agree = jv && json_equal(want, jv);
    }
    if (!agree) {
        struct lt_buf b = LT_BUF_INIT;
        lt__ds_dump(want, &b);
        lt_warn("%s: id %s: the original computes %.200s, the record's "
                "output is %.200s", p->where, p->id_str, repr, b.data);
        lt_buf_free(&b);
    }
    /* The limit of a mutant's load and call scales with the original's
     * own CPU time for them; the child's whole time (fork, sandbox) only
     * when the runner did not report it. */
    const json_t *work = json_array_get(json_object_get(t->result, "work_ms"),
                                        0);
    double work_s =
        json_is_number(work) && json_number_value(work) >= 0
            ? json_number_value(work) / 1000.0
            : json_real_value(json_object_get(t->result, "child_ms")) / 1000.0;
    double limit = o->run.timeout_factor * work_s + o->run.timeout_const;
    if (limit > o->timeout)
        limit = o->timeout;
    for (size_t i = 0; i < s->ml.count; i++) {
        if (s->an[i].status != LT_CHANGE_OK || s->dup_of[i] >= 0)
            continue;
        size_t len = 0;
        char *text = lt_mutant_apply(&s->ml.items[i], p->code, p->len, &len);
        struct ds_task *m = lt__ds_task_new(TK_CASES, p->lane, text, len);
        free(text);
        m->calls = json_pack("[s]", s->call);
        m->trace = 1;
        m->untrusted = 1;
        m->call_timeout = limit;
        m->budget_s = 2 * limit + 1;
        m->done = mutant_done;
        m->owner = p;
        m->tag = (long)i;
        s->pending++;
        lt__ds_submit(r, m);
    }
    if (s->pending == 0)
        finish(r, p);
}

void lt__ds_select_start(struct ds_run *r, struct ds_prog *p)
{
    const struct lt_dataset_opts *o = r->o;
    struct sel *s = p->m;
    p->lane = lt__ds_lane_bare(r);
    struct ds_task *t = lt__ds_task_new(TK_CASES, p->lane, p->code, p->len);
    t->calls = json_pack("[s]", s->call);
    t->trace = 1;
    t->untrusted = 1;
    t->call_timeout = o->timeout;
    t->budget_s = 2 * o->timeout + 1;
    t->done = orig_done;
    t->owner = p;
    lt__ds_submit(r, t);
}

static double jaccard(const json_t *a, const json_t *b)
{
    size_t na = json_array_size(a), nb = json_array_size(b);
    if (na + nb == 0)
        return 1.0;
    size_t i = 0, k = 0, inter = 0;
    while (i < na && k < nb) {
        json_int_t x = json_integer_value(json_array_get(a, i));
        json_int_t y = json_integer_value(json_array_get(b, k));
        if (x == y) {
            inter++;
            i++;
            k++;
        } else if (x < y) {
            i++;
        } else {
            k++;
        }
    }
    return (double)inter / (double)(na + nb - inter);
}

static json_t *output_of(const struct sel *s, const json_t *c)
{
    const json_t *jv = json_object_get(c, "json");
    const char *type = json_string_value(json_object_get(c, "type"));
    if (s->rep == REP_JSON && jv)
        return json_deep_copy(jv);
    if (s->rep == REP_STR && type && strcmp(type, "str") == 0 &&
        json_is_string(jv))
        return json_deep_copy(jv);
    return json_deep_copy(json_object_get(c, "repr"));
}

static json_t *mutant_record(struct ds_run *r, struct ds_prog *p, size_t i,
                             const json_t *c, double sim)
{
    struct sel *s = p->m;
    const struct lt_mutant *m = &s->ml.items[i];
    size_t len = 0;
    char *text = lt_mutant_apply(m, p->code, p->len, &len);
    char *id = xasprintf("%s_%s", p->id_str, m->id);
    const json_t *fn = json_object_get(p->rec, "function_name");
    json_t *info = json_pack("{s:s, s:f}", "mutation_id", m->id,
                             "coverage_similarity", sim);
    if (r->o->details) {
        json_object_set_new(info, "operator", json_string(m->op));
        json_object_set_new(info, "category",
                            json_string(lt_category_name(m->category)));
        json_object_set_new(info, "line", json_integer(m->line));
        json_object_set_new(info, "original", json_string(m->original));
        json_object_set_new(info, "replacement",
                            json_string(m->replacement));
    }
    json_t *rec = json_pack("{s:s, s:O, s:s%, s:O, s:o, s:b, s:O, s:o}", "id",
                            id, "function_name", fn ? fn : json_null(),
                            "code", text, len, "input",
                            json_object_get(p->rec, "input"), "output",
                            output_of(s, c), "is_mutated", 1, "original_id",
                            p->id, "mutation_info", info);
    free(id);
    free(text);
    char loc[32];
    int total = lt__ds_count_lines(p->code, p->len);
    int k = (m->line < total ? m->line : total) - 1;
    snprintf(loc, sizeof(loc), "quarter %d", total > 0 ? k * 4 / total + 1
                                                        : 1);
    lt__ds_count_item(r, m->op, lt_category_name(m->category), loc);
    return rec;
}

struct cand {
    size_t i;
    double sim;
};

static int cmp_cand(const void *a, const void *b, void *ml)
{
    const struct cand *x = a, *y = b;
    const struct lt_mutant *mx = &((struct lt_mutant_list *)ml)->items[x->i];
    const struct lt_mutant *my = &((struct lt_mutant_list *)ml)->items[y->i];
    if (x->sim != y->sim)
        return x->sim > y->sim ? -1 : 1;
    if (mx->start != my->start)
        return mx->start < my->start ? -1 : 1;
    return strcmp(mx->id, my->id);
}

/* Every mutant has run: picks the most similar valid one (ties: earlier
 * in the code, then smaller mutant id) and emits the pair. */
static void finish(struct ds_run *r, struct ds_prog *p)
{
    struct sel *s = p->m;
    const json_t *oc = json_array_get(json_object_get(s->orig->result,
                                                      "cases"), 0);
    const char *orepr = json_string_value(json_object_get(oc, "repr"));
    const char *otype = json_string_value(json_object_get(oc, "type"));
    const json_t *olines = json_object_get(oc, "lines");
    size_t n = s->ml.count, nc = 0;
    struct cand *cv = xcalloc(n + 1, sizeof(*cv));
    int truncated = strlen(orepr) > REPR_MAX;
    for (size_t i = 0; i < n; i++) {
        if (s->an[i].status == LT_CHANGE_EQUIVALENT) {
            lt__ds_drop(r, "equivalent", 1);
            continue;
        }
        if (s->an[i].status != LT_CHANGE_OK) {
            lt__ds_drop(r, "invalid", 1);
            continue;
        }
        const json_t *c = s->res[s->dup_of[i] >= 0 ? (size_t)s->dup_of[i]
                                                   : i];
        const char *st = case_status(c);
        if (strcmp(st, "ok") != 0) {
            char *why = xasprintf("mutant_%s", st);
            lt__ds_drop(r, why, 1);
            free(why);
            continue;
        }
        const char *repr = json_string_value(json_object_get(c, "repr"));
        const char *type = json_string_value(json_object_get(c, "type"));
        if (strcmp(repr, orepr) == 0 && strcmp(type, otype) == 0) {
            lt__ds_drop(r, "same_output", 1);
            continue;
        }
        if (strlen(repr) > REPR_MAX || truncated) {
            lt__ds_drop(r, "output_too_long", 1);
            continue;
        }
        cv[nc].i = i;
        cv[nc].sim = jaccard(olines, json_object_get(c, "lines"));
        nc++;
    }
    r->s.verified += nc;
    qsort_r(cv, nc, sizeof(*cv), cmp_cand, &s->ml);
    p->items = json_array();
    if (nc == 0) {
        lt_info("%s: id %s: no mutant runs cleanly with another output",
                p->where, p->id_str);
        r->s.programs_skipped++;
        lt__ds_drop(r, "no_valid_mutant", 1);
    } else {
        const json_t *fn = json_object_get(p->rec, "function_name");
        const json_t *want = json_object_get(p->rec, "output");
        json_t *orig = json_pack(
            "{s:O, s:O, s:o, s:O, s:o, s:b, s:O, s:n}", "id", p->id,
            "function_name", fn ? fn : json_null(), "code",
            json_stringn(p->code, p->len), "input",
            json_object_get(p->rec, "input"), "output",
            want ? json_deep_copy(want) : output_of(s, oc), "is_mutated", 0,
            "original_id", p->id, "mutation_info");
        json_array_append_new(p->items, orig);
        size_t k = r->o->all ? nc : 1;
        for (size_t j = 0; j < k; j++) {
            size_t i = cv[j].i;
            const json_t *c = s->res[s->dup_of[i] >= 0 ? (size_t)s->dup_of[i]
                                                       : i];
            json_array_append_new(p->items,
                                   mutant_record(r, p, i, c, cv[j].sim));
        }
    }
    free(cv);
    lt__ds_select_free(p);
    lt__ds_prog_done(r, p);
}
