/* Reports rendered from the store: the score summary (text or JSON), one
 * mutant's diff and verdict (`litmus show`), and `litmus report`.
 * SPDX-License-Identifier: MIT */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "engine/internal.h"
#include "sandbox/sandbox.h"

/* A path relative to the working directory when it lies below it. */
static const char *display_path(const char *path, const char *cwd)
{
    size_t n = cwd ? strlen(cwd) : 0;
    if (n && strncmp(path, cwd, n) == 0 && path[n] == '/')
        return path + n + 1;
    return path;
}

/* One line of text for a terminal: newlines and tabs shown escaped. */
static char *one_line(const char *s, size_t max)
{
    struct lt_buf b = LT_BUF_INIT;
    for (size_t i = 0; s[i] && b.len < max; i++) {
        if (s[i] == '\n')
            lt_buf_puts(&b, "\\n");
        else if (s[i] == '\t')
            lt_buf_puts(&b, "\\t");
        else
            lt_buf_append(&b, &s[i], 1);
    }
    if (strlen(s) > max)
        lt_buf_puts(&b, "...");
    return lt_buf_steal(&b);
}

struct collect {
    struct lt_summary sum;
    int duplicates;      /* mutants that shared another's run */
    json_t *mutants;     /* JSON array, or NULL */
    struct lt_buf survivors;
    int n_survivors;
    const char *cwd;
    size_t n_files;
    const char *last_file;
    char *last_file_copy;
};

static int collect_one(const struct lt_mutant *m, const struct lt_result *r,
                       void *ud)
{
    struct collect *c = ud;
    enum lt_verdict v = r ? r->verdict : LT_VERDICT_PENDING;
    lt_summary_add(&c->sum, v);
    if (r && r->detail && strncmp(r->detail, "same code as mutant ", 20) == 0)
        c->duplicates++;
    if (!c->last_file_copy || strcmp(c->last_file_copy, m->file) != 0) {
        free(c->last_file_copy);
        c->last_file_copy = xstrdup(m->file);
        c->n_files++;
    }
    const char *file = display_path(m->file, c->cwd);
    if (c->mutants) {
        json_t *o = json_pack(
            "{s:s, s:s, s:i, s:i, s:i, s:i, s:s, s:s, s:s, s:s, s:s}",
            "id", m->id, "file", file, "line", m->line, "col", m->col,
            "end_line", m->end_line, "end_col", m->end_col, "operator",
            m->op, "category", lt_category_name(m->category), "original",
            m->original, "replacement", m->replacement, "status",
            lt_verdict_name(v));
        json_object_set_new(o, "killed_by",
                            r && r->killed_by ? json_string(r->killed_by)
                                              : json_null());
        json_object_set_new(o, "duration_ms",
                            r ? json_real(r->duration_ms) : json_null());
        if (r && r->detail && *r->detail)
            json_object_set_new(o, "detail", json_string(r->detail));
        json_array_append_new(c->mutants, o);
    }
    if (v == LT_VERDICT_SURVIVED || v == LT_VERDICT_NO_COVERAGE) {
        char *orig = one_line(m->original, 40);
        char *repl = one_line(m->replacement, 40);
        lt_buf_printf(&c->survivors, "  %s  %s:%d:%d  %-12s %s -> %s%s\n",
                      m->id, file, m->line, m->col + 1, m->op, orig,
                      *repl ? repl : "(removed)",
                      v == LT_VERDICT_NO_COVERAGE ? "  [no coverage]" : "");
        free(orig);
        free(repl);
        c->n_survivors++;
    }
    return 0;
}

static json_t *summary_json(const struct lt_summary *s, int duplicates)
{
    json_t *o = json_object();
    json_object_set_new(o, "mutants", json_integer(s->total));
    for (int v = LT_VERDICT_KILLED; v < LT_VERDICT__COUNT; v++)
        json_object_set_new(o, lt_verdict_name((enum lt_verdict)v),
                            json_integer(s->counts[v]));
    double score = lt_summary_score(s);
    json_object_set_new(o, "score", score < 0 ? json_null()
                                              : json_real(score));
    if (s->counts[LT_VERDICT_PENDING])
        json_object_set_new(o, "pending",
                            json_integer(s->counts[LT_VERDICT_PENDING]));
    /* Mutants that compiled to the same code as another and shared its
     * run (their verdicts are counted above too). */
    json_object_set_new(o, "duplicates", json_integer(duplicates));
    return o;
}

