/* The mutation layer of repository candidates (docs/patches.md,
 * "Repository candidates"): how well an instance's tests pin what a diff
 * changes.  The mutants of the lines a diff adds to the package's Python
 * files (equivalent, invalid and duplicate ones left out), a sample spread
 * evenly over them under --mutation-budget, and once each has run with
 * the instance's tests, the score.  repo.c runs them; this file plans and
 * counts.  SPDX-License-Identifier: MIT */
#include "engine/jobs/patches/repo_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "common/xmalloc.h"
#include "engine/core/mutate.h"
#include "operators/operators.h"

#define MUT_MAX 12          /* mutants of one diff's lines run at most */
#define MUT_SURVIVORS 5     /* survivors listed in the evidence */

static size_t count_lines(const char *text)
{
    size_t n = 0;
    for (const char *p = text; *p;) {
        n++;
        const char *e = strchr(p, '\n');
        if (!e)
            break;
        p = e + 1;
    }
    return n;
}

/* Appends to out the mutants of one file's added lines that compile to
 * code of their own; counts the others in *equivalent. */
static int file_mutants(const char *abs, const char *rel, const char *text,
                        const char *diff, json_t *out, size_t *equivalent,
                        char **why)
{
    size_t n_lines = count_lines(text);
    unsigned char *mark = xcalloc(n_lines + 2, 1);
    lt__rt_added_lines(diff, rel, text, mark, n_lines);
    struct lt_mutant_list ml = {0};
    char *msg = NULL;
    size_t len = strlen(text);
    int rc = lt_operators_generate(rel, text, len, "mutmut", &ml, &msg);
    if (rc < 0) {
        *why = xasprintf("%s: cannot generate mutants: %s", rel,
                         msg ? msg : lt_strerror(rc));
        free(msg);
        free(mark);
        return rc;
    }
    free(msg);
    /* Only the mutants touching an added line are analysed: a module's
     * other thousands are not this diff's. */
    struct lt_mutant *mine = xcalloc(ml.count + 1, sizeof(*mine));
    size_t n = 0;
    for (size_t i = 0; i < ml.count; i++) {
        const struct lt_mutant *m = &ml.items[i];
        int hit = 0;
        for (int l = m->line; !hit && l <= m->end_line; l++)
            hit = l >= 1 && (size_t)l <= n_lines && mark[l];
        if (hit)
            mine[n++] = *m;
    }
    struct lt_change_analysis *an = xcalloc(n + 1, sizeof(*an));
    long *dup_of = xcalloc(n + 1, sizeof(long));
    rc = lt__mutants_analyse(rel, text, len, mine, n, NULL, an, dup_of, NULL,
                             NULL);
    if (rc < 0)
        *why = xasprintf("%s: cannot compile its mutants", rel);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        if (an[i].status != LT_CHANGE_OK || dup_of[i] >= 0) {
            ++*equivalent;
            continue;
        }
        json_array_append_new(
            out, json_pack("{s:s, s:i, s:s, s:I, s:I, s:s, s:s, s:n}", "path",
                           abs, "line", mine[i].line, "op", mine[i].op,
                           "start", (json_int_t)mine[i].start, "end",
                           (json_int_t)mine[i].end, "original",
                           mine[i].original, "replacement",
                           mine[i].replacement, "status"));
    }
    if (rc == 0)
        lt__mutants_clear(an, n);
    free(an);
    free(dup_of);
    free(mine);
    lt_mutant_list_free(&ml);
    free(mark);
    return rc;
}

/* Contract: see repo_internal.h. */
json_t *lt__rm_plan(const json_t *files, const char *tree, const char *diff,
                    double per_mutant_s, double budget_s)
{
    json_t *all = json_array();
    size_t equivalent = 0, tl = strlen(tree);
    char *why = NULL;
    int rc = lt_operators_init();
    if (rc < 0)
        why = xstrdup("the operators' interpreter did not start");
    size_t i;
    json_t *f;
    json_array_foreach(files, i, f) {
        const char *abs = json_string_value(json_array_get(f, 0));
        const char *text = json_string_value(json_array_get(f, 1));
        size_t al = abs ? strlen(abs) : 0;
        if (rc < 0 || !text || al < 4 || strcmp(abs + al - 3, ".py") != 0 ||
            strncmp(abs, tree, tl) != 0 || abs[tl] != '/')
            continue;
        rc = file_mutants(abs, abs + tl + 1, text, diff, all, &equivalent,
                          &why);
    }
    json_t *st = json_pack("{s:f, s:I, s:I}", "budget", budget_s, "mutants",
                           (json_int_t)json_array_size(all), "equivalent",
                           (json_int_t)equivalent);
    if (why) {
        json_object_set_new(st, "error", json_string(why));
        json_object_set_new(st, "sample", json_array());
        free(why);
        json_decref(all);
        return st;
    }
    /* The sample: every mutant when the budget affords them (or is 0),
     * else as many as it affords, spread evenly over the lines. */
    size_t n = json_array_size(all), pick = n;
    if (budget_s > 0 && per_mutant_s > 0) {
        double afford = floor(budget_s / per_mutant_s);
        pick = afford < (double)n ? (size_t)afford : n;
        if (!pick && n) {
            /* One mutant's run alone would pass the budget (a slow
             * suite): the layer says so rather than overspend. */
            char *over = xasprintf("a mutant's run takes about %.0f s, "
                                   "over --mutation-budget %g s",
                                   per_mutant_s, budget_s);
            json_object_set_new(st, "skipped", json_string(over));
            free(over);
        }
    }
    if (pick > MUT_MAX)
        pick = MUT_MAX;
    json_t *sample = json_array();
    for (size_t k = 0; k < pick && n; k++)
        json_array_append(sample,
                          json_array_get(all, (size_t)(((double)k + 0.5) *
                                                       (double)n /
                                                       (double)pick)));
    json_object_set_new(st, "sample", sample);
    json_decref(all);
    return st;
}

