/* `litmus patches` reports, rendered from the patch rows of the store:
 * a text summary (per-program and overall tables, score consistency),
 * JSON (schema litmus.patches/1) and CSV.  SPDX-License-Identifier: MIT */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "engine/jobs/patches/patches_internal.h"

static const char *const verdicts[] = {"correct", "overfitting", "memorized",
                                       "invalid", "error", NULL};
#define N_VERDICTS 5

struct row {
    char *program, *run_id, *text_sha, *verdict, *reason, *detail;
    json_t *ev;
    double duration_ms;
};

struct rows {
    struct row *v;
    size_t n, cap;
};

static int collect(const struct lt_patch_run *p, void *ud)
{
    struct rows *rs = ud;
    if (rs->n == rs->cap) {
        rs->cap = rs->cap ? rs->cap * 2 : 64;
        rs->v = xrealloc(rs->v, rs->cap * sizeof(*rs->v));
    }
    struct row *r = &rs->v[rs->n++];
    r->program = xstrdup(p->program);
    r->run_id = xstrdup(p->run_id);
    r->text_sha = xstrdup(p->text_sha);
    r->verdict = xstrdup(p->verdict);
    r->reason = xstrdup(p->reason);
    r->detail = p->detail ? xstrdup(p->detail) : NULL;
    r->ev = json_loads(p->evidence, 0, NULL);
    if (!json_is_object(r->ev)) {
        json_decref(r->ev);
        r->ev = json_object();
    }
    r->duration_ms = p->duration_ms;
    return 0;
}

static int verdict_index(const char *v)
{
    for (int i = 0; verdicts[i]; i++)
        if (strcmp(verdicts[i], v) == 0)
            return i;
    return 4;
}

static double num_or(const json_t *o, const char *key, double dflt)
{
    json_t *v = json_object_get(o, key);
    return json_is_number(v) ? json_number_value(v) : dflt;
}

/* Per program: counts per verdict, scores, consistency. */
struct prog_sum {
    const char *name;
    int counts[N_VERDICTS];
    int total;
    double smin, smax;   /* patch scores; smin > smax when none */
    double ref;          /* reference score or -1 */
    json_t *refmut;      /* the reference's mutation result, borrowed */
    int inconsistent;    /* identical texts with different scores */
};

static struct prog_sum *summarise(const struct rows *rs, size_t *n_out,
                                  struct prog_sum *all)
{
    struct prog_sum *ps = xcalloc(rs->n + 1, sizeof(*ps));
    size_t n = 0;
    memset(all, 0, sizeof(*all));
    all->name = "overall";
    all->smin = 2;
    all->smax = -1;
    all->ref = -1;
    for (size_t i = 0; i < rs->n; i++) {
        const struct row *r = &rs->v[i];
        struct prog_sum *p = NULL;
        for (size_t k = 0; k < n && !p; k++)
            if (strcmp(ps[k].name, r->program) == 0)
                p = &ps[k];
        if (!p) {
            p = &ps[n++];
            p->name = r->program;
            p->smin = 2;
            p->smax = -1;
            p->ref = -1;
        }
        int v = verdict_index(r->verdict);
        p->counts[v]++;
        p->total++;
        all->counts[v]++;
        all->total++;
        double s = num_or(r->ev, "mutation_score", -1);
        double rf = num_or(r->ev, "reference_score", -1);
        if (rf >= 0)
            p->ref = rf;
        json_t *rm = json_object_get(r->ev, "reference_mutation");
        if (!p->refmut && json_is_object(rm))
            p->refmut = rm;
        if (s >= 0) {
            if (s < p->smin)
                p->smin = s;
            if (s > p->smax)
                p->smax = s;
            /* Same text, same program: the score must be the same. */
            for (size_t k = 0; k < i; k++) {
                const struct row *o = &rs->v[k];
                double os = num_or(o->ev, "mutation_score", -1);
                if (os >= 0 && strcmp(o->program, r->program) == 0 &&
                    strcmp(o->text_sha, r->text_sha) == 0 &&
                    fabs(os - s) > 1e-12)
                    p->inconsistent = 1;
            }
        }
    }
    for (size_t k = 0; k < n; k++)
        all->inconsistent |= ps[k].inconsistent;
    *n_out = n;
    return ps;
}

