/* The plan of `litmus score`: the subject files found under the paths,
 * read and checked, their mutants, and the share of them a shard owns.
 * SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <sys/stat.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/log.h"
#include "common/pyload.h"
#include "common/sha256.h"
#include "common/xmalloc.h"
#include "engine/jobs/score/incr.h"
#include "engine/jobs/score/score_internal.h"

/*** Planning: subject files ***/

static int is_test_file(const char *name)
{
    size_t n = strlen(name);
    return strncmp(name, "test_", 5) == 0 || strcmp(name, "conftest.py") == 0 ||
           (n > 8 && strcmp(name + n - 8, "_test.py") == 0);
}

static int add_tree(const char *path, char ***files, size_t *n, size_t *cap)
{
    struct stat st;
    if (stat(path, &st) < 0)
        return -errno;
    if (S_ISREG(st.st_mode)) {
        char *real = realpath(path, NULL);
        if (!real)
            return -errno;
        if (*n == *cap) {
            *cap = *cap ? *cap * 2 : 16;
            *files = xrealloc(*files, *cap * sizeof(char *));
        }
        (*files)[(*n)++] = real;
        return 0;
    }
    if (!S_ISDIR(st.st_mode))
        return -EINVAL;
    struct dirent **ents = NULL;
    int cnt = scandir(path, &ents, NULL, alphasort);
    if (cnt < 0)
        return -errno;
    int rc = 0;
    for (int i = 0; i < cnt; i++) {
        const char *name = ents[i]->d_name;
        if (rc == 0 && name[0] != '.' && strcmp(name, "__pycache__") != 0) {
            char *child = xasprintf("%s/%s", path, name);
            struct stat cs;
            if (lstat(child, &cs) == 0) {
                size_t len = strlen(name);
                if (S_ISDIR(cs.st_mode))
                    rc = add_tree(child, files, n, cap);
                else if (S_ISREG(cs.st_mode) && len > 3 &&
                         strcmp(name + len - 3, ".py") == 0 &&
                         !is_test_file(name))
                    rc = add_tree(child, files, n, cap);
            }
            free(child);
        }
        free(ents[i]);
    }
    free(ents);
    return rc;
}

int lt__cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Strict UTF-8 check; returns the 1-based line of the first bad byte or 0
 * when the text is valid. */
static int bad_utf8_line(const unsigned char *s, size_t n)
{
    int line = 1;
    size_t i = 0;
    while (i < n) {
        unsigned char c = s[i];
        if (c == '\n')
            line++;
        if (c < 0x80) {
            i++;
            continue;
        }
        int need;
        unsigned cp;
        if ((c & 0xE0) == 0xC0) {
            need = 1;
            cp = c & 0x1F;
        } else if ((c & 0xF0) == 0xE0) {
            need = 2;
            cp = c & 0x0F;
        } else if ((c & 0xF8) == 0xF0) {
            need = 3;
            cp = c & 0x07;
        } else {
            return line;
        }
        for (int k = 1; k <= need; k++) {
            if (i + (size_t)k >= n || (s[i + k] & 0xC0) != 0x80)
                return line;
            cp = (cp << 6) | (s[i + k] & 0x3F);
        }
        if ((need == 1 && cp < 0x80) || (need == 2 && cp < 0x800) ||
            (need == 3 && (cp < 0x10000 || cp > 0x10FFFF)) ||
            (cp >= 0xD800 && cp <= 0xDFFF))
            return line;
        i += (size_t)need + 1;
    }
    return 0;
}


void lt__plan_free(struct lt_plan *p)
{
    for (size_t i = 0; i < p->n_files; i++) {
        free(p->files[i].path);
        free(p->files[i].source);
    }
    free(p->files);
    lt_mutant_list_free(&p->mutants);
    free(p->mutant_file);
    memset(p, 0, sizeof(*p));
}

/* Finds, reads and checks every subject file (UTF-8, fingerprint); the
 * mutants come later, from lt__plan_mutants().  Errors are input errors
 * (exit 2) with a one-line message already printed. */
int lt__plan_files(const struct lt_score_opts *o, struct lt_plan *plan)
{
    char **files = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    for (size_t i = 0; i < o->n_paths; i++) {
        rc = add_tree(o->paths[i], &files, &n, &cap);
        if (rc < 0) {
            lt_error("%s: %s", o->paths[i], lt_strerror(rc));
            goto out;
        }
    }
    if (n == 0) {
        lt_error("no Python source files found in the given paths");
        rc = LT_EUSAGE;
        goto out;
    }
    qsort(files, n, sizeof(char *), lt__cmp_str);
    /* Drop duplicates (a file named twice, or inside a named dir). */
    size_t u = 0;
    for (size_t i = 0; i < n; i++) {
        if (u > 0 && strcmp(files[u - 1], files[i]) == 0)
            free(files[i]);
        else
            files[u++] = files[i];
    }
    n = u;
    /* [tool.litmus] exclude: globs over the path relative to the working
     * directory. */
    if (o->n_exclude) {
        char *cwd = getcwd(NULL, 0);
        size_t cl = cwd ? strlen(cwd) : 0;
        u = 0;
        for (size_t i = 0; i < n; i++) {
            const char *rel = files[i];
            if (cl && strncmp(rel, cwd, cl) == 0 && rel[cl] == '/')
                rel += cl + 1;
            if (lt__path_excluded(rel, o->exclude, o->n_exclude))
                free(files[i]);
            else
                files[u++] = files[i];
        }
        n = u;
        free(cwd);
        if (n == 0) {
            lt_error("every Python source file is excluded by "
                     "[tool.litmus] exclude");
            rc = LT_EUSAGE;
            goto out;
        }
    }

    plan->files = xcalloc(n, sizeof(*plan->files));
    for (size_t i = 0; i < n; i++) {
        struct lt_plan_file *f = &plan->files[plan->n_files++];
        f->path = files[i];
        files[i] = NULL;
        rc = lt_read_file(f->path, &f->source, &f->len);
        if (rc < 0) {
            lt_error("%s: %s", f->path, lt_strerror(rc));
            goto out;
        }
        int bad = bad_utf8_line((const unsigned char *)f->source, f->len);
        if (bad) {
            lt_error("%s:%d: not UTF-8 text; litmus reads Python source "
                     "as UTF-8", f->path, bad);
            rc = LT_EPARSE;
            goto out;
        }
        lt_sha256_hex(f->source, f->len, f->sha);
    }
out:
    for (size_t i = 0; i < n; i++)
        free(files[i]);
    free(files);
    return rc;
}

