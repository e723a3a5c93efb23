/* `litmus merge OUT IN...`: checks that the shard stores IN are the
 * complete, disjoint shards of one plan and writes their union to OUT, a
 * store every report reads as it would a single run's.
 * SPDX-License-Identifier: MIT */
#include "engine/engine.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "engine/core/store.h"
#include "operators/operators.h"

/*** Reading the inputs ***/

struct file_rec {
    char *path, *sha;
};

/* What merge needs of one input store. */
struct input {
    const char *path;
    struct lt_store *st;
    char *settings, *shard, *complete;
    unsigned index, count;
    struct file_rec *files;
    size_t n_files;
    char (*ids)[17];        /* every mutant of the plan, in store order */
    unsigned char *has;     /* ... and whether this shard has its result */
    size_t n_ids, cap_ids;
    double wall_s, cpu_s;
    long tasks;
    const struct lt_shard_store *kind; /* the job that made it */
};

/* The jobs whose shard stores merge (lt_merge's list, in that order). */
struct jobs {
    const struct lt_shard_store *const *all;
    size_t n;
};

static int collect_file(const char *path, const char *sha, void *ud)
{
    struct input *in = ud;
    in->files = xrealloc(in->files, (in->n_files + 1) * sizeof(*in->files));
    in->files[in->n_files++] = (struct file_rec){xstrdup(path), xstrdup(sha)};
    return 0;
}

static int collect_mutant(const struct lt_mutant *m, const struct lt_result *r,
                          void *ud)
{
    struct input *in = ud;
    if (in->n_ids == in->cap_ids) {
        in->cap_ids = in->cap_ids ? 2 * in->cap_ids : 256;
        in->ids = xrealloc(in->ids, in->cap_ids * sizeof(*in->ids));
        in->has = xrealloc(in->has, in->cap_ids);
    }
    memcpy(in->ids[in->n_ids], m->id, 17);
    in->has[in->n_ids++] = r != NULL;
    return 0;
}

static double meta_num(struct lt_store *st, const char *key)
{
    char *v = NULL;
    double d = -1;
    if (lt_store_get_meta(st, key, &v) == 0 && v)
        d = strtod(v, NULL);
    free(v);
    return d;
}

/* "`litmus score`, `dataset` or `patches`": the jobs, for a message. */
static char *job_list(const struct jobs *jobs)
{
    struct lt_buf b = LT_BUF_INIT;
    for (size_t k = 0; k < jobs->n; k++)
        lt_buf_printf(&b, "%s`%s%s`",
                      k == 0 ? "" : k + 1 == jobs->n ? " or " : ", ",
                      k == 0 ? "litmus " : "", jobs->all[k]->job);
    return b.data ? b.data : xstrdup("");
}

/* Opens one input and reads its plan: which job made it, asked of every
 * job in turn by its meta keys.  0, or an exit code after printing why. */
static int read_input(struct input *in, const struct jobs *jobs)
{
    char *errmsg = NULL;
    if (access(in->path, F_OK) != 0) {
        lt_error("%s: no such database", in->path);
        return LT_EXIT_USAGE;
    }
    int rc = lt_store_open(in->path, &in->st, &errmsg);
    if (rc < 0) {
        lt_error("%s: %s", in->path, errmsg ? errmsg : lt_strerror(rc));
        free(errmsg);
        return lt_exit_from_error(rc);
    }
    for (size_t k = 0; !in->settings && k < jobs->n; k++) {
        const struct lt_shard_store *job = jobs->all[k];
        free(in->shard);
        free(in->complete);
        in->shard = in->complete = NULL;
        if (lt_store_get_meta(in->st, job->settings_key, &in->settings) < 0 ||
            lt_store_get_meta(in->st, job->shard_key, &in->shard) < 0 ||
            lt_store_get_meta(in->st, job->complete_key, &in->complete) < 0) {
            lt_error("%s: %s", in->path, lt_store_errmsg(in->st));
            return LT_EXIT_ENGINE;
        }
        in->kind = job;
    }
    if (lt_store_each_file(in->st, collect_file, in) < 0 ||
        lt_store_each(in->st, collect_mutant, in) < 0) {
        lt_error("%s: %s", in->path, lt_store_errmsg(in->st));
        return LT_EXIT_ENGINE;
    }
    if (!in->settings) {
        char *names = job_list(jobs);
        lt_error("%s holds no %s run", in->path, names);
        free(names);
        return LT_EXIT_USAGE;
    }
    const char *why = NULL;
    if (!in->shard) {
        lt_error("%s is not a shard store (made without --shard)", in->path);
        return LT_EXIT_USAGE;
    }
    if (lt_shard_parse(in->shard, &in->index, &in->count, &why) < 0) {
        lt_error("%s: bad shard '%s' in its meta table", in->path, in->shard);
        return LT_EXIT_USAGE;
    }
    in->wall_s = meta_num(in->st, "run_wall_s");
    in->cpu_s = meta_num(in->st, "run_cpu_s");
    in->tasks = (long)meta_num(in->st, "run_tasks");
    return 0;
}

