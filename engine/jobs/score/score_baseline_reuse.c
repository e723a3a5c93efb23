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

/*** The stored baseline, loaded once ***/

struct stored_test {
    char *nodeid, *outcome, *coverage, *deps;
    double wall_ms, cpu_ms, work;
    unsigned needs;
};

struct stored_baseline {
    struct stored_test *t;
    size_t n, cap;
    char *env;                 /* meta baseline_env */
    char **funcs;              /* per plan file: its functions that ran at
                                  import, one a line (meta baseline_funcs) */
};

static int load_one(const struct lt_baseline_deps *d, void *ud)
{
    struct stored_baseline *sb = ud;
    if (sb->n == sb->cap) {
        sb->cap = sb->cap ? 2 * sb->cap : 64;
        sb->t = xrealloc(sb->t, sb->cap * sizeof(*sb->t));
    }
    sb->t[sb->n++] = (struct stored_test){
        xstrdup(d->nodeid), xstrdup(d->outcome),
        d->coverage ? xstrdup(d->coverage) : NULL, xstrdup(d->deps),
        d->wall_ms, d->cpu_ms, d->work, d->needs};
    return 0;
}

/* meta baseline_funcs: per subject, its path on a line, the names one a
 * line, then an empty line. */
static void parse_funcs(struct stored_baseline *sb, const struct lt_plan *plan,
                        const char *text)
{
    sb->funcs = xcalloc(plan->n_files + 1, sizeof(char *));
    for (const char *p = text; p && *p;) {
        const char *eol = strchr(p, '\n');
        if (!eol)
            break;
        size_t f = plan->n_files;
        for (size_t k = 0; k < plan->n_files; k++)
            if (strlen(plan->files[k].path) == (size_t)(eol - p) &&
                strncmp(plan->files[k].path, p, (size_t)(eol - p)) == 0)
                f = k;
        const char *names = eol + 1, *end = strstr(names, "\n\n");
        if (!end && *names == '\n')
            end = names - 1; /* no names: the blank line follows at once */
        if (!end)
            break;
        if (f < plan->n_files && !sb->funcs[f])
            sb->funcs[f] = end >= names ? xstrndup(names,
                                                   (size_t)(end - names))
                                        : xstrdup("");
        p = end + 2;
    }
}

void lt__baseline_load(struct score_run *r)
{
    const struct lt_score_opts *o = r->o;
    if (r->stored || o->fresh_baseline || o->run.shard_count ||
        !r->db_existed || !r->st)
        return;
    struct stored_baseline *sb = xcalloc(1, sizeof(*sb));
    r->stored = sb;
    char *funcs = NULL;
    if (lt_store_get_meta(r->st, "baseline_env", &sb->env) < 0 ||
        lt_store_get_meta(r->st, "baseline_funcs", &funcs) < 0 ||
        !sb->env || !funcs) {
        free(funcs);
        free(sb->env);
        sb->env = NULL;
        return;
    }
    parse_funcs(sb, &r->plan, funcs);
    free(funcs);
    int rc = lt_store_each_baseline_deps(r->st, load_one, sb);
    if (rc < 0) {
        lt_debug("baseline: the stored baseline cannot be read: %s",
                 lt_strerror(rc));
        free(sb->env);
        sb->env = NULL;
    }
}

void lt__baseline_unload(struct score_run *r)
{
    struct stored_baseline *sb = r->stored;
    if (!sb)
        return;
    for (size_t i = 0; i < sb->n; i++) {
        free(sb->t[i].nodeid);
        free(sb->t[i].outcome);
        free(sb->t[i].coverage);
        free(sb->t[i].deps);
    }
    free(sb->t);
    for (size_t f = 0; sb->funcs && f < r->plan.n_files; f++)
        free(sb->funcs[f]);
    free(sb->funcs);
    free(sb->env);
    free(sb);
    r->stored = NULL;
    for (size_t f = 0; r->imports && f < r->plan.n_files; f++)
        lt_import_digest_clear(&r->imports[f]);
    free(r->imports);
    r->imports = NULL;
}

