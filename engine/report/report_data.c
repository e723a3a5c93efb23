/* The data every report renders, the bottom file of engine/report/ (it
 * calls none of the others): the one load of a stored run (mutants,
 * files, tests, coverage), the tests covering a mutant, a mutant's diff,
 * and the text helpers the formats share.
 * SPDX-License-Identifier: MIT */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "engine/report/report.h"
#include "engine/report/report_internal.h"

/* A path relative to the working directory when it lies below it. */
const char *lt__display_path(const char *path, const char *cwd)
{
    size_t n = cwd ? strlen(cwd) : 0;
    if (n && strncmp(path, cwd, n) == 0 && path[n] == '/')
        return path + n + 1;
    return path;
}

/* One line of text for a terminal or a message: newlines and tabs shown
 * escaped, at most about max bytes then "..." (caller frees). */
char *lt__one_line(const char *s, size_t max)
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

/*** Loading a stored run ***/

static void copy_mutant(struct lt_mutant *dst, const struct lt_mutant *m)
{
    *dst = *m;
    dst->file = xstrdup(m->file);
    dst->op = xstrdup(m->op ? m->op : "");
    dst->original = xstrdup(m->original ? m->original : "");
    dst->replacement = xstrdup(m->replacement ? m->replacement : "");
}

static void copy_result(struct lt_result *dst, const struct lt_result *r)
{
    *dst = *r;
    dst->killed_by = r->killed_by ? xstrdup(r->killed_by) : NULL;
    dst->detail = r->detail ? xstrdup(r->detail) : NULL;
    dst->output = NULL; /* no report shows it */
}

struct load {
    struct lt__rdata *d;
    size_t cap_m, cap_f;
};

static int load_mutant(const struct lt_mutant *m, const struct lt_result *r,
                       void *ud)
{
    struct load *l = ud;
    struct lt__rdata *d = l->d;
    if (d->n_files == 0 || strcmp(d->files[d->n_files - 1].path, m->file)) {
        if (d->n_files == l->cap_f) {
            l->cap_f = l->cap_f ? 2 * l->cap_f : 16;
            d->files = xrealloc(d->files, l->cap_f * sizeof(*d->files));
        }
        struct lt__rfile *f = &d->files[d->n_files++];
        memset(f, 0, sizeof(*f));
        f->path = xstrdup(m->file);
    }
    if (d->n_mutants == l->cap_m) {
        l->cap_m = l->cap_m ? 2 * l->cap_m : 256;
        d->mutants = xrealloc(d->mutants, l->cap_m * sizeof(*d->mutants));
    }
    struct lt__rmutant *x = &d->mutants[d->n_mutants++];
    memset(x, 0, sizeof(*x));
    copy_mutant(&x->m, m);
    x->file = d->n_files - 1;
    if (r) {
        copy_result(&x->r, r);
        x->has_result = 1;
    } else {
        x->r.verdict = d->budget_stopped ? LT_VERDICT_NOT_RUN
                                         : LT_VERDICT_PENDING;
    }
    lt_summary_add(&d->sum, x->r.verdict);
    if (r && r->detail && strncmp(r->detail, "same code as mutant ", 20) == 0)
        d->duplicates++;
    return 0;
}

static int load_test(const struct lt_test_record *t, void *ud)
{
    struct lt__rdata *d = ud;
    d->tests = xrealloc(d->tests, (d->n_tests + 1) * sizeof(*d->tests));
    struct lt__rtest *x = &d->tests[d->n_tests++];
    x->nodeid = xstrdup(t->nodeid);
    x->baseline_ms = t->baseline_ms;
    x->outcome = t->outcome ? xstrdup(t->outcome) : NULL;
    x->coverage = t->coverage ? xstrdup(t->coverage) : NULL;
    return 0;
}

/* UTF-16 code units from byte offset `from` to `to` of s (Stryker's
 * elements index JavaScript strings; SARIF counts the same by default). */
static int utf16_units(const char *s, size_t from, size_t to)
{
    int n = 0;
    for (size_t i = from; i < to; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x80 || (c >= 0xc0 && c < 0xf0))
            n++;
        else if (c >= 0xf0)
            n += 2;
    }
    return n;
}

/* 1-based line and UTF-16 column of byte offset at. */
static void position(const char *s, size_t at, int *line, int *col)
{
    int l = 1;
    size_t ls = 0;
    for (size_t i = 0; i < at; i++)
        if (s[i] == '\n')
            l++, ls = i + 1;
    *line = l;
    *col = 1 + utf16_units(s, ls, at);
}

static void locate(struct lt__rdata *d, struct lt__rmutant *x)
{
    const struct lt__rfile *f = &d->files[x->file];
    const struct lt_mutant *m = &x->m;
    if (f->source && m->start <= m->end && m->end <= f->len) {
        position(f->source, m->start, &x->loc.line, &x->loc.col);
        position(f->source, m->end, &x->loc.end_line, &x->loc.end_col);
        return;
    }
    x->loc.line = m->line > 0 ? m->line : 1;
    x->loc.col = m->col + 1 > 0 ? m->col + 1 : 1;
    x->loc.end_line = m->end_line >= x->loc.line ? m->end_line : x->loc.line;
    x->loc.end_col = m->end_col + 1 > 0 ? m->end_col + 1 : 1;
}