/*** CSV ***/

/* Contract: see patches_internal.h. */
void lt__csv_field(FILE *f, const char *s, int last)
{
    s = s ? s : "";
    if (strpbrk(s, ",\"\n\r")) {
        fputc('"', f);
        for (; *s; s++) {
            if (*s == '"')
                fputc('"', f);
            fputc(*s, f);
        }
        fputc('"', f);
    } else {
        fputs(s, f);
    }
    fputc(last ? '\n' : ',', f);
}

static void csv_num(FILE *f, const json_t *ev, const char *key, int last)
{
    json_t *v = json_object_get(ev, key);
    char buf[64] = "";
    if (json_is_integer(v))
        snprintf(buf, sizeof(buf), "%lld", (long long)json_integer_value(v));
    else if (json_is_number(v))
        snprintf(buf, sizeof(buf), "%.4f", json_number_value(v));
    lt__csv_field(f, buf, last);
}

static int write_csv(const struct rows *rs, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        lt_error("--csv %s: %s", path, strerror(errno));
        return -1;
    }
    /* Inputs compared per origin (docs/patches.md, "The layers"). */
    static const char *const by[] = {"test", "held_out", "inputs",
                                     "derived", "objects", "generated"};
    fputs("program,run_id,verdict,reason,tests_passed,tests_total,"
          "mutation_score,reference_score,witness,token_similarity,"
          "ast_similarity,duration_ms", f);
    for (size_t k = 0; k < sizeof(by) / sizeof(*by); k++)
        fprintf(f, ",compared_%s", by[k]);
    fputs(",outside_contract\n", f);
    for (size_t i = 0; i < rs->n; i++) {
        const struct row *r = &rs->v[i];
        lt__csv_field(f, r->program, 0);
        lt__csv_field(f, r->run_id, 0);
        lt__csv_field(f, r->verdict, 0);
        lt__csv_field(f, r->reason, 0);
        csv_num(f, r->ev, "tests_passed", 0);
        csv_num(f, r->ev, "tests_total", 0);
        csv_num(f, r->ev, "mutation_score", 0);
        csv_num(f, r->ev, "reference_score", 0);
        json_t *w = json_object_get(r->ev, "witness");
        const char *wt = json_is_object(w)
                             ? json_string_value(json_object_get(w, "text"))
                             : NULL;
        lt__csv_field(f, wt, 0);
        csv_num(f, r->ev, "token_similarity", 0);
        csv_num(f, r->ev, "ast_similarity", 0);
        char ms[32];
        snprintf(ms, sizeof(ms), "%.1f", r->duration_ms);
        lt__csv_field(f, ms, 0);
        const json_t *d = json_object_get(r->ev, "differential");
        const json_t *bo = json_object_get(d, "by_origin");
        for (size_t k = 0; k < sizeof(by) / sizeof(*by); k++)
            csv_num(f, bo, by[k], 0);
        csv_num(f, d, "outside_contract", 1);
    }
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        lt_error("--csv %s: write error", path);
        return -1;
    }
    return 0;
}

/*** JSON ***/

static json_t *counts_json(const struct prog_sum *p)
{
    json_t *o = json_object();
    json_object_set_new(o, "patches", json_integer(p->total));
    for (int v = 0; v < N_VERDICTS; v++)
        json_object_set_new(o, verdicts[v], json_integer(p->counts[v]));
    return o;
}

