/* `litmus patches` on repositories: text the other repo_* files read,
 * the bottom file of the folder (it calls none of them and nothing but
 * common/): string lists, and unified diffs (the files a diff touches,
 * its file blocks, the lines it adds to a file).  Diffs are untrusted
 * input (a model's patch): tests/fuzz/fuzz_diff.c fuzzes these readers.
 * SPDX-License-Identifier: MIT */
#include "engine/jobs/patches/repo_internal.h"

#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"

/*** String lists ***/

void lt__strv_push_own(struct strv *s, char *str)
{
    if (s->n + 1 >= s->cap) {
        s->cap = s->cap ? 2 * s->cap : 8;
        s->v = xrealloc(s->v, s->cap * sizeof(char *));
    }
    s->v[s->n++] = str;
    s->v[s->n] = NULL;
}

void lt__strv_push(struct strv *s, const char *str)
{
    lt__strv_push_own(s, xstrdup(str));
}

int lt__strv_has(const struct strv *s, const char *str)
{
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->v[i], str) == 0)
            return 1;
    return 0;
}

void lt__strv_free(struct strv *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->v[i]);
    free(s->v);
    memset(s, 0, sizeof(*s));
}

/*** Diffs ***/

/* Contract: see repo_internal.h. */
char *lt__rt_side_path(const char *s, size_t n)
{
    while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
        n--;
    /* "--- a/path\tdate" */
    const char *tab = memchr(s, '\t', n);
    if (tab)
        n = (size_t)(tab - s);
    char *p = xstrndup(s, n);
    if (p[0] == '"') {
        /* git quotes unusual names: unquote the simple escapes. */
        char *w = p;
        for (char *r = p + 1; *r && *r != '"'; r++) {
            if (*r == '\\' && r[1]) {
                r++;
                *w++ = *r == 't' ? '\t' : *r == 'n' ? '\n' : *r;
            } else {
                *w++ = *r;
            }
        }
        *w = '\0';
    }
    if (strcmp(p, "/dev/null") == 0) {
        free(p);
        return NULL;
    }
    char *slash = strchr(p, '/');
    char *out = xstrdup(slash ? slash + 1 : p);
    free(p);
    return out;
}

/* Contract: see repo_internal.h. */
void lt__rt_diff_paths(const char *diff, struct strv *out)
{
    char *minus = NULL;
    for (const char *p = diff; p && *p;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n > 4 && strncmp(p, "--- ", 4) == 0) {
            free(minus);
            minus = lt__rt_side_path(p + 4, n - 4);
        } else if (n > 4 && strncmp(p, "+++ ", 4) == 0) {
            char *plus = lt__rt_side_path(p + 4, n - 4);
            const char *path = plus ? plus : minus;
            if (path && !lt__strv_has(out, path))
                lt__strv_push(out, path);
            free(plus);
            free(minus);
            minus = NULL;
        }
        p = e ? e + 1 : NULL;
    }
    free(minus);
}

/* Contract: see repo_internal.h. */
int lt__rt_next_block(const char **at, struct lt__diff_block *block)
{
    static const char HEAD[] = "diff --git ";
    const char *p = *at;
    if (!p || !*p)
        return 0;
    if (strncmp(p, HEAD, sizeof(HEAD) - 1) != 0) {
        p = strstr(p, "\ndiff --git ");
        if (!p) {
            *at = NULL;
            return 0;
        }
        p++;
    }
    size_t hl = strcspn(p, "\n");
    const char *next = strstr(p + hl, "\ndiff --git ");
    const char *end = next ? next + 1 : p + hl + strlen(p + hl);
    /* The header names a/ and b/: the path is the b/ side. */
    const char *bp = strstr(p, " b/");
    block->start = p;
    block->len = (size_t)(end - p);
    block->path = bp && bp < p + hl ? xstrndup(bp + 3, (size_t)(p + hl - bp - 3))
                                    : xstrdup("");
    *at = end;
    return 1;
}

/* Where line `want` (len bytes) of a hunk expected at line `at` is in
 * text's lines (starts[1..n], ends beyond): at `at`, else the nearest
 * equal line; 0 when none is. */
