/* What decides the mutants of a partial run: exclusions from
 * [tool.litmus], the lines changed since a git revision (--since, git run
 * as a subprocess of the engine), and the keys under which an earlier
 * run's verdicts are found again in a changed tree (docs/incremental.md).
 * SPDX-License-Identifier: MIT */
#include "engine/jobs/score/incr.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/buf.h"
#include "common/run.h"
#include "common/err.h"
#include "common/log.h"
#include "common/sha256.h"
#include "common/xmalloc.h"

/*** Exclusions ***/

/* 1 when rel (a path relative to the working directory) matches one of
 * the globs.  fnmatch() without FNM_PATHNAME: '*' also matches '/', so a
 * directory's glob takes the whole tree below it. */
int lt__path_excluded(const char *rel, char *const *globs, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (fnmatch(globs[i], rel, 0) == 0)
            return 1;
    return 0;
}

/* 1 when operator op is switched off in file rel by one of the entries
 * "OP" (everywhere) or "OP:GLOB" (in files matching GLOB). */
int lt__op_excluded(const char *op, const char *rel, char *const *ex,
                    size_t n)
{
    size_t ol = strlen(op);
    for (size_t i = 0; i < n; i++) {
        const char *e = ex[i];
        size_t el = strcspn(e, ":");
        if (el != ol || strncmp(e, op, ol) != 0)
            continue;
        if (e[el] == '\0' || fnmatch(e + el + 1, rel, 0) == 0)
            return 1;
    }
    return 0;
}

/*** git ***/

/* Runs git with argv (argv[0] is "git") in the working directory and
 * collects its standard output in *out (caller frees) and the first line
 * of its standard error in *err (caller frees; may be empty).  Returns
 * git's exit status (0..255), or a negative code when it could not run. */
static int run_git(char *const argv[], char **out, char **err)
{
    int rc = lt_run_capture(argv, NULL, NULL, (size_t)1 << 30, out, err);
    if (rc >= 0 && *err)
        (*err)[strcspn(*err, "\n")] = '\0';
    return rc > 128 ? 128 : rc;
}

static void lines_add(struct lt_lines *l, long from, long to)
{
    if (to < from)
        return;
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 8;
        l->from = xrealloc(l->from, l->cap * sizeof(long));
        l->to = xrealloc(l->to, l->cap * sizeof(long));
    }
    l->from[l->n] = from;
    l->to[l->n] = to;
    l->n++;
}

/* 1 when one of the lines first..last is changed. */
int lt__changed_touch(const struct lt_lines *l, long first, long last)
{
    if (l->whole)
        return 1;
    for (size_t i = 0; i < l->n; i++)
        if (l->from[i] <= last && first <= l->to[i])
            return 1;
    return 0;
}

void lt__changed_free(struct lt_lines *l, size_t n)
{
    for (size_t i = 0; l && i < n; i++) {
        free(l[i].from);
        free(l[i].to);
    }
    free(l);
}

/* Index of the plan file whose absolute path is top/rel, or -1. */
static long find_file(char *const *paths, size_t n, const char *top,
                      const char *rel, size_t rel_len)
{
    size_t tl = strlen(top);
    for (size_t i = 0; i < n; i++) {
        const char *p = paths[i];
        if (strncmp(p, top, tl) == 0 && p[tl] == '/' &&
            strlen(p + tl + 1) == rel_len &&
            strncmp(p + tl + 1, rel, rel_len) == 0)
            return (long)i;
    }
    return -1;
}

/* Contract: see incr.h. */
int lt__since_lines(const char *rev, char *const *paths, size_t n,
                    struct lt_lines **out)
{
    char *o = NULL, *e = NULL, *top = NULL;
    char **argv = NULL;
    struct lt_lines *lines = xcalloc(n + 1, sizeof(*lines));
    int rc = LT_EUSAGE;

    char *const is_wt[] = {"git", "rev-parse", "--show-toplevel", NULL};
    int st = run_git(is_wt, &o, &e);
    if (st != 0) {
        lt_error("--since: the working directory is not in a git checkout"
                 "%s%s", st > 0 && e && *e ? ": " : "",
                 st > 0 && e ? e : (st < 0 ? lt_strerror(st) : ""));
        goto out;
    }
    o[strcspn(o, "\n")] = '\0';
    /* The subject paths are real paths: compare against the real top. */
    top = realpath(o, NULL);
    if (!top) {
        lt_error("--since: %s: %s", o, strerror(errno));
        goto out;
    }
    free(o);
    free(e);
    o = e = NULL;