/*** The environment ***/

/* The digest of the run's environment (see the head of this file) into
 * r->baseline_env, and what importing each subject does into r->imports;
 * "" when it cannot be known.  traced: from the lines this run's zygote
 * traced at import (after collection), else from the functions the
 * stored baseline names alone (before it). */
static void baseline_env(struct score_run *r, int traced)
{
    const struct lt_plan *plan = &r->plan;
    const struct lt_suite *suite = r->suite;
    const struct stored_baseline *sb = r->stored;
    struct lt_sha256 h;
    lt_sha256_init(&h);
    /* 3: a test's work past 65536 line events counts the lines of the
     * frames traced then (zygote_trace.c), no longer every line: stored
     * works of the two kinds must not order one run's tests together. */
    sha_str(&h, "litmus baseline environment 3");
    /* The runner litmus chose when pytest could not collect a unittest
     * suite: its tests are other tests (the settings name only the
     * runner asked for). */
    if (r->runner != r->o->runner)
        sha_str(&h, r->runner == LT_TEST_RUNNER_UNITTEST ? "runner unittest"
                                                        : "runner other");
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
    /* What importing each subject does: the functions that ran at import
     * (this run's, and the stored baseline's, which a narrower
     * collection may not run), the module's digest with the others by
     * name. */
    for (size_t f = 0; r->imports && f < plan->n_files; f++)
        lt_import_digest_clear(&r->imports[f]);
    free(r->imports);
    r->imports = xcalloc(plan->n_files + 1, sizeof(*r->imports));
    for (size_t f = 0; f < plan->n_files && !w.too_big; f++) {
        long *lines = NULL;
        size_t n = 0;
        if (traced) {
            lines = xcalloc(suite->n_import + 1, sizeof(long));
            for (size_t k = 0; k < suite->n_import; k++)
                if (suite->import_pairs[2 * k] == f)
                    lines[n++] = (long)suite->import_pairs[2 * k + 1];
        }
        const char *funcs = sb && sb->funcs ? sb->funcs[f] : NULL;
        struct lt_import_digest *d = &r->imports[f];
        if (lt_code_import_digest(plan->files[f].path, plan->files[f].source,
                                  plan->files[f].len, lines, n, funcs,
                                  d) < 0 || !d->digest[0])
            w.too_big = 1; /* not known: nothing is reused */
        free(lines);
        sha_str(&h, plan->files[f].path);
        sha_str(&h, d->digest);
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

void lt__baseline_env(struct score_run *r)
{
    /* A narrowed collection keeps the environment it was chosen by. */
    if (!r->narrowed)
        baseline_env(r, 1);
}

/*** Coverage texts of the store: "FILE:1-4,9\n" per subject file ***/

/* One line of a coverage text: the file's path and its ranges. */
struct cov_entry {
    const char *path, *ranges, *end;
    size_t path_len;             /* 0: the line has no ':' */
};

/* Reads the line at *p into *e and moves *p past it; 0 at the end. */
static int next_entry(const char **p, struct cov_entry *e)
{
    if (!*p || !**p)
        return 0;
    const char *eol = strchr(*p, '\n');
    size_t len = eol ? (size_t)(eol - *p) : strlen(*p);
    const char *colon = NULL;
    for (const char *q = *p; q < *p + len; q++)
        if (*q == ':')
            colon = q;
    *e = (struct cov_entry){*p, colon ? colon + 1 : *p + len, *p + len,
                            colon ? (size_t)(colon - *p) : 0};
    *p += len + (eol ? 1 : 0);
    return 1;
}

/* The plan's index of the entry's file, or plan->n_files. */
static size_t entry_file(const struct lt_plan *plan, const struct cov_entry *e)
{
    for (size_t f = 0; e->path_len && f < plan->n_files; f++)
        if (strlen(plan->files[f].path) == e->path_len &&
            strncmp(plan->files[f].path, e->path, e->path_len) == 0)
            return f;
    return plan->n_files;
}

/* Reads the next range "A" or "A-B" of *q (before end) into [*from,
 * *to]; 1, 0 at the end, -1 when malformed. */
static int next_range(const char **q, const char *end, long *from, long *to)
{
    if (*q >= end)
        return 0;
    char *e;
    errno = 0;
    *from = *to = strtol(*q, &e, 10);
    if (e == *q || errno)
        return -1;
    *q = e;
    if (*q < end && **q == '-') {
        *to = strtol(*q + 1, &e, 10);
        if (e == *q + 1 || errno)
            return -1;
        *q = e;
    }
    if (*q < end && **q != ',')
        return -1;
    *q += *q < end;
    return *from >= 1 && *to >= *from ? 1 : -1;
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
    struct cov_entry e;
    for (const char *p = coverage; next_entry(&p, &e);) {
        size_t f = entry_file(plan, &e);
        lt_sha256_update(&h, e.path,
                         e.path_len ? e.path_len : (size_t)(e.end - e.path));
        sha_str(&h, "");
        sha_str(&h, f < plan->n_files ? plan->files[f].sha : "-");
    }
    sha_hex(&h, out);
}

/* Takes a coverage text of the store into *b for test; 0, or -1 when it
 * is malformed or names a file or line this plan does not have (the test
 * then runs again). */
static int take_coverage(const struct lt_plan *plan, struct baseline *b,
                         uint32_t test, const char *coverage)
{
    struct cov_entry e;
    for (const char *p = coverage; next_entry(&p, &e);) {
        size_t file = entry_file(plan, &e);
        if (file == plan->n_files)
            return -1;
        long from, to;
        int rc;
        for (const char *q = e.ranges; (rc = next_range(&q, e.end, &from,
                                                        &to)) > 0;) {
            if ((size_t)to > b->n_lines[file])
                return -1;
            for (long l = from; l <= to; l++)
                lt__baseline_cover(b, file, (size_t)l, test);
        }
        if (rc < 0)
            return -1;
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

/* 1 when stored test t can be taken as it is: it passed or was skipped,
 * and nothing it depends on changed. */
static int still_holds(const struct score_run *r, struct lt_test_files *tf,
                       const struct stored_test *t)
{
    if (strcmp(t->outcome, "passed") != 0 &&
        strcmp(t->outcome, "skipped") != 0)
        return 0; /* flaky and failing tests run again */
    char deps[65];
    test_deps(r, tf, t->nodeid, t->coverage, deps);
    return strcmp(deps, t->deps) == 0;
}

/* The stored baseline applies: loaded, and its environment is this
 * run's (r->baseline_env, computed before). */
static int stored_applies(const struct score_run *r)
{
    const struct stored_baseline *sb = r->stored;
    if (!sb || !sb->env || !r->baseline_env[0]) {
        lt_debug("baseline: none stored, or the environment cannot be "
                 "digested");
        return 0;
    }
    if (strcmp(sb->env, r->baseline_env) != 0) {
        lt_debug("baseline: the environment changed (interpreter, "
                 "packages, configuration, a helper or conftest, or what "
                 "importing a subject does): every test runs");
        return 0;
    }
    return 1;
}

size_t lt__baseline_take_stored(struct score_run *r, unsigned char *run_it)
{
    const struct lt_suite *suite = r->suite;
    const struct stored_baseline *sb = r->stored;
    if (!stored_applies(r))
        return 0;
    struct test_index *ix = xcalloc(suite->n_tests + 1, sizeof(*ix));
    for (size_t i = 0; i < suite->n_tests; i++)
        ix[i] = (struct test_index){suite->test_ids[i], (uint32_t)i};
    qsort(ix, suite->n_tests, sizeof(*ix), cmp_test_index);
    /* Duplicate ids (never from pytest) are not told apart: both run. */
    for (size_t k = 1; k < suite->n_tests; k++)
        if (strcmp(ix[k].id, ix[k - 1].id) == 0)
            run_it[ix[k].i] = run_it[ix[k - 1].i] = 2;
    struct lt_test_files tf = {0};
    struct baseline *b = &r->base;
    size_t reused = 0;
    for (size_t k = 0; k < sb->n; k++) {
        const struct stored_test *t = &sb->t[k];
        struct test_index probe = {t->nodeid, 0};
        struct test_index *hit = bsearch(&probe, ix, suite->n_tests,
                                         sizeof(*ix), cmp_test_index);
        if (!hit || run_it[hit->i] != 1 || !still_holds(r, &tf, t))
            continue;
        uint32_t i = hit->i;
        /* Lines of a malformed text already taken stay: they only widen
         * selections, and the test runs again anyway, adding its own. */
        if (take_coverage(&r->plan, b, i, t->coverage) < 0)
            continue;
        b->wall_ms[i] = t->wall_ms;
        b->cpu_ms[i] = t->cpu_ms;
        b->work[i] = t->work;
        b->needs[i] = (unsigned char)(t->needs & (LT_NEEDS_PROCESSES |
                                                  LT_NEEDS_NETWORK |
                                                  LT_NEEDS_UNTRACED));
        b->runnable[i] = strcmp(t->outcome, "passed") == 0;
        run_it[i] = 0;
        reused++;
    }
    for (size_t i = 0; i < suite->n_tests; i++)
        run_it[i] = run_it[i] != 0;
    lt__test_files_free(&tf);
    free(ix);
    return reused;
}

/*** A narrower collection ***/

/* 1 when some line of m may run at import (a structural change, or a
 * line of the static import-time set). */
static int may_run_at_import(const struct score_run *r, size_t i)
{
    if (r->mp[i].a.structural)
        return 1;
    const struct lt_mutant *m = &r->plan.mutants.items[i];
    const struct lt_import_digest *d = &r->imports[r->plan.mutant_file[i]];
    for (size_t k = 0; k < d->n_lines; k++)
        if (d->lines[k] >= m->line && d->lines[k] <= m->end_line)
            return 1;
    return 0;
}

/* 1 when stored coverage text `coverage` has a line of [from, to] in the
 * file at path (a malformed text counts as covering). */
static int covers(const char *coverage, const char *path, long from, long to)
{
    struct cov_entry e;
    for (const char *p = coverage; next_entry(&p, &e);) {
        if (e.path_len != strlen(path) ||
            strncmp(e.path, path, e.path_len) != 0)
            continue;
        long a, b;
        int rc;
        for (const char *q = e.ranges; (rc = next_range(&q, e.end, &a,
                                                        &b)) > 0;)
            if (a <= to && b >= from)
                return 1;
        if (rc < 0)
            return 1;
    }
    return 0;
}

static int cmp_strp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The files (node id parts before "::") of the stored tests marked in
 * need, sorted and unique, or NULL when one of them is not a file under
 * the working directory. */
static char **needed_files(const struct stored_baseline *sb,
                           const unsigned char *need, size_t *n_out)
{
    char **files = xcalloc(sb->n + 1, sizeof(char *));
    size_t n = 0;
    for (size_t k = 0; k < sb->n; k++) {
        const char *sep = strstr(sb->t[k].nodeid, "::");
        if (!need[k])
            continue;
        if (!sep || sep == sb->t[k].nodeid) {
            n = SIZE_MAX;
            break;
        }
        files[n++] = xstrndup(sb->t[k].nodeid,
                              (size_t)(sep - sb->t[k].nodeid));
    }
    if (n != SIZE_MAX) {
        qsort(files, n, sizeof(char *), cmp_strp);
        size_t w = 0;
        for (size_t k = 0; k < n; k++) {
            if (w && strcmp(files[w - 1], files[k]) == 0) {
                free(files[k]);
                continue;
            }
            files[w++] = files[k];
        }
        for (size_t k = w; k < n; k++)
            files[k] = NULL;
        n = w;
        for (size_t k = 0; k < n && n != SIZE_MAX; k++)
            if (files[k][0] == '/' || access(files[k], R_OK) != 0)
                n = SIZE_MAX; /* relative to another rootdir, or gone */
    }
    if (n == SIZE_MAX) {
        for (size_t k = 0; files[k]; k++)
            free(files[k]);
        free(files);
        return NULL;
    }
    *n_out = n;
    return files;
}

char **lt__baseline_narrow_collection(struct score_run *r, size_t *n_files)
{
    const struct lt_score_opts *o = r->o;
    const struct lt_plan *plan = &r->plan;
    const struct stored_baseline *sb = r->stored;
    if (r->runner != LT_TEST_RUNNER_PYTEST || o->n_tests == 0 ||
        o->full_matrix || !sb || !sb->env || !sb->n) {
        lt_debug("baseline: no stored baseline to narrow the collection "
                 "by");
        return NULL;
    }
    /* A path among pytest's own arguments would be collected anyway. */
    for (size_t k = 0; k < o->n_pytest_args; k++)
        if (o->pytest_args[k][0] != '-' && access(o->pytest_args[k], F_OK) == 0)
            return NULL;
    baseline_env(r, 0);
    if (!stored_applies(r))
        return NULL;
    for (size_t q = 0; q < r->n_queue; q++)
        if (may_run_at_import(r, r->queue[q])) {
            lt_debug("baseline: a mutant may run at import: the whole "
                     "suite is collected");
            return NULL;
        }
    /* The tests to collect: those to run again, those whose processes
     * ran untraced (every mutant runs them), and those covering a queued
     * mutant's lines in a file that did not change (in a changed file,
     * every test that entered it runs again anyway). */
    unsigned char *need = xcalloc(sb->n + 1, 1);
    struct lt_test_files tf = {0};
    size_t n_need = 0;
    for (size_t k = 0; k < sb->n; k++) {
        const struct stored_test *t = &sb->t[k];
        need[k] = !still_holds(r, &tf, t) ||
                  (t->needs & LT_NEEDS_UNTRACED);
        for (size_t q = 0; q < r->n_queue && !need[k]; q++) {
            const struct lt_mutant *m = &plan->mutants.items[r->queue[q]];
            need[k] = covers(t->coverage,
                             plan->files[plan->mutant_file[r->queue[q]]].path,
                             m->line, m->end_line);
        }
        n_need += need[k];
    }
    lt__test_files_free(&tf);
    if (!n_need)
        need[0] = 1; /* a zygote needs a test to collect */
    size_t n = 0;
    char **files = needed_files(sb, need, &n);
    free(need);
    if (!files) {
        lt_debug("baseline: a needed test is not in a file under the "
                 "working directory");
        return NULL;
    }
    /* Narrower only when it leaves a file out. */
    unsigned char *all = xmalloc(sb->n + 1);
    memset(all, 1, sb->n + 1);
    size_t n_all = 0;
    char **every = needed_files(sb, all, &n_all);
    free(all);
    int narrower = every && n < n_all;
    for (size_t k = 0; every && k < n_all; k++)
        free(every[k]);
    free(every);
    if (!narrower) {
        lt_debug("baseline: every test file is needed");
        for (size_t k = 0; k < n; k++)
            free(files[k]);
        free(files);
        return NULL;
    }
    r->narrowed = 1;
    r->n_test_files_all = n_all;
    *n_files = n;
    return files;
}

int lt__baseline_store(struct score_run *r)
{
    const struct lt_suite *suite = r->suite;
    const struct baseline *b = &r->base;
    const struct stored_baseline *sb = r->stored;
    struct lt_test_files tf = {0};
    int rc = lt_store_begin(r->st);
    /* A narrowed collection's tests, then the stored ones it left out,
     * which still hold. */
    size_t n_kept = r->narrowed && sb ? sb->n : 0;
    struct lt_test_record *recs = xcalloc(suite->n_tests + n_kept + 1,
                                          sizeof(*recs));
    char **cov = xcalloc(suite->n_tests + 1, sizeof(char *));
    for (size_t i = 0; i < suite->n_tests; i++) {
        cov[i] = lt__baseline_coverage_text(b, &r->plan, (uint32_t)i);
        recs[i] = (struct lt_test_record){
            (int)i, suite->test_ids[i], b->wall_ms[i],
            b->flaky[i] ? "flaky"
            : b->failing[i] ? "failing"
            : b->runnable[i] ? "passed" : "skipped",
            cov[i]};
    }
    size_t n_recs = suite->n_tests;
    const struct stored_test **kept = xcalloc(n_kept + 1, sizeof(*kept));
    size_t nk = 0;
    if (n_kept) {
        struct test_index *ix = xcalloc(suite->n_tests + 1, sizeof(*ix));
        for (size_t i = 0; i < suite->n_tests; i++)
            ix[i] = (struct test_index){suite->test_ids[i], (uint32_t)i};
        qsort(ix, suite->n_tests, sizeof(*ix), cmp_test_index);
        for (size_t k = 0; k < sb->n; k++) {
            struct test_index probe = {sb->t[k].nodeid, 0};
            if (bsearch(&probe, ix, suite->n_tests, sizeof(*ix),
                        cmp_test_index))
                continue;
            kept[nk++] = &sb->t[k];
            recs[n_recs] = (struct lt_test_record){
                (int)n_recs, sb->t[k].nodeid, sb->t[k].wall_ms,
                sb->t[k].outcome, sb->t[k].coverage};
            n_recs++;
        }
        free(ix);
    }
    if (rc == 0)
        rc = lt_store_put_tests(r->st, recs, n_recs);
    if (rc == 0)
        rc = lt_store_clear_baseline_deps(r->st);
    for (size_t i = 0; rc == 0 && r->baseline_env[0] && i < suite->n_tests;
         i++) {
        char deps[65];
        test_deps(r, &tf, suite->test_ids[i], cov[i], deps);
        struct lt_baseline_deps d = {
            .nodeid = suite->test_ids[i], .cpu_ms = b->cpu_ms[i],
            .work = b->work[i], .needs = b->needs[i], .deps = deps};
        rc = lt_store_put_baseline_deps(r->st, &d);
    }
    for (size_t k = 0; rc == 0 && r->baseline_env[0] && k < nk; k++) {
        struct lt_baseline_deps d = {
            .nodeid = kept[k]->nodeid, .cpu_ms = kept[k]->cpu_ms,
            .work = kept[k]->work, .needs = kept[k]->needs,
            .deps = kept[k]->deps};
        rc = lt_store_put_baseline_deps(r->st, &d);
    }
    struct lt_buf funcs = LT_BUF_INIT;
    for (size_t f = 0; r->imports && f < r->plan.n_files; f++) {
        const char *names = r->imports[f].funcs ? r->imports[f].funcs : "";
        lt_buf_printf(&funcs, "%s\n%s%s\n", r->plan.files[f].path, names,
                      *names ? "\n" : "");
    }
    if (rc == 0)
        rc = lt_store_set_meta(r->st, "baseline_env", r->baseline_env);
    if (rc == 0)
        rc = lt_store_set_meta(r->st, "baseline_funcs",
                               funcs.data ? funcs.data : "");
    lt_buf_free(&funcs);
    char feat[32];
    snprintf(feat, sizeof(feat), "%u",
             r->base.have_features ? r->base.features : suite->features);
    if (rc == 0)
        rc = lt_store_set_meta(r->st, "sandbox_features", feat);
    if (rc == 0)
        rc = lt_store_set_meta(r->st, "sandbox_view",
                               suite->view ? suite->view
                               : suite->view_missing ? suite->view_missing
                               : "");
    if (rc == 0)
        rc = lt_store_commit(r->st);
    for (size_t i = 0; i < suite->n_tests; i++)
        free(cov[i]);
    free(cov);
    free(recs);
    free(kept);
    lt__test_files_free(&tf);
    return rc;
}
