/* A stored baseline reused (docs/incremental.md): each test's outcome,
 * times and coverage are kept in the store with a digest of the files
 * they depend on, and a later run with the same settings takes them
 * instead of running the test again, while nothing they depend on has
 * changed.  What a test depends on:
 *   - its own file (the node id's file, as for reused verdicts);
 *   - the subject files it executed lines of, whole;
 *   - everything every test depends on, the run's environment: the
 *     interpreter and what is installed where it imports from, pytest's
 *     configuration files, every Python file of the working tree that is
 *     neither a subject nor a test module (conftests, helpers, the rest
 *     of the package), and what importing each subject does (its
 *     module-level code and the functions that ran at import, by
 *     lt_code_import_fingerprint: edits inside other functions leave it
 *     unchanged).
 * A test whose digest or environment differs, a new test, and a test
 * that was flaky or failing run again.  SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/log.h"
#include "common/sha256.h"
#include "common/xmalloc.h"
#include "engine/core/internal.h"
#include "engine/jobs/score/incr.h"
#include "engine/jobs/score/reuse_store.h"
#include "engine/jobs/score/score_internal.h"

/* A working tree bigger than this is not digested: its baseline is not
 * reused (the digest would cost more than it saves). */
#define TREE_MAX_FILES 20000
#define TREE_MAX_BYTES ((size_t)256 << 20)

static void sha_str(struct lt_sha256 *h, const char *s)
{
    lt_sha256_update(h, s, strlen(s) + 1); /* with the NUL: a separator */
}

static void sha_hex(struct lt_sha256 *h, char out[65])
{
    uint8_t d[32];
    lt_sha256_final(h, d);
    for (int i = 0; i < 32; i++)
        snprintf(out + 2 * i, 3, "%02x", d[i]);
}

/* pytest's default test module names: test_*.py and *_test.py. */
static int is_test_module(const char *name)
{
    size_t n = strlen(name);
    return (strncmp(name, "test_", 5) == 0 && n > 8) ||
           (n > 8 && strcmp(name + n - 8, "_test.py") == 0);
}

/* Directories whose Python files no test imports from the working tree:
 * hidden ones (.git, .tox, .venv), caches, venvs, installed packages. */
static int skipped_dir(const char *abs, const char *name)
{
    if (name[0] == '.' || strcmp(name, "__pycache__") == 0 ||
        strcmp(name, "node_modules") == 0 ||
        strcmp(name, "site-packages") == 0 ||
        strcmp(name, "dist-packages") == 0)
        return 1;
    char *cfg = xasprintf("%s/pyvenv.cfg", abs);
    int venv = access(cfg, F_OK) == 0;
    free(cfg);
    return venv;
}

struct tree_walk {
    struct lt_sha256 *h;
    char *const *subjects; /* absolute paths, not digested here */
    size_t n_subjects;
    size_t files, bytes;
    int too_big;
};

/* Digests every Python file under abs (rel: its path from the working
 * directory) that is neither a subject nor a test module, in name
 * order. */
static void walk_tree(struct tree_walk *w, const char *abs, const char *rel)
{
    struct dirent **names = NULL;
    int n = scandir(abs, &names, NULL, alphasort);
    for (int i = 0; i < n; i++) {
        const char *name = names[i]->d_name;
        if (w->too_big || strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
            goto next;
        char *path = xasprintf("%s/%s", abs, name);
        char *sub = *rel ? xasprintf("%s/%s", rel, name) : xstrdup(name);
        struct stat sb;
        if (lstat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
            if (!skipped_dir(path, name))
                walk_tree(w, path, sub);
        } else if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode) &&
                   strlen(name) > 3 &&
                   strcmp(name + strlen(name) - 3, ".py") == 0 &&
                   !is_test_module(name)) {
            int subject = 0;
            for (size_t k = 0; k < w->n_subjects && !subject; k++)
                subject = strcmp(w->subjects[k], path) == 0;
            char *text = NULL;
            size_t len = 0;
            if (!subject && lt_read_file(path, &text, &len) == 0) {
                char sha[65];
                lt_sha256_hex(text, len, sha);
                sha_str(w->h, sub);
                sha_str(w->h, sha);
                w->files++;
                w->bytes += len;
                w->too_big = w->files > TREE_MAX_FILES ||
                             w->bytes > TREE_MAX_BYTES;
            } else if (!subject) {
                sha_str(w->h, sub);
                sha_str(w->h, "unreadable");
            }
            free(text);
        }
        free(sub);
        free(path);
    next:
        free(names[i]);
    }
    free(names);
}