int lt__report_score(struct lt_store *st, const struct lt_plan *plan,
                     enum lt_format format, double fail_under,
                     unsigned sandbox_features, FILE *out)
{
    (void)plan;
    struct collect c;
    memset(&c, 0, sizeof(c));
    char *cwd = getcwd(NULL, 0);
    c.cwd = cwd;
    if (format == LT_FORMAT_JSON)
        c.mutants = json_array();
    int rc = lt_store_each(st, collect_one, &c);
    if (rc < 0) {
        lt_error("cannot read the results: %s", lt_strerror(rc));
        json_decref(c.mutants);
        lt_buf_free(&c.survivors);
        free(c.last_file_copy);
        free(cwd);
        return 3;
    }
    double score = lt_summary_score(&c.sum);
    int exit_code = 0;
    if (fail_under >= 0 && (score < 0 || score + 1e-12 < fail_under))
        exit_code = 1;

    if (format == LT_FORMAT_JSON) {
        json_t *root = json_object();
        json_object_set_new(root, "schema", json_string("litmus.score/1"));
        json_object_set_new(root, "summary", summary_json(&c.sum, c.duplicates));
        json_object_set_new(root, "mutants", c.mutants);
        char *text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
        fprintf(out, "%s\n", text);
        free(text);
        json_decref(root);
    } else {
        const struct lt_summary *s = &c.sum;
        fprintf(out, "%d mutants in %zu file%s\n", s->total, c.n_files,
                c.n_files == 1 ? "" : "s");
        fprintf(out, "  killed %d, timeout %d, crashed %d, memory %d, "
                     "survived %d, no_coverage %d, equivalent %d, "
                     "invalid %d, error %d",
                s->counts[LT_VERDICT_KILLED], s->counts[LT_VERDICT_TIMEOUT],
                s->counts[LT_VERDICT_CRASHED], s->counts[LT_VERDICT_MEMORY],
                s->counts[LT_VERDICT_SURVIVED],
                s->counts[LT_VERDICT_NO_COVERAGE],
                s->counts[LT_VERDICT_EQUIVALENT],
                s->counts[LT_VERDICT_INVALID], s->counts[LT_VERDICT_ERROR]);
        if (s->counts[LT_VERDICT_PENDING])
            fprintf(out, ", not run yet %d", s->counts[LT_VERDICT_PENDING]);
        fputc('\n', out);
        if (c.duplicates || s->counts[LT_VERDICT_EQUIVALENT])
            fprintf(out, "  not run: %d equivalent to the original, %d "
                         "duplicates of another mutant (verdict shared)\n",
                    s->counts[LT_VERDICT_EQUIVALENT], c.duplicates);
        int detected = s->counts[LT_VERDICT_KILLED] +
                       s->counts[LT_VERDICT_TIMEOUT] +
                       s->counts[LT_VERDICT_CRASHED] +
                       s->counts[LT_VERDICT_MEMORY];
        int valid = detected + s->counts[LT_VERDICT_SURVIVED] +
                    s->counts[LT_VERDICT_NO_COVERAGE];
        if (score >= 0)
            fprintf(out, "mutation score: %.1f%% (%d detected of %d "
                         "valid)\n", score * 100.0, detected, valid);
        else
            fprintf(out, "mutation score: n/a (no valid mutant)\n");
        if (c.n_survivors) {
            fprintf(out, "\nsurviving mutants (%d):\n%s", c.n_survivors,
                    c.survivors.data);
            fprintf(out, "\n`litmus show ID` prints a mutant's diff.\n");
        }
        if (sandbox_features)
            (void)sandbox_features;
        if (exit_code == 1)
            fprintf(out, "score %.1f%% is below --fail-under %.1f%%\n",
                    score < 0 ? 0.0 : score * 100.0, fail_under * 100.0);
    }
    lt_buf_free(&c.survivors);
    free(c.last_file_copy);
    free(cwd);
    return exit_code;
}

/* Start of the line holding offset `at`. */
static size_t line_start(const char *s, size_t at)
{
    while (at > 0 && s[at - 1] != '\n')
        at--;
    return at;
}

/* One past the newline ending the line holding offset `at`. */
static size_t line_end(const char *s, size_t len, size_t at)
{
    while (at < len && s[at] != '\n')
        at++;
    return at < len ? at + 1 : at;
}

static int count_lines(const char *s, size_t n)
{
    int lines = 0;
    for (size_t i = 0; i < n; i++)
        lines += s[i] == '\n';
    if (n && s[n - 1] != '\n')
        lines++;
    return lines;
}

static void prefixed(struct lt_buf *b, char sign, const char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        size_t e = i;
        while (e < n && s[e] != '\n')
            e++;
        lt_buf_append(b, &sign, 1);
        lt_buf_append(b, s + i, e - i);
        lt_buf_puts(b, "\n");
        i = e + 1;
    }
}

/* A unified diff of one mutant with three lines of context (caller
 * frees). */