static void input_free(struct input *in)
{
    lt_store_close(in->st);
    free(in->settings);
    free(in->shard);
    free(in->complete);
    for (size_t i = 0; i < in->n_files; i++) {
        free(in->files[i].path);
        free(in->files[i].sha);
    }
    free(in->files);
    free(in->ids);
    free(in->has);
}

/*** Checks ***/

/* The first line where two settings strings differ, as "A" vs "B" in buf. */
static void first_difference(const char *a, const char *b, char *buf,
                             size_t size)
{
    while (*a && *b) {
        size_t la = strcspn(a, "\n"), lb = strcspn(b, "\n");
        if (la != lb || memcmp(a, b, la) != 0) {
            snprintf(buf, size, "'%.*s' vs '%.*s'", (int)la, a, (int)lb, b);
            return;
        }
        a += la + (a[la] == '\n');
        b += lb + (b[lb] == '\n');
    }
    size_t la = strcspn(a, "\n"), lb = strcspn(b, "\n");
    snprintf(buf, size, "'%.*s' vs '%.*s'", (int)la, a, (int)lb, b);
}

/* Checks input k against input 0: the same plan and shard count.  0, or
 * an exit code after printing the first difference. */
static int same_plan(const struct input *a, const struct input *b)
{
    char diff[512];
    if (a->kind != b->kind) {
        lt_error("%s holds a `litmus %s` run, %s a `litmus %s` run", a->path,
                 a->kind->job, b->path, b->kind->job);
        return LT_EXIT_USAGE;
    }
    if (strcmp(a->settings, b->settings) != 0) {
        first_difference(a->settings, b->settings, diff, sizeof(diff));
        lt_error("%s and %s come from different runs: settings differ "
                 "(%s)", a->path, b->path, diff);
        return LT_EXIT_USAGE;
    }
    if (a->count != b->count) {
        lt_error("%s is shard %s but %s is shard %s: different shard counts",
                 a->path, a->shard, b->path, b->shard);
        return LT_EXIT_USAGE;
    }
    for (size_t i = 0; i < a->n_files || i < b->n_files; i++) {
        const struct file_rec *x = i < a->n_files ? &a->files[i] : NULL;
        const struct file_rec *y = i < b->n_files ? &b->files[i] : NULL;
        if (!x || !y || strcmp(x->path, y->path) != 0) {
            lt_error("%s and %s come from different runs: file %s is in "
                     "one only", a->path, b->path, x ? x->path : y->path);
            return LT_EXIT_USAGE;
        }
        if (strcmp(x->sha, y->sha) != 0) {
            lt_error("%s and %s come from different runs: %s changed "
                     "between them (sha256 %.12s vs %.12s)", a->path,
                     b->path, x->path, x->sha, y->sha);
            return LT_EXIT_USAGE;
        }
    }
    if (a->n_ids != b->n_ids) {
        lt_error("%s and %s come from different runs: %zu vs %zu mutants",
                 a->path, b->path, a->n_ids, b->n_ids);
        return LT_EXIT_USAGE;
    }
    for (size_t i = 0; i < a->n_ids; i++)
        if (strcmp(a->ids[i], b->ids[i]) != 0) {
            lt_error("%s and %s come from different runs: mutant %s is in "
                     "one only", a->path, b->path, a->ids[i]);
            return LT_EXIT_USAGE;
        }
    return 0;
}

/* Every shard 0..N-1 once, each complete, no result twice, none missing.
 * 0, or an exit code after printing the first problem. */