    char *commit = xasprintf("%s^{commit}", rev);
    char *const verify[] = {"git", "rev-parse", "--verify", "--quiet",
                            "--end-of-options", commit, NULL};
    st = run_git(verify, &o, &e);
    free(commit);
    if (st != 0) {
        lt_error("--since: unknown git revision '%s'", rev);
        goto out;
    }
    free(o);
    free(e);
    o = e = NULL;

    /* git diff REV -- FILES: the changed lines of every tracked subject
     * file, numbered in the working tree's version.  Renames count as a
     * new file, wholly changed. */
    argv = xcalloc(n + 12, sizeof(char *));
    size_t a = 0;
    argv[a++] = "git";
    argv[a++] = "-c";
    argv[a++] = "core.quotePath=false";
    argv[a++] = "diff";
    argv[a++] = "--unified=0";
    argv[a++] = "--no-color";
    argv[a++] = "--no-ext-diff";
    argv[a++] = "--no-renames";
    argv[a++] = (char *)rev;
    argv[a++] = "--";
    for (size_t i = 0; i < n; i++)
        argv[a++] = paths[i];
    st = run_git(argv, &o, &e);
    if (st != 0) {
        lt_error("--since: git diff %s failed%s%s", rev,
                 st > 0 && e && *e ? ": " : "", st > 0 && e ? e : "");
        goto out;
    }
    long cur = -1;
    for (char *line = o; *line;) {
        char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        if (len > 6 && strncmp(line, "+++ b/", 6) == 0) {
            cur = find_file(paths, n, top, line + 6, len - 6);
        } else if (len > 4 && strncmp(line, "+++ ", 4) == 0) {
            cur = -1; /* /dev/null: the file was deleted */
        } else if (cur >= 0 && len > 3 && strncmp(line, "@@ ", 3) == 0) {
            /* "@@ -a[,b] +c[,d] @@": lines c..c+d-1 are new.  A pure
             * deletion (d = 0) marks the lines on both sides of it. */
            char *plus = memchr(line, '+', len);
            if (plus) {
                char *end;
                long c = strtol(plus + 1, &end, 10);
                long d = 1;
                if (*end == ',')
                    d = strtol(end + 1, NULL, 10);
                if (d > 0)
                    lines_add(&lines[cur], c, c + d - 1);
                else
                    lines_add(&lines[cur], c, c + 1);
            }
        }
        line = nl ? nl + 1 : line + len;
    }
    free(o);
    free(e);
    o = e = NULL;

    /* Files git does not know count as wholly changed. */
    argv[3] = "ls-files";
    argv[4] = "--others";
    argv[5] = "--full-name";
    argv[6] = "--";
    for (size_t i = 0; i < n; i++)
        argv[7 + i] = paths[i];
    argv[7 + n] = NULL;
    st = run_git(argv, &o, &e);
    if (st != 0) {
        lt_error("--since: git ls-files failed%s%s",
                 st > 0 && e && *e ? ": " : "", st > 0 && e ? e : "");
        goto out;
    }
    for (char *line = o; *line;) {
        char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        long f = find_file(paths, n, top, line, len);
        if (f >= 0)
            lines[f].whole = 1;
        line = nl ? nl + 1 : line + len;
    }
    *out = lines;
    lines = NULL;
    rc = 0;
out:
    lt__changed_free(lines, n);
    free(argv);
    free(top);
    free(o);
    free(e);
    return rc;
}

/*** Reuse keys ***/

/* Hashes src[from:to] and a NUL. */
static void add_span(struct lt_sha256 *h, const char *src, size_t from,
                     size_t to)
{
    if (to > from)
        lt_sha256_update(h, src + from, to - from);
    lt_sha256_update(h, "", 1);
}

static void hex(const uint8_t d[32], char out[65])
{
    static const char digits[] = "0123456789abcdef";
    for (int i = 0; i < 32; i++) {
        out[2 * i] = digits[d[i] >> 4];
        out[2 * i + 1] = digits[d[i] & 15];
    }
    out[64] = '\0';
}