/* The digest of the run's environment (see the head of this file) into
 * r->baseline_env; "" when the tree is too big to digest. */
void lt__baseline_env(struct score_run *r)
{
    const struct lt_plan *plan = &r->plan;
    const struct pool *pool = r->pool;
    struct lt_sha256 h;
    lt_sha256_init(&h);
    sha_str(&h, "litmus baseline environment 1");
    sha_str(&h, r->pyenv.python ? r->pyenv.python : "");
    sha_str(&h, r->pyenv.version ? r->pyenv.version : "");
    sha_str(&h, r->pyenv.packages ? r->pyenv.packages : "");
    sha_str(&h, r->pyenv.path_prefix ? r->pyenv.path_prefix : "");
    static const char *const configs[] = {"pytest.ini", "pyproject.toml",
                                          "tox.ini", "setup.cfg"};
    for (size_t i = 0; i < sizeof(configs) / sizeof(*configs); i++) {
        char *text = NULL;
        size_t len = 0;
        char sha[65] = "-";
        if (lt_read_file(configs[i], &text, &len) == 0)
            lt_sha256_hex(text, len, sha);
        free(text);
        sha_str(&h, configs[i]);
        sha_str(&h, sha);
    }
    char **subjects = xcalloc(plan->n_files + 1, sizeof(char *));
    for (size_t f = 0; f < plan->n_files; f++)
        subjects[f] = plan->files[f].path;
    struct tree_walk w = {&h, subjects, plan->n_files, 0, 0, 0};
    walk_tree(&w, r->cwd ? r->cwd : ".", "");
    free(subjects);
    /* What importing each subject does, from the lines that ran while
     * this run's zygote imported and collected. */
    for (size_t f = 0; f < plan->n_files && !w.too_big; f++) {
        long *lines = xcalloc(pool->n_import + 1, sizeof(long));
        size_t n = 0;
        for (size_t k = 0; k < pool->n_import; k++)
            if (pool->import_pairs[2 * k] == f)
                lines[n++] = (long)pool->import_pairs[2 * k + 1];
        char fp[17] = "";
        if (lt_code_import_fingerprint(plan->files[f].path,
                                       plan->files[f].source,
                                       plan->files[f].len, lines, n,
                                       fp) < 0 || !fp[0])
            w.too_big = 1; /* not known: nothing is reused */
        free(lines);
        sha_str(&h, plan->files[f].path);
        sha_str(&h, fp);
    }
    if (w.too_big) {
        lt_debug("baseline: the working tree is not digested (%zu files, "
                 "%zu bytes, or a subject that does not compile): no test "
                 "is reused", w.files, w.bytes);
        r->baseline_env[0] = '\0';
        return;
    }
    sha_hex(&h, r->baseline_env);
}

/* The digest of what test nodeid depends on besides the environment: its
 * file and the subject files of its coverage text, whole. */
static void test_deps(const struct score_run *r, struct lt_test_files *tf,
                      const char *nodeid, const char *coverage,
                      char out[65])
{
    const struct lt_plan *plan = &r->plan;
    struct lt_sha256 h;
    lt_sha256_init(&h);
    sha_str(&h, lt__test_file_sha(r->o, nodeid, tf));
    for (const char *p = coverage; p && *p;) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        const char *colon = NULL;
        for (const char *q = p; q < p + len; q++)
            if (*q == ':')
                colon = q;
        const char *sha = "-";
        for (size_t f = 0; colon && f < plan->n_files; f++)
            if (strlen(plan->files[f].path) == (size_t)(colon - p) &&
                strncmp(plan->files[f].path, p, (size_t)(colon - p)) == 0)
                sha = plan->files[f].sha;
        lt_sha256_update(&h, p, colon ? (size_t)(colon - p) : len);
        sha_str(&h, "");
        sha_str(&h, sha);
        p += len + (eol ? 1 : 0);
    }
    sha_hex(&h, out);
}