static char *mutant_diff(const struct lt_mutant *m, const char *src,
                         size_t len, const char *name)
{
    if (m->end > len || m->start > m->end)
        return xstrdup("(the stored source does not match the mutant)\n");
    size_t ls = line_start(src, m->start);
    size_t le = line_end(src, len, m->end > m->start ? m->end - 1 : m->end);
    if (le < m->end)
        le = m->end;
    size_t cs = ls;
    for (int k = 0; k < 3 && cs > 0; k++)
        cs = line_start(src, cs - 1);
    size_t ce = le;
    for (int k = 0; k < 3 && ce < len; k++)
        ce = line_end(src, len, ce);
    int first = 1 + count_lines(src, cs) - (cs && src[cs - 1] != '\n');
    struct lt_buf mut = LT_BUF_INIT;
    lt_buf_append(&mut, src + ls, m->start - ls);
    lt_buf_puts(&mut, m->replacement);
    lt_buf_append(&mut, src + m->end, le - m->end);
    int old_n = count_lines(src + cs, ce - cs);
    int new_n = count_lines(src + cs, ls - cs) + count_lines(mut.data, mut.len) +
                count_lines(src + le, ce - le);
    struct lt_buf b = LT_BUF_INIT;
    lt_buf_printf(&b, "--- a/%s\n+++ b/%s\n@@ -%d,%d +%d,%d @@\n", name,
                  name, first, old_n, first, new_n);
    prefixed(&b, ' ', src + cs, ls - cs);
    prefixed(&b, '-', src + ls, le - ls);
    prefixed(&b, '+', mut.data, mut.len);
    prefixed(&b, ' ', src + le, ce - le);
    lt_buf_free(&mut);
    return lt_buf_steal(&b);
}

static void mutant_free_fields(struct lt_mutant *m)
{
    lt_mutant_clear(m);
}

int lt_show(const char *db, const char *id, enum lt_format format)
{
    struct lt_store *st = NULL;
    char *errmsg = NULL;
    if (access(db, F_OK) != 0) {
        lt_error("%s: no such database; run `litmus score` first", db);
        return 2;
    }
    int rc = lt_store_open(db, &st, &errmsg);
    if (rc < 0) {
        lt_error("%s: %s", db, errmsg ? errmsg : lt_strerror(rc));
        free(errmsg);
        return 2;
    }
    struct lt_mutant m;
    struct lt_result r;
    memset(&m, 0, sizeof(m));
    memset(&r, 0, sizeof(r));
    int has = 0;
    rc = lt_store_get_mutant(st, id, &m, &r, &has);
    if (rc < 0) {
        lt_error("%s: %s", id,
                 rc == LT_EUSAGE ? "ambiguous id prefix; give more characters"
                 : rc == LT_ENOTFOUND ? "no such mutant in the database"
                                      : lt_strerror(rc));
        lt_store_close(st);
        return 2;
    }
    char *src = NULL;
    size_t len = 0;
    rc = lt_store_get_file(st, m.file, &src, &len);
    char *cwd = getcwd(NULL, 0);
    const char *name = display_path(m.file, cwd);
    char *diff = rc == 0 ? mutant_diff(&m, src, len, name)
                         : xstrdup("(source not stored)\n");
    const char *verdict = has ? lt_verdict_name(r.verdict) : "pending";
    if (format == LT_FORMAT_JSON) {
        json_t *o = json_pack("{s:s, s:s, s:i, s:i, s:s, s:s, s:s, s:s, "
                              "s:s, s:s}",
                              "id", m.id, "file", name, "line", m.line,
                              "col", m.col, "operator", m.op, "category",
                              lt_category_name(m.category), "original",
                              m.original, "replacement", m.replacement,
                              "status", verdict, "diff", diff);
        json_object_set_new(o, "killed_by", has && r.killed_by
                                                ? json_string(r.killed_by)
                                                : json_null());
        json_object_set_new(o, "detail", has && r.detail
                                             ? json_string(r.detail)
                                             : json_null());
        json_object_set_new(o, "duration_ms",
                            has ? json_real(r.duration_ms) : json_null());
        char *text = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
        printf("%s\n", text);
        free(text);
        json_decref(o);
    } else {
        printf("mutant %s  %s:%d:%d  %s (%s)\n", m.id, name, m.line,
               m.col + 1, m.op, lt_category_name(m.category));
        printf("verdict: %s", verdict);
        if (has && r.killed_by)
            printf(", killed by %s", r.killed_by);
        if (has)
            printf(" (%.1f ms)", r.duration_ms);
        printf("\n");
        if (has && r.detail && *r.detail)
            printf("detail: %s\n", r.detail);
        printf("\n%s", diff);
    }
    free(diff);
    free(cwd);
    free(src);
    mutant_free_fields(&m);
    lt_result_clear(&r);
    lt_store_close(st);
    return 0;
}

int lt_report(const char *db, enum lt_format format)
{
    struct lt_store *st = NULL;
    char *errmsg = NULL;
    if (access(db, F_OK) != 0) {
        lt_error("%s: no such database; run `litmus score` first", db);
        return 2;
    }
    int rc = lt_store_open(db, &st, &errmsg);
    if (rc < 0) {
        lt_error("%s: %s", db, errmsg ? errmsg : lt_strerror(rc));
        free(errmsg);
        return 2;
    }
    int code = lt__report_score(st, NULL, format, -1, 0, stdout);
    lt_store_close(st);
    return code;
}