static int check_shards(struct input *in, size_t n)
{
    unsigned count = in[0].count;
    long *by_index = xmalloc(count * sizeof(long));
    int code = 0;
    for (unsigned i = 0; i < count; i++)
        by_index[i] = -1;
    for (size_t k = 0; k < n; k++) {
        if (by_index[in[k].index] >= 0) {
            lt_error("overlapping shards: %s and %s are both shard %s",
                     in[by_index[in[k].index]].path, in[k].path, in[k].shard);
            code = LT_EXIT_USAGE;
            goto out;
        }
        by_index[in[k].index] = (long)k;
    }
    struct lt_buf missing = LT_BUF_INIT;
    size_t n_missing = 0;
    for (unsigned i = 0; i < count; i++)
        if (by_index[i] < 0) {
            if (n_missing < 10)
                lt_buf_printf(&missing, "%s%u/%u", n_missing ? ", " : "", i,
                              count);
            n_missing++;
        }
    if (n_missing) {
        lt_error("missing shard%s: %s%s (give all %u shards)",
                 n_missing == 1 ? "" : "s", missing.data,
                 n_missing > 10 ? ", ..." : "", count);
        lt_buf_free(&missing);
        code = LT_EXIT_USAGE;
        goto out;
    }
    lt_buf_free(&missing);
    for (size_t k = 0; k < n; k++)
        if (!in[k].complete || strcmp(in[k].complete, "1") != 0) {
            lt_error("shard %s (%s) is not complete: run it again to finish "
                     "it", in[k].shard, in[k].path);
            code = LT_EXIT_USAGE;
            goto out;
        }
    /* The deal gives each mutant to one shard: a result in two stores, or
     * in none, means the stores were not made by these shards' deal. */
    for (size_t i = 0; i < in[0].n_ids; i++) {
        long first = -1;
        for (size_t k = 0; k < n; k++) {
            if (!in[k].has[i])
                continue;
            if (first >= 0) {
                lt_error("overlapping shards: mutant %s has a result in "
                         "both %s and %s", in[0].ids[i], in[first].path,
                         in[k].path);
                code = LT_EXIT_USAGE;
                goto out;
            }
            first = (long)k;
        }
        if (first < 0) {
            lt_error("mutant %s has no result in any shard", in[0].ids[i]);
            code = LT_EXIT_USAGE;
            goto out;
        }
    }
out:
    free(by_index);
    return code;
}

/*** Writing the merged store ***/

struct copy {
    struct lt_store *out;
    struct lt_test_record *tests;
    size_t n_tests;
};

static int copy_mutant(const struct lt_mutant *m, const struct lt_result *r,
                       void *ud)
{
    struct copy *c = ud;
    int rc = lt_store_put_mutant(c->out, m);
    if (rc == 0 && r)
        rc = lt_store_put_result(c->out, r);
    return rc;
}

static int copy_test(const struct lt_test_record *t, void *ud)
{
    struct copy *c = ud;
    c->tests = xrealloc(c->tests, (c->n_tests + 1) * sizeof(*c->tests));
    c->tests[c->n_tests++] = (struct lt_test_record){
        t->index, xstrdup(t->nodeid), t->baseline_ms,
        t->outcome ? xstrdup(t->outcome) : NULL,
        t->coverage ? xstrdup(t->coverage) : NULL};
    return 0;
}

struct copy_file {
    struct lt_store *from, *to;
};

static int copy_one_file(const char *path, const char *sha, void *ud)
{
    struct copy_file *c = ud;
    char *src = NULL;
    size_t len = 0;
    int changed = 0;
    int rc = lt_store_get_file(c->from, path, &src, &len);
    if (rc == 0)
        rc = lt_store_put_file(c->to, path, sha, src, len, &changed);
    free(src);
    return rc;
}

static void remove_db(const char *path)
{
    static const char *const suffixes[] = {"", "-wal", "-shm", "-journal",
                                           ".lock"};
    for (size_t i = 0; i < sizeof(suffixes) / sizeof(*suffixes); i++) {
        char *p = xasprintf("%s%s", path, suffixes[i]);
        unlink(p);
        free(p);
    }
}

/* The merged store's figures: the shards' own, one line each in
 * meta "shards" for `litmus report`, and the totals a single run would
 * record: the longest wall time (shards run side by side), the sum of CPU
 * and of tasks. */