/* Takes a coverage text of the store ("FILE:1-4,9\n" per file) into *b
 * for test; 0, or -1 when it is malformed or names a file or line this
 * plan does not have (the test then runs again). */
static int take_coverage(const struct lt_plan *plan, struct baseline *b,
                         uint32_t test, const char *coverage)
{
    for (const char *p = coverage; p && *p;) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        const char *colon = NULL;
        for (const char *q = p; q < p + len; q++)
            if (*q == ':')
                colon = q;
        if (!colon)
            return -1;
        size_t file = plan->n_files;
        for (size_t f = 0; f < plan->n_files; f++)
            if (strlen(plan->files[f].path) == (size_t)(colon - p) &&
                strncmp(plan->files[f].path, p, (size_t)(colon - p)) == 0)
                file = f;
        if (file == plan->n_files)
            return -1;
        const char *q = colon + 1, *end = p + len;
        while (q < end) {
            char *e;
            errno = 0;
            long from = strtol(q, &e, 10), to = from;
            if (e == q || errno)
                return -1;
            q = e;
            if (q < end && *q == '-') {
                to = strtol(q + 1, &e, 10);
                if (e == q + 1 || errno)
                    return -1;
                q = e;
            }
            if (from < 1 || to < from || (size_t)to > b->n_lines[file])
                return -1;
            for (long l = from; l <= to; l++)
                lt__baseline_cover(b, file, (size_t)l, test);
            if (q < end && *q != ',')
                return -1;
            q += q < end;
        }
        p += len + (eol ? 1 : 0);
    }
    return 0;
}

/* A collected test found by node id. */
struct test_index {
    const char *id;
    uint32_t i;
};

static int cmp_test_index(const void *a, const void *b)
{
    return strcmp(((const struct test_index *)a)->id,
                  ((const struct test_index *)b)->id);
}

struct take {
    struct score_run *r;
    struct test_index *ix;
    size_t n_ix;
    unsigned char *run_it;
    struct lt_test_files tf;
    size_t reused;
};

static int take_one(const struct lt_baseline_deps *d, void *ud)
{
    struct take *t = ud;
    struct score_run *r = t->r;
    struct test_index probe = {d->nodeid, 0};
    struct test_index *hit = bsearch(&probe, t->ix, t->n_ix, sizeof(*t->ix),
                                     cmp_test_index);
    if (!hit || !t->run_it[hit->i])
        return 0;
    int passed = strcmp(d->outcome, "passed") == 0;
    if (!passed && strcmp(d->outcome, "skipped") != 0)
        return 0; /* flaky and failing tests run again */
    char deps[65];
    test_deps(r, &t->tf, d->nodeid, d->coverage, deps);
    if (strcmp(deps, d->deps) != 0)
        return 0;
    struct baseline *b = &r->base;
    uint32_t i = hit->i;
    if (take_coverage(&r->plan, b, i, d->coverage) < 0) {
        /* Lines already taken stay: they only widen selections, and
         * the test runs again anyway, adding its own. */
        return 0;
    }
    b->wall_ms[i] = d->wall_ms;
    b->cpu_ms[i] = d->cpu_ms;
    b->work[i] = d->work;
    b->needs[i] = (unsigned char)(d->needs & (LT_NEEDS_PROCESSES |
                                              LT_NEEDS_NETWORK |
                                              LT_NEEDS_UNTRACED));
    b->runnable[i] = (unsigned char)passed;
    t->run_it[i] = 0;
    t->reused++;
    return 0;
}