/* Contract: see incr.h. */
void lt__reuse_key(const struct lt_mutant *m, const char *rel,
                   const char *src, size_t len, unsigned occurrence,
                   char out[65])
{
    struct lt_sha256 h;
    uint8_t d[32];
    char num[64];
    lt_sha256_init(&h);
    lt_sha256_update(&h, rel, strlen(rel) + 1);
    lt_sha256_update(&h, m->op, strlen(m->op) + 1);
    lt_sha256_update(&h, m->original, strlen(m->original) + 1);
    lt_sha256_update(&h, m->replacement, strlen(m->replacement) + 1);
    int k = snprintf(num, sizeof(num), "%d %d %d %u", m->col,
                     m->end_line - m->line, m->end_col, occurrence);
    lt_sha256_update(&h, num, (size_t)k + 1);
    /* The mutated lines and one line of context on either side, found
     * from the mutant's byte span (no scan from the top of the file). */
    size_t s0 = m->start < len ? m->start : len, e0 = m->end;
    if (e0 > len)
        e0 = len;
    while (s0 > 0 && src[s0 - 1] != '\n')
        s0--;
    while (e0 < len && src[e0] != '\n')
        e0++;
    size_t ps = s0, pe = s0;
    if (s0 > 0) {
        pe = s0 - 1;
        ps = pe;
        while (ps > 0 && src[ps - 1] != '\n')
            ps--;
    }
    size_t ns = e0 < len ? e0 + 1 : len, ne = ns;
    while (ne < len && src[ne] != '\n')
        ne++;
    add_span(&h, src, ps, pe);
    add_span(&h, src, s0, e0);
    add_span(&h, src, ns, ne);
    lt_sha256_final(&h, d);
    hex(d, out);
}

/* Contract: see incr.h. */
void lt__tests_sig(char *const *nodeids, const char *const *file_sha,
                   size_t n, char out[65])
{
    struct lt_sha256 h;
    uint8_t d[32];
    lt_sha256_init(&h);
    for (size_t i = 0; i < n; i++) {
        lt_sha256_update(&h, nodeids[i], strlen(nodeids[i]) + 1);
        lt_sha256_update(&h, file_sha[i], strlen(file_sha[i]) + 1);
    }
    lt_sha256_final(&h, d);
    hex(d, out);
}

/*** Test files ***/

/* The file of a unittest or doctest dotted name (module.Class.test):
 * the longest leading part that is a module under the working directory
 * or a test directory given, or the name itself. */
static char *dotted_test_file(const struct lt_score_opts *o, const char *key)
{
    size_t nb = o->n_tests + o->n_pytest_args;
    for (size_t len = strlen(key); len > 0; len--) {
        if (len < strlen(key) && key[len] != '.')
            continue;
        char *mod = xstrndup(key, len);
        for (char *p = mod; *p; p++)
            if (*p == '.')
                *p = '/';
        for (size_t b = 0; b <= nb; b++) {
            const char *base = b == 0 ? "."
                               : b <= o->n_tests ? o->tests[b - 1]
                                                 : o->pytest_args[b - 1 -
                                                                  o->n_tests];
            struct stat sb;
            if (b > 0 && (stat(base, &sb) < 0 || !S_ISDIR(sb.st_mode)))
                continue;
            for (int init = 0; init < 2; init++) {
                char *path = xasprintf("%s/%s%s", base, mod,
                                       init ? "/__init__.py" : ".py");
                if (access(path, R_OK) == 0) {
                    free(mod);
                    return path;
                }
                free(path);
            }
        }
        free(mod);
    }
    return xstrdup(key);
}

const char *lt__test_file_sha(const struct lt_score_opts *o,
                              const char *nodeid, struct lt_test_files *c)
{
    struct file_hash **cache = &c->v;
    size_t *n = &c->n;
    size_t len = strcspn(nodeid, ":");
    /* A dotted name of three parts or more (module.Class.test) shares its
     * file with the names of its class: the key drops the last part. */
    int dotted = nodeid[len] == '\0' && !strchr(nodeid, '/');
    const char *last = dotted ? strrchr(nodeid, '.') : NULL;
    if (last && memchr(nodeid, '.', (size_t)(last - nodeid)))
        len = (size_t)(last - nodeid);
    for (size_t i = 0; i < *n; i++)
        if (strlen((*cache)[i].path) == len &&
            strncmp((*cache)[i].path, nodeid, len) == 0)
            return (*cache)[i].sha;
    *cache = xrealloc(*cache, (*n + 1) * sizeof(**cache));
    struct file_hash *h = &(*cache)[(*n)++];
    h->path = xstrndup(nodeid, len);
    char *file = dotted ? dotted_test_file(o, h->path) : xstrdup(h->path);
    char *src = NULL;
    size_t sl = 0;
    h->sha = xcalloc(65, 1);
    if (lt_read_file(file, &src, &sl) == 0)
        lt_sha256_hex(src, sl, h->sha);
    else
        strcpy(h->sha, "-");
    free(src);
    free(file);
    return h->sha;
}

void lt__test_files_free(struct lt_test_files *c)
{
    for (size_t k = 0; k < c->n; k++) {
        free(c->v[k].path);
        free(c->v[k].sha);
    }
    free(c->v);
    memset(c, 0, sizeof(*c));
}