/* Generates the mutants of every file of the plan, in file order.  0 or a
 * negative code after printing why. */
int lt__plan_mutants(const struct lt_score_opts *o, struct lt_plan *plan,
                     const struct lt_lines *since)
{
    int rc = lt_operators_init();
    if (rc < 0) {
        lt_error("cannot start the embedded Python for the operators");
        return rc;
    }
    char *cwd = getcwd(NULL, 0);
    for (size_t i = 0; i < plan->n_files; i++) {
        struct lt_plan_file *f = &plan->files[i];
        struct lt_mutant_list ml = {0};
        char *msg = NULL;
        /* Ids hash the path relative to the working directory, so they
         * stay the same when the project is checked out elsewhere; the
         * store keeps the absolute path. */
        const char *rel = f->path;
        size_t cl = cwd ? strlen(cwd) : 0;
        if (cl && strncmp(f->path, cwd, cl) == 0 && f->path[cl] == '/')
            rel = f->path + cl + 1;
        rc = lt_operators_generate(rel, f->source, f->len, o->operators,
                                   &ml, &msg);
        if (rc < 0) {
            /* A syntax error may be a newer Python's syntax: say whose
             * parser refused it. */
            lt_error("%s (parsed by the Python of %s, which runs the "
                     "tests; --python names another)",
                     msg ? msg : lt_strerror(rc), lt_python_exe());
            free(msg);
            goto out;
        }
        free(msg);
        /* Excluded operators and, with --since, unchanged lines: those
         * mutants are not generated at all. */
        size_t kept = 0;
        for (size_t k = 0; k < ml.count; k++) {
            struct lt_mutant *m = &ml.items[k];
            if (lt__op_excluded(m->op, rel, o->exclude_ops,
                                o->n_exclude_ops) ||
                (since && !lt__changed_touch(&since[i], m->line,
                                           m->end_line)))
                lt_mutant_clear(m);
            else
                ml.items[kept++] = *m;
        }
        ml.count = kept;
        size_t base = plan->mutants.count;
        plan->mutants.items = xrealloc(plan->mutants.items,
                                       (base + ml.count) *
                                           sizeof(struct lt_mutant));
        plan->mutant_file = xrealloc(plan->mutant_file,
                                     (base + ml.count + 1) * sizeof(size_t));
        for (size_t k = 0; k < ml.count; k++) {
            if (rel != f->path) {
                free(ml.items[k].file);
                ml.items[k].file = xstrdup(f->path);
            }
            plan->mutants.items[base + k] = ml.items[k];
            plan->mutant_file[base + k] = i;
        }
        plan->mutants.count += ml.count;
        free(ml.items);
    }
out:
    free(cwd);
    return rc;
}

/*** Shards ***/

struct unit {
    const char *id;
    size_t mutant;
    int runs; /* 1: goes to a runner; 0: decided without a run */
};

static int cmp_unit(const void *a, const void *b)
{
    const struct unit *x = a, *y = b;
    if (x->runs != y->runs)
        return x->runs ? -1 : 1;
    return strcmp(x->id, y->id);
}

/* Which mutants shard index/count owns (owned[i] = 1), from the plan
 * alone, so that every shard computes the same partition with no
 * coordination.  The unit of work is a representative mutant with its
 * duplicates (they share its run and verdict, so they must share its
 * shard).  The units that run go round-robin in the order of their ids,
 * then those decided without a run (equivalent, invalid) continue the
 * round: ids are hashes, so this is a fixed pseudo-random deal whose
 * shards differ by at most one run.  Per-mutant costs (the covering
 * tests) are only known after the baseline, which every shard runs for
 * itself, so the deal balances counts, not seconds (docs/scale.md).
 * Returns the number of mutants owned. */
size_t lt__plan_shard_owned(const struct lt_plan *plan, const struct mplan *mp,
                            unsigned index, unsigned count,
                            unsigned char *owned)
{
    size_t nm = plan->mutants.count, nu = 0, n_owned = 0;
    struct unit *u = xcalloc(nm + 1, sizeof(*u));
    for (size_t i = 0; i < nm; i++)
        if (mp[i].dup_of < 0)
            u[nu++] = (struct unit){plan->mutants.items[i].id, i,
                                    mp[i].a.status == LT_CHANGE_OK};
    qsort(u, nu, sizeof(*u), cmp_unit);
    for (size_t k = 0; k < nu; k++)
        owned[u[k].mutant] = count == 0 || k % count == index;
    for (size_t i = 0; i < nm; i++) {
        if (mp[i].dup_of >= 0)
            owned[i] = owned[mp[i].dup_of];
        n_owned += owned[i];
    }
    free(u);
    return n_owned;
}