size_t lt__baseline_take_stored(struct score_run *r, unsigned char *run_it)
{
    const struct lt_score_opts *o = r->o;
    const struct pool *pool = r->pool;
    if (o->fresh_baseline || o->run.shard_count || !r->db_existed ||
        !r->baseline_env[0])
        return 0;
    char *env = NULL;
    if (lt_store_get_meta(r->st, "baseline_env", &env) < 0 || !env) {
        free(env);
        return 0;
    }
    int same = strcmp(env, r->baseline_env) == 0;
    free(env);
    if (!same) {
        lt_debug("baseline: the environment changed (interpreter, "
                 "packages, configuration, a helper or conftest, or what "
                 "importing a subject does): every test runs");
        return 0;
    }
    struct take t = {.r = r, .run_it = run_it};
    t.ix = xcalloc(pool->n_tests + 1, sizeof(*t.ix));
    for (size_t i = 0; i < pool->n_tests; i++)
        t.ix[i] = (struct test_index){pool->test_ids[i], (uint32_t)i};
    t.n_ix = pool->n_tests;
    qsort(t.ix, t.n_ix, sizeof(*t.ix), cmp_test_index);
    /* Duplicate ids (never from pytest) are not told apart: both run. */
    for (size_t k = 1; k < t.n_ix; k++)
        if (strcmp(t.ix[k].id, t.ix[k - 1].id) == 0) {
            run_it[t.ix[k].i] = 2;
            run_it[t.ix[k - 1].i] = 2;
        }
    int rc = lt_store_each_baseline_deps(r->st, take_one, &t);
    for (size_t i = 0; i < pool->n_tests; i++)
        run_it[i] = run_it[i] != 0;
    lt__test_files_free(&t.tf);
    free(t.ix);
    if (rc < 0) {
        /* Unreadable: run what was not taken; the store's next write
         * says whether it is broken. */
        lt_debug("baseline: the stored baseline cannot be read: %s",
                 lt_strerror(rc));
    }
    return t.reused;
}

int lt__baseline_store(struct score_run *r)
{
    const struct pool *pool = r->pool;
    const struct baseline *b = &r->base;
    struct lt_test_files tf = {0};
    int rc = lt_store_begin(r->st);
    struct lt_test_record *recs = xcalloc(pool->n_tests, sizeof(*recs));
    char **cov = xcalloc(pool->n_tests + 1, sizeof(char *));
    for (size_t i = 0; i < pool->n_tests; i++) {
        cov[i] = lt__baseline_coverage_text(b, &r->plan, (uint32_t)i);
        recs[i] = (struct lt_test_record){
            (int)i, pool->test_ids[i], b->wall_ms[i],
            b->flaky[i] ? "flaky"
            : b->failing[i] ? "failing"
            : b->runnable[i] ? "passed" : "skipped",
            cov[i]};
    }
    if (rc == 0)
        rc = lt_store_put_tests(r->st, recs, pool->n_tests);
    if (rc == 0)
        rc = lt_store_clear_baseline_deps(r->st);
    for (size_t i = 0; rc == 0 && r->baseline_env[0] && i < pool->n_tests;
         i++) {
        char deps[65];
        test_deps(r, &tf, pool->test_ids[i], cov[i], deps);
        struct lt_baseline_deps d = {
            .nodeid = pool->test_ids[i], .cpu_ms = b->cpu_ms[i],
            .work = b->work[i], .needs = b->needs[i], .deps = deps};
        rc = lt_store_put_baseline_deps(r->st, &d);
    }
    if (rc == 0)
        rc = lt_store_set_meta(r->st, "baseline_env", r->baseline_env);
    char feat[32];
    snprintf(feat, sizeof(feat), "%u", pool->features);
    if (rc == 0)
        rc = lt_store_set_meta(r->st, "sandbox_features", feat);
    if (rc == 0)
        rc = lt_store_set_meta(r->st, "sandbox_view",
                               pool->view ? pool->view
                               : pool->view_missing ? pool->view_missing
                               : "");
    if (rc == 0)
        rc = lt_store_commit(r->st);
    for (size_t i = 0; i < pool->n_tests; i++)
        free(cov[i]);
    free(cov);
    free(recs);
    lt__test_files_free(&tf);
    return rc;
}