/* Contract: see repo_internal.h. */
json_t *lt__rm_files(const json_t *files, const json_t *mutant)
{
    const char *path = json_string_value(json_object_get(mutant, "path"));
    json_int_t start = json_integer_value(json_object_get(mutant, "start"));
    json_int_t end = json_integer_value(json_object_get(mutant, "end"));
    const char *repl =
        json_string_value(json_object_get(mutant, "replacement"));
    json_t *out = json_array();
    int found = 0;
    size_t i;
    json_t *f;
    json_array_foreach(files, i, f) {
        const char *abs = json_string_value(json_array_get(f, 0));
        const char *text = json_string_value(json_array_get(f, 1));
        if (!path || !abs || !text || strcmp(abs, path) != 0) {
            json_array_append(out, f);
            continue;
        }
        size_t len = strlen(text);
        if (!repl || start < 0 || end < start || (size_t)end > len)
            break;
        char *m = xasprintf("%.*s%s%s", (int)start, text, repl, text + end);
        json_t *mt = json_string(m);
        free(m);
        if (!mt)
            break;
        json_array_append_new(out, json_pack("[s,o]", abs, mt));
        found = 1;
    }
    if (!found) {
        json_decref(out);
        return NULL;
    }
    return out;
}

/* Contract: see repo_internal.h. */
int lt__rm_done(const json_t *st)
{
    size_t i;
    json_t *m;
    json_array_foreach(json_object_get(st, "sample"), i, m)
        if (json_is_null(json_object_get(m, "status")))
            return 0;
    return 1;
}

/* Contract: see repo_internal.h. */
json_t *lt__rm_summary(const json_t *st)
{
    if (!st)
        return NULL;
    if (json_object_get(st, "error"))
        return json_pack("{s:O}", "error", json_object_get(st, "error"));
    if (json_object_get(st, "skipped"))
        return json_pack("{s:O, s:O, s:n}", "mutants",
                         json_object_get(st, "mutants"), "skipped",
                         json_object_get(st, "skipped"), "score");
    size_t killed = 0, survived = 0, errors = 0;
    double ms = 0;
    json_t *surv = json_array();
    size_t i;
    json_t *m;
    json_array_foreach(json_object_get(st, "sample"), i, m) {
        const char *s = json_string_value(json_object_get(m, "status"));
        ms += json_number_value(json_object_get(m, "duration_ms"));
        if (s && strcmp(s, "killed") == 0) {
            killed++;
        } else if (s && strcmp(s, "survived") == 0) {
            survived++;
            if (json_array_size(surv) < MUT_SURVIVORS)
                json_array_append_new(
                    surv, json_pack("{s:O, s:O, s:O, s:O}", "line",
                                    json_object_get(m, "line"), "op",
                                    json_object_get(m, "op"), "original",
                                    json_object_get(m, "original"),
                                    "replacement",
                                    json_object_get(m, "replacement")));
        } else {
            errors++;
        }
    }
    json_t *o = json_pack(
        "{s:O, s:I, s:I, s:I, s:I, s:f}", "mutants",
        json_object_get(st, "mutants"), "sampled",
        (json_int_t)json_array_size(json_object_get(st, "sample")), "killed",
        (json_int_t)killed, "survived", (json_int_t)survived, "errors",
        (json_int_t)errors, "duration_ms", ms);
    if (killed + survived)
        json_object_set_new(o, "score",
                            json_real(round(1e4 * (double)killed /
                                            (double)(killed + survived)) /
                                      1e4));
    else
        json_object_set_new(o, "score", json_null());
    json_object_set_new(o, "survivors", surv);
    return o;
}