/* The git work tree holding dir (the nearest parent with a .git entry),
 * else dir itself (caller frees). */
static char *find_repo_root(const char *dir)
{
    char *p = xstrdup(dir);
    size_t n = strlen(p);
    while (n > 0) {
        char *git = xasprintf("%.*s/.git", (int)n, p);
        int found = access(git, F_OK) == 0;
        free(git);
        if (found) {
            p[n] = '\0';
            return p;
        }
        while (n > 0 && p[n - 1] != '/')
            n--;
        if (n > 0)
            n--; /* the slash */
    }
    free(p);
    return xstrdup(dir);
}

/* Contract: see report_internal.h. */
double lt__meta_seconds(struct lt_store *st, const char *key)
{
    char *v = NULL;
    double s = -1;
    if (lt_store_get_meta(st, key, &v) == 0 && v)
        s = strtod(v, NULL);
    free(v);
    return s;
}

static void index_coverage(struct lt__rdata *d); /* below */

int lt__rdata_load(struct lt_store *st, struct lt__rdata *d)
{
    memset(d, 0, sizeof(*d));
    d->cwd = getcwd(NULL, 0);
    if (!d->cwd)
        d->cwd = xstrdup(".");
    d->repo_root = find_repo_root(d->cwd);
    d->budget_stopped = lt_store_budget_stopped(st);
    struct load l = {d, 0, 0};
    int rc = lt_store_each(st, load_mutant, &l);
    if (rc < 0)
        return rc;
    rc = lt_store_each_test(st, load_test, d);
    if (rc < 0)
        return rc;
    size_t rl = strlen(d->repo_root);
    for (size_t i = 0; i < d->n_files; i++) {
        struct lt__rfile *f = &d->files[i];
        f->display = lt__display_path(f->path, d->cwd);
        if (strncmp(f->path, d->repo_root, rl) == 0 &&
                 f->path[rl] == '/')
            f->repo_path = xstrdup(f->path + rl + 1);
        if (lt_store_get_file(st, f->path, &f->source, &f->len) < 0)
            f->source = NULL;
    }
    for (size_t i = 0; i < d->n_mutants; i++)
        locate(d, &d->mutants[i]);
    index_coverage(d);
    d->setup_s = lt__meta_seconds(st, "run_startup_s");
    d->baseline_s = lt__meta_seconds(st, "run_baseline_s");
    d->mutants_s = lt__meta_seconds(st, "run_mutants_s");
    if (lt_store_get_meta(st, "settings", &d->settings) < 0)
        d->settings = NULL;
    return 0;
}

void lt__rdata_free(struct lt__rdata *d)
{
    for (size_t i = 0; i < d->n_mutants; i++) {
        lt_mutant_clear(&d->mutants[i].m);
        lt_result_clear(&d->mutants[i].r);
    }
    free(d->mutants);
    for (size_t i = 0; i < d->n_files; i++) {
        free(d->files[i].path);
        free(d->files[i].repo_path);
        free(d->files[i].source);
        free(d->files[i].cov);
    }
    free(d->files);
    for (size_t i = 0; i < d->n_tests; i++) {
        free(d->tests[i].nodeid);
        free(d->tests[i].outcome);
        free(d->tests[i].coverage);
    }
    free(d->tests);
    free(d->cwd);
    free(d->repo_root);
    free(d->settings);
    memset(d, 0, sizeof(*d));
}

int lt__is_survivor(enum lt_verdict v)
{
    return v == LT_VERDICT_SURVIVED || v == LT_VERDICT_NO_COVERAGE;
}

/*** Coverage ***/

static int cmp_cov(const void *a, const void *b)
{
    const struct lt__cov *x = a, *y = b;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    return x->test < y->test ? -1 : x->test > y->test;
}

/* Indexes every test's stored coverage ("FILE:1-4,9\n...") by file, as
 * (line, test) pairs sorted by line, so that the tests reaching a mutant
 * are a binary search away whatever the size of the suite. */