static void write_json(const struct rows *rs, const struct prog_sum *ps,
                       size_t np, const struct prog_sum *all,
                       const struct lt_patches_opts *o, double elapsed,
                       size_t n_texts, FILE *out)
{
    json_t *root = json_object();
    json_object_set_new(root, "schema", json_string(LT_PATCHES_SCHEMA));
    json_object_set_new(root, "settings", json_pack(
        "{s:f, s:f, s:f, s:f, s:f, s:b, s:b}", "threshold", o->threshold,
        "similarity_threshold", o->sim_threshold, "timeout_factor",
        o->run.timeout_factor, "timeout_const", o->run.timeout_const, "timeout",
        o->timeout, "mutation", o->mutation, "mutation_gate",
        o->mutation_gate));
    json_object_set_new(json_object_get(root, "settings"), "mutation_budget",
                        json_real(o->mutation_budget));
    json_t *arr = json_array();
    for (size_t i = 0; i < rs->n; i++) {
        const struct row *r = &rs->v[i];
        json_t *p = json_object();
        json_object_set_new(p, "program", json_string(r->program));
        json_object_set_new(p, "run_id", json_string(r->run_id));
        json_object_set_new(p, "verdict", json_string(r->verdict));
        json_object_set_new(p, "reason", json_string(r->reason));
        json_object_set_new(p, "detail", r->detail ? json_string(r->detail)
                                                   : json_null());
        json_object_set_new(p, "duration_ms", json_real(r->duration_ms));
        const char *k;
        json_t *v;
        json_object_foreach(r->ev, k, v) {
            /* The reference's figures go with its program, once. */
            if (!json_object_get(p, k) &&
                strcmp(k, "reference_mutation") != 0)
                json_object_set(p, k, v);
        }
        json_array_append_new(arr, p);
    }
    json_object_set_new(root, "patches", arr);
    json_t *progs = json_object();
    for (size_t i = 0; i < np; i++) {
        json_t *c = counts_json(&ps[i]);
        json_object_set_new(c, "reference_score",
                            ps[i].ref >= 0 ? json_real(ps[i].ref)
                                           : json_null());
        json_object_set_new(c, "score_min", ps[i].smax >= 0
                                                ? json_real(ps[i].smin)
                                                : json_null());
        json_object_set_new(c, "score_max", ps[i].smax >= 0
                                                ? json_real(ps[i].smax)
                                                : json_null());
        json_object_set_new(c, "scores_consistent",
                            json_boolean(!ps[i].inconsistent));
        json_object_set_new(c, "reference_mutation",
                            ps[i].refmut ? json_incref(ps[i].refmut)
                                         : json_null());
        json_object_set_new(progs, ps[i].name, c);
    }
    json_object_set_new(root, "programs", progs);
    json_t *ov = counts_json(all);
    json_object_set_new(ov, "programs", json_integer((json_int_t)np));
    json_object_set_new(ov, "distinct_texts",
                        json_integer((json_int_t)n_texts));
    json_object_set_new(ov, "scores_consistent",
                        json_boolean(!all->inconsistent));
    json_object_set_new(ov, "elapsed_s", json_real(elapsed));
    json_object_set_new(root, "overall", ov);
    char *text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    fprintf(out, "%s\n", text);
    free(text);
    json_decref(root);
}

/*** Text ***/

static void pct(char *buf, size_t n, double v)
{
    if (v < 0)
        snprintf(buf, n, "-");
    else
        snprintf(buf, n, "%.1f%%", v * 100);
}

static void table_row(FILE *out, const struct prog_sum *p, int show_scores)
{
    char ref[16], lo[16], hi[16], range[40] = "-";
    pct(ref, sizeof(ref), p->ref);
    if (p->smax >= 0) {
        pct(lo, sizeof(lo), p->smin);
        pct(hi, sizeof(hi), p->smax);
        if (strcmp(lo, hi) == 0)
            snprintf(range, sizeof(range), "%s", lo);
        else
            snprintf(range, sizeof(range), "%s-%s", lo, hi);
    }
    fprintf(out, "%-22.22s %7d %7d %11d %9d %7d %5d", p->name, p->total,
            p->counts[0], p->counts[1], p->counts[2], p->counts[3],
            p->counts[4]);
    if (show_scores)
        fprintf(out, "  %9s  %s%s", ref, range,
                p->inconsistent ? "  INCONSISTENT" : "");
    fputc('\n', out);
}

struct reason_count {
    const char *reason;
    int n;
};


/* Under an overfitting patch's line: the contract its witness input
 * satisfies (the rules inferred from the tests, or the user's), so that a
 * reader sees the input is one the program is meant for. */