static int write_figures(struct lt_store *out, const struct input *in,
                         size_t n)
{
    static const char *const max_keys[] = {
        "run_startup_s", "run_baseline_s", "run_mutants_s",
        "run_zygote_peak_rss_kb", "run_engine_peak_rss_kb"};
    static const char *const sum_keys[] = {"run_mutants_run",
                                           "run_timeout_rechecks", "run_jobs"};
    struct lt_buf lines = LT_BUF_INIT;
    double wall = 0, cpu = 0;
    long tasks = 0;
    int rc = 0;
    for (unsigned i = 0; i < in[0].count; i++)
        for (size_t k = 0; k < n; k++) {
            if (in[k].index != i)
                continue;
            lt_buf_printf(&lines, "%s %.6f %.6f %ld\n", in[k].shard,
                          in[k].wall_s, in[k].cpu_s, in[k].tasks);
            wall = in[k].wall_s > wall ? in[k].wall_s : wall;
            cpu += in[k].cpu_s;
            tasks += in[k].tasks;
        }
    rc = lt_store_set_meta(out, "shards", lines.data ? lines.data : "");
    lt_buf_free(&lines);
    char v[64];
    for (size_t j = 0; rc == 0 && j < sizeof(max_keys) / sizeof(*max_keys);
         j++) {
        double m = -1;
        for (size_t k = 0; k < n; k++) {
            double x = meta_num(in[k].st, max_keys[j]);
            m = x > m ? x : m;
        }
        snprintf(v, sizeof(v), "%.6f", m);
        rc = lt_store_set_meta(out, max_keys[j], v);
    }
    for (size_t j = 0; rc == 0 && j < sizeof(sum_keys) / sizeof(*sum_keys);
         j++) {
        long s = 0;
        for (size_t k = 0; k < n; k++) {
            double x = meta_num(in[k].st, sum_keys[j]);
            s += x > 0 ? (long)x : 0;
        }
        snprintf(v, sizeof(v), "%ld", s);
        rc = lt_store_set_meta(out, sum_keys[j], v);
    }
    if (rc == 0) {
        snprintf(v, sizeof(v), "%.6f", wall);
        rc = lt_store_set_meta(out, "run_wall_s", v);
    }
    if (rc == 0) {
        snprintf(v, sizeof(v), "%.6f", cpu);
        rc = lt_store_set_meta(out, "run_cpu_s", v);
    }
    if (rc == 0) {
        snprintf(v, sizeof(v), "%ld", tasks);
        rc = lt_store_set_meta(out, "run_tasks", v);
    }
    return rc;
}

/* Writes the union of the inputs to tmp; 0 or a negative code. */
static int write_merged(const char *tmp, struct input *in, size_t n)
{
    struct lt_store *out = NULL;
    char *errmsg = NULL;
    struct copy c = {0};
    int rc = lt_store_open(tmp, &out, &errmsg);
    if (rc < 0) {
        lt_error("%s: %s", tmp, errmsg ? errmsg : lt_strerror(rc));
        free(errmsg);
        return rc;
    }
    c.out = out;
    /* A job with tables of its own (a dataset's, a patch triage's) has
     * them copied as the shards define them.  Their rows are keyed by
     * content (the job's lt_shard_store says why), so a key stored by
     * two shards holds the same result and the first one is kept. */
    const struct lt_shard_store *job = in[0].kind;
    if (job->create || job->copy) {
        for (size_t k = 0; rc == 0 && k < n; k++)
            rc = lt_store_absorb(out, in[k].path, job->create, job->copy);
        if (rc == 0)
            rc = lt_store_begin(out);
        if (rc == 0)
            rc = lt_store_set_meta(out, job->settings_key, in[0].settings);
        if (rc == 0)
            rc = lt_store_set_meta(out, job->complete_key, "1");
        goto done;
    }
    rc = lt_store_begin(out);
    /* A merged store is a whole run: no shard key, complete. */
    const char *const keys[] = {job->settings_key, "sandbox_features",
                                "sandbox_view"};
    for (size_t j = 0; rc == 0 && j < sizeof(keys) / sizeof(*keys); j++) {
        char *v = NULL;
        rc = lt_store_get_meta(in[0].st, keys[j], &v);
        if (rc == 0 && v)
            rc = lt_store_set_meta(out, keys[j], v);
        free(v);
    }
    if (rc == 0)
        rc = lt_store_set_meta(out, job->complete_key, "1");
    struct copy_file cf = {in[0].st, out};
    if (rc == 0)
        rc = lt_store_each_file(in[0].st, copy_one_file, &cf);
    for (size_t k = 0; rc == 0 && k < n; k++)
        rc = lt_store_each(in[k].st, copy_mutant, &c);
    /* The baseline is the same in every shard (each ran it to select
     * tests); shard 0's is kept, as its timings are one machine's. */
    size_t first = 0;
    for (size_t k = 0; k < n; k++)
        if (in[k].index == 0)
            first = k;
    if (rc == 0)
        rc = lt_store_each_test(in[first].st, copy_test, &c);
    if (rc == 0)
        rc = lt_store_put_tests(out, c.tests, c.n_tests);
    if (rc == 0)
        rc = write_figures(out, in, n);
done:
    if (rc == 0)
        rc = lt_store_commit(out);
    else
        lt_error("%s: %s", tmp, lt_store_errmsg(out));
    for (size_t i = 0; i < c.n_tests; i++) {
        free((char *)c.tests[i].nodeid);
        free((char *)c.tests[i].outcome);
        free((char *)c.tests[i].coverage);
    }
    free(c.tests);
    lt_store_close(out);
    return rc;
}