static void index_coverage(struct lt__rdata *d)
{
    size_t *cap = xcalloc(d->n_files ? d->n_files : 1, sizeof(*cap));
    for (size_t t = 0; t < d->n_tests; t++) {
        const char *p = d->tests[t].coverage;
        if (!p)
            continue;
        d->any_coverage = 1;
        while (*p) {
            const char *nl = strchr(p, '\n');
            size_t n = nl ? (size_t)(nl - p) : strlen(p);
            const char *colon = memchr(p, ':', n);
            /* The file part may hold ':'; the ranges never do. */
            for (const char *c = colon; c && c < p + n;
                 c = memchr(c + 1, ':', (size_t)(p + n - c - 1)))
                colon = c;
            struct lt__rfile *f = NULL;
            for (size_t k = 0; colon && k < d->n_files && !f; k++)
                if (strlen(d->files[k].path) == (size_t)(colon - p) &&
                    strncmp(d->files[k].path, p, (size_t)(colon - p)) == 0)
                    f = &d->files[k];
            const char *q = colon ? colon + 1 : p + n, *e = p + n;
            while (f && q < e) {
                char *end;
                long lo = strtol(q, &end, 10), hi = lo;
                if (end == q)
                    break;
                if (*end == '-')
                    hi = strtol(end + 1, &end, 10);
                for (long l = lo; l <= hi && l - lo < 1000000; l++) {
                    size_t k = (size_t)(f - d->files);
                    if (f->n_cov == cap[k]) {
                        cap[k] = cap[k] ? 2 * cap[k] : 256;
                        f->cov = xrealloc(f->cov, cap[k] * sizeof(*f->cov));
                    }
                    f->cov[f->n_cov].line = l;
                    f->cov[f->n_cov++].test = t;
                }
                q = *end == ',' ? end + 1 : e;
            }
            p += n + (nl != NULL);
        }
    }
    for (size_t k = 0; k < d->n_files; k++)
        if (d->files[k].n_cov)
            qsort(d->files[k].cov, d->files[k].n_cov, sizeof(struct lt__cov),
                  cmp_cov);
    free(cap);
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

long lt__covering_tests(const struct lt__rdata *d, size_t i, size_t **idx)
{
    const struct lt__rmutant *x = &d->mutants[i];
    const struct lt__rfile *f = &d->files[x->file];
    long lo = x->m.line, hi = x->m.end_line > lo ? x->m.end_line : lo;
    *idx = NULL;
    if (!d->any_coverage)
        return -1;
    size_t a = 0, b = f->n_cov;
    while (a < b) { /* first pair with line >= lo */
        size_t mid = a + (b - a) / 2;
        if (f->cov[mid].line < lo)
            a = mid + 1;
        else
            b = mid;
    }
    size_t n = 0;
    for (size_t k = a; k < f->n_cov && f->cov[k].line <= hi; k++) {
        *idx = xrealloc(*idx, (n + 1) * sizeof(**idx));
        (*idx)[n++] = f->cov[k].test;
    }
    if (n > 1) {
        qsort(*idx, n, sizeof(**idx), cmp_size);
        size_t u = 1;
        for (size_t k = 1; k < n; k++)
            if ((*idx)[k] != (*idx)[u - 1])
                (*idx)[u++] = (*idx)[k];
        n = u;
    }
    return (long)n;
}

char *lt__utf8_clean(const char *s)
{
    struct lt_buf b = LT_BUF_INIT;
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        unsigned c = *p;
        size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3
                 : (c >> 3) == 30 ? 4 : 0;
        size_t k = 1;
        while (n > 1 && k < n && (p[k] & 0xc0) == 0x80)
            k++;
        /* Overlong forms and surrogates are refused as jansson does. */
        unsigned long cp = 0;
        if (n > 1 && k == n) {
            cp = c & (0x7f >> n);
            for (size_t j = 1; j < n; j++)
                cp = (cp << 6) | (p[j] & 0x3f);
        }
        int ok = n == 1 ||
                 (n > 1 && k == n &&
                  cp >= (n == 2 ? 0x80UL : n == 3 ? 0x800UL : 0x10000UL) &&
                  cp <= 0x10ffff && (cp < 0xd800 || cp > 0xdfff));
        if (ok) {
            lt_buf_append(&b, p, n);
            p += n;
        } else {
            lt_buf_puts(&b, "\xef\xbf\xbd");
            p++;
        }
    }
    if (!b.data)
        return xstrdup("");
    return lt_buf_steal(&b);
}

/* Contract: see report_internal.h. */
json_t *lt__jstr(const char *s)
{
    char *c = lt__utf8_clean(s ? s : "");
    json_t *j = json_string(c);
    free(c);
    return j;
}

/*** A mutant's diff ***/

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
char *lt__mutant_diff(const struct lt_mutant *m, const char *src,
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
    /* An absolute path keeps one slash after a/ and b/. */
    const char *sep = name[0] == '/' ? "" : "/";
    lt_buf_printf(&b, "--- a%s%s\n+++ b%s%s\n@@ -%d,%d +%d,%d @@\n", sep,
                  name, sep, name, first, old_n, first, new_n);
    prefixed(&b, ' ', src + cs, ls - cs);
    prefixed(&b, '-', src + ls, le - ls);
    prefixed(&b, '+', mut.data, mut.len);
    prefixed(&b, ' ', src + le, ce - le);
    lt_buf_free(&mut);
    return lt_buf_steal(&b);
}

char *lt__rmutant_diff(const struct lt__rdata *d, size_t i)
{
    const struct lt__rmutant *x = &d->mutants[i];
    const struct lt__rfile *f = &d->files[x->file];
    if (!f->source)
        return xstrdup("(source not stored)\n");
    return lt__mutant_diff(&x->m, f->source, f->len, f->display);
}