static void witness_contract(FILE *out, const json_t *ev)
{
    const json_t *w = json_object_get(ev, "witness");
    const json_t *c = json_object_get(w, "contract");
    if (!json_is_array(c))
        return;
    fprintf(out, "      inside the tests' contract: ");
    size_t i;
    const json_t *v;
    json_array_foreach(c, i, v)
        fprintf(out, "%s%.200s", i ? ", " : "", json_string_value(v));
    fprintf(out, "%s%s\n", json_array_size(c) ? "" : "no rule inferred",
            json_is_true(json_object_get(w, "shrunk"))
                ? "; the input is shrunk to a minimal one" : "");
}
static void write_text(const struct rows *rs, const struct prog_sum *ps,
                       size_t np, const struct prog_sum *all,
                       double elapsed, size_t n_texts, FILE *out)
{
    fprintf(out, "litmus patches: %d patches of %zu program%s (%zu distinct "
            "texts) in %.1f s\n\n", all->total, np, np == 1 ? "" : "s",
            n_texts, elapsed);
    fprintf(out, "%-22s %7s %7s %11s %9s %7s %5s  %9s  %s\n", "program",
            "patches", "correct", "overfitting", "memorized", "invalid",
            "error", "ref score", "patch scores (min-max)");
    for (size_t i = 0; i < np; i++)
        table_row(out, &ps[i], 1);
    table_row(out, all, 0);

    /* Reasons per verdict. */
    for (int v = 0; v < N_VERDICTS; v++) {
        if (!all->counts[v])
            continue;
        struct reason_count rc[16];
        int nr = 0;
        for (size_t i = 0; i < rs->n; i++) {
            if (verdict_index(rs->v[i].verdict) != v)
                continue;
            int k = 0;
            while (k < nr && strcmp(rc[k].reason, rs->v[i].reason) != 0)
                k++;
            if (k == nr && nr < 16)
                rc[nr++] = (struct reason_count){rs->v[i].reason, 0};
            if (k < nr)
                rc[k].n++;
        }
        fprintf(out, "%s%s by reason:", v == 0 ? "\n" : "", verdicts[v]);
        for (int k = 0; k < nr; k++)
            fprintf(out, "%s %s %d", k ? "," : "", rc[k].reason, rc[k].n);
        fputc('\n', out);
    }
    if (all->counts[1]) {
        fprintf(out, "\noverfitting patches:\n");
        for (size_t i = 0; i < rs->n; i++) {
            const struct row *r = &rs->v[i];
            if (verdict_index(r->verdict) != 1)
                continue;
            fprintf(out, "  %s %s: %s: %.300s\n", r->program, r->run_id,
                    r->reason, r->detail ? r->detail : "");
            witness_contract(out, r->ev);
        }
    }
    if (all->counts[4]) {
        fprintf(out, "\npatches the engine could not judge:\n");
        for (size_t i = 0; i < rs->n; i++) {
            const struct row *r = &rs->v[i];
            if (verdict_index(r->verdict) == 4)
                fprintf(out, "  %s %s: %.300s\n", r->program, r->run_id,
                        r->detail ? r->detail : "");
        }
    }
    fprintf(out, "\nscore consistency: %s\n",
            all->inconsistent
                ? "identical texts got DIFFERENT mutation scores (see the "
                  "programs marked INCONSISTENT)"
                : "identical texts got identical mutation scores in every "
                  "program");
}

/* Contract: see patches_internal.h. */
int lt__patches_report(struct lt_store *st, const struct lt_patches_opts *o,
                       double elapsed_s, size_t n_texts, FILE *out)
{
    struct rows rs = {0};
    int rc = lt_store_each_patch_run(st, collect, &rs);
    int code = 0;
    if (rc < 0) {
        lt_error("cannot read the results: %s", lt_strerror(rc));
        code = 3;
        goto out;
    }
    size_t np = 0;
    struct prog_sum all;
    struct prog_sum *ps = summarise(&rs, &np, &all);
    if (o->csv && write_csv(&rs, o->csv) < 0)
        code = 2;
    if (o->format == LT_FORMAT_JSON)
        write_json(&rs, ps, np, &all, o, elapsed_s, n_texts, out);
    else
        write_text(&rs, ps, np, &all, elapsed_s, n_texts, out);
    free(ps);
    if (code == 0)
        code = all.counts[4] ? 3 : all.counts[1] ? 1 : 0;
out:
    for (size_t i = 0; i < rs.n; i++) {
        free(rs.v[i].program);
        free(rs.v[i].run_id);
        free(rs.v[i].text_sha);
        free(rs.v[i].verdict);
        free(rs.v[i].reason);
        free(rs.v[i].detail);
        json_decref(rs.v[i].ev);
    }
    free(rs.v);
    return code;
}