/* See engine.h.  The merged store is written beside OUT and renamed onto
 * it once complete, so OUT is never half a merge. */
int lt_merge(const char *out, char **inputs, size_t n_inputs, int force,
             const struct lt_shard_store *const *jobs, size_t n_jobs)
{
    const struct jobs known = {jobs, n_jobs};
    struct input *in = xcalloc(n_inputs + 1, sizeof(*in));
    char *tmp = NULL;
    int code = 0;
    if (!force && access(out, F_OK) == 0) {
        lt_error("%s exists; remove it or pass --force", out);
        code = LT_EXIT_USAGE;
        goto out;
    }
    struct stat os;
    int have_out = stat(out, &os) == 0;
    for (size_t k = 0; k < n_inputs; k++) {
        in[k].path = inputs[k];
        struct stat a, b;
        if (stat(inputs[k], &a) == 0) {
            if (have_out && a.st_dev == os.st_dev && a.st_ino == os.st_ino) {
                lt_error("%s is both the output and an input", out);
                code = LT_EXIT_USAGE;
                goto out;
            }
            /* The same file twice is the plainest overlap; say so rather
             * than that the store is busy (our own lock). */
            for (size_t j = 0; j < k; j++)
                if (stat(inputs[j], &b) == 0 && a.st_dev == b.st_dev &&
                    a.st_ino == b.st_ino) {
                    lt_error("overlapping shards: %s is given twice%s%s",
                             inputs[k], strcmp(inputs[j], inputs[k]) ? " as "
                                                                     : "",
                             strcmp(inputs[j], inputs[k]) ? inputs[j] : "");
                    code = LT_EXIT_USAGE;
                    goto out;
                }
        }
        if ((code = read_input(&in[k], &known)) != 0)
            goto out;
        if (k > 0 && (code = same_plan(&in[0], &in[k])) != 0)
            goto out;
    }
    if ((code = check_shards(in, n_inputs)) != 0)
        goto out;
    tmp = xasprintf("%s.merging", out);
    remove_db(tmp);
    if (write_merged(tmp, in, n_inputs) < 0) {
        remove_db(tmp);
        code = LT_EXIT_ENGINE;
        goto out;
    }
    char *tmp_lock = xasprintf("%s.lock", tmp);
    unlink(tmp_lock);
    free(tmp_lock);
    /* A WAL left beside an old OUT would be replayed into the new one. */
    static const char *const side[] = {"-wal", "-shm", "-journal"};
    for (size_t i = 0; i < sizeof(side) / sizeof(*side); i++) {
        char *p = xasprintf("%s%s", out, side[i]);
        unlink(p);
        free(p);
    }
    if (rename(tmp, out) < 0) {
        lt_error("cannot rename %s to %s: %s", tmp, out, strerror(errno));
        remove_db(tmp);
        code = LT_EXIT_ENGINE;
        goto out;
    }
    /* A job with tables of its own writes its output from them. */
    if (in[0].kind->create || in[0].kind->copy)
        printf("merged %zu %s shards into %s: run the same `litmus %s` "
               "command without --shard and with --db %s to write the whole "
               "output from it\n", n_inputs, in[0].kind->job, out,
               in[0].kind->job, out);
    else
        printf("merged %zu shards of %zu mutants into %s\n", n_inputs,
               in[0].n_ids, out);
out:
    for (size_t k = 0; k < n_inputs; k++)
        input_free(&in[k]);
    free(in);
    free(tmp);
    return code;
}