static size_t locate_line(const char *const *starts, size_t n, size_t at,
                          const char *want, size_t len)
{
    /* A hunk's header may name lines past the text's end: the nearest
     * lines are then the last ones, nearest first. */
    if (n == 0)
        return 0;
    if (at > n)
        at = n;
    for (size_t d = 0; d <= n; d++) {
        for (int side = 0; side < (d ? 2 : 1); side++) {
            if (side == 0 ? at + d > n : d >= at)
                continue;
            size_t l = side == 0 ? at + d : at - d;
            size_t ll = (size_t)(starts[l + 1] - starts[l]);
            while (ll && (starts[l][ll - 1] == '\n' ||
                          starts[l][ll - 1] == '\r'))
                ll--;
            if (ll == len && memcmp(starts[l], want, len) == 0)
                return l;
        }
        if (at + d > n && d >= at)
            break;
    }
    return 0;
}

/* Contract: see repo_internal.h. */
void lt__rt_added_lines(const char *diff, const char *rel, const char *text,
                        unsigned char *mark, size_t n_lines)
{
    /* starts[l] is where line l (1-based) begins; starts[n + 1] the end. */
    const char **starts = xcalloc(n_lines + 2, sizeof(*starts));
    size_t n = 0;
    for (const char *p = text; *p && n < n_lines;) {
        starts[++n] = p;
        const char *e = strchr(p, '\n');
        p = e ? e + 1 : p + strlen(p);
    }
    starts[n + 1] = text + strlen(text);
    int in_file = 0;
    long shift = 0;    /* where this hunk landed against its header */
    int shift_known = 0;
    size_t at = 0;     /* the new side's line number in the hunk */
    unsigned long old_left = 0, new_left = 0; /* the hunk's lines to come */
    for (const char *p = diff; p && *p;) {
        const char *e = strchr(p, '\n');
        size_t ll = e ? (size_t)(e - p) : strlen(p);
        char c = ll ? p[0] : ' ';
        if (old_left || new_left) {
            if (c == '\\') {
                p = e ? e + 1 : NULL;
                continue;
            }
            if (c == '-' && old_left)
                old_left--;
            else if (c == '+' && new_left)
                new_left--;
            else if (c == ' ' && old_left && new_left) {
                old_left--;
                new_left--;
            } else {
                old_left = new_left = 0;   /* a malformed hunk ends here */
                continue;
            }
            if (in_file && c != '-') {
                /* A context or added line: where the hunk really is. */
                long want = (long)at + shift;
                size_t got = want >= 1 ? locate_line(starts, n, (size_t)want,
                                                      ll ? p + 1 : p,
                                                      ll ? ll - 1 : 0)
                                       : 0;
                if (got && (!shift_known || c == ' ')) {
                    shift = (long)got - (long)at;
                    shift_known = 1;
                }
                if (c == '+' && got)
                    mark[got] = 1;
            } else if (in_file) {
                /* A removal marks the line that now stands in its place. */
                long l = (long)at + shift;
                if (l >= 1 && (size_t)l <= n)
                    mark[l] = 1;
            }
            if (c != '-')
                at++;
        } else if (ll > 4 && strncmp(p, "+++ ", 4) == 0) {
            char *plus = lt__rt_side_path(p + 4, ll - 4);
            in_file = plus && strcmp(plus, rel) == 0;
            free(plus);
        } else if (ll > 3 && strncmp(p, "@@ -", 4) == 0) {
            /* "@@ -a[,b] +c[,d] @@": a count left out is 1. */
            char *q;
            strtoul(p + 4, &q, 10);
            old_left = *q == ',' ? strtoul(q + 1, &q, 10) : 1;
            while (*q == ' ')
                q++;
            new_left = 0;
            if (*q == '+') {
                at = strtoul(q + 1, &q, 10);
                new_left = *q == ',' ? strtoul(q + 1, &q, 10) : 1;
            }
            shift = 0;
            shift_known = 0;
        }
        p = e ? e + 1 : NULL;
    }
    free(starts);
}
