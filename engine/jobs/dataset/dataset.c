/* `litmus dataset`: reads the input records (JSON Lines, or program
 * files), hands each program to its mode (select, typed, faults,
 * rewrite), runs the executor until every item is verified, and writes
 * the output records in input order and the summary.  The top of the
 * dataset_*.c files, which call only downward: the modes
 * (dataset_select.c, dataset_variants.c), the executors (dataset_exec.c,
 * then dataset_java.c), the tasks (dataset_tasks.c) and the helpers
 * (dataset_helpers.c).  SPDX-License-Identifier: MIT */
#include "engine/jobs/dataset/dataset_internal.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
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
#include "engine/core/clock.h"
#include "engine/core/exit.h"
#include "engine/core/shard.h"
#include "operators/operators.h"

void lt_dataset_opts_init(struct lt_dataset_opts *o)
{
    memset(o, 0, sizeof(*o));
    o->run.db = ".litmus-dataset.db";
    o->operators = "algo1";
    o->ops = "c,v,d";
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    o->run.jobs = n > 0 ? (int)n : 1;
    o->per_cell = 1;
    o->per_program = 1;
    o->strength = 1;
    o->variants = 1;
    o->verify = 1;
    o->timeout = 5.0;
    o->run.timeout_factor = 5.0;
    o->run.timeout_const = LT_DATASET_TIMEOUT_CONST;
    o->run.memory_mb = LT_MEMORY_MB_DEFAULT;
    o->run.progress = -1;
}

const char *lt_dataset_mode_name(enum lt_dataset_mode m)
{
    static const char *const names[] = {"select", "typed", "faults",
                                        "rewrite"};
    return (unsigned)m < 4 ? names[m] : "?";
}

/*** Input ***/

static int bad_record(const char *where, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int bad_record(const char *where, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = xvasprintf(fmt, ap);
    va_end(ap);
    lt_error("%s: %s", where, s ? s : "bad record");
    free(s);
    return LT_EXIT_USAGE;
}

/* A path from a record: absolute, or relative to the input file's
 * folder; made absolute (it must exist). */
static char *resolve(const char *base_dir, const char *p, int *err)
{
    char *joined = p[0] == '/' || !base_dir ? xstrdup(p)
                                            : xasprintf("%s/%s", base_dir, p);
    char *real = realpath(joined, NULL);
    *err = real ? 0 : errno;
    free(joined);
    return real;
}

static int valid_utf8(const char *s, size_t n)
{
    json_t *j = json_stringn(s, n);
    int ok = j != NULL;
    json_decref(j);
    return ok && memchr(s, '\0', n) == NULL;
}

/* Fills a program from its record.  2 (after a one-line error naming the
 * record) when the record is unusable. */
static int java_record(struct ds_run *r, struct ds_prog *p,
                       const json_t *tests, const char *base_dir);

static int prog_from_record(struct ds_run *r, struct ds_prog *p,
                            const char *base_dir)
{
    const struct lt_dataset_opts *o = r->o;
    json_t *rec = p->rec;
    json_t *id = json_object_get(rec, "id");
    if (id && !json_is_string(id) && !json_is_integer(id))
        return bad_record(p->where, "\"id\" must be a string or an integer");
    if (!id) {
        if (o->mode == LT_DS_SELECT)
            return bad_record(p->where, "missing \"id\"");
        json_object_set_new(rec, "id", json_integer((json_int_t)p->index + 1));
        id = json_object_get(rec, "id");
    }
    p->id = id;
    p->id_str = lt__ds_id_text(id);
    json_t *code = json_object_get(rec, "code");
    json_t *path = json_object_get(rec, "path");
    json_t *tests = json_object_get(rec, "tests");
    json_t *inputs = json_object_get(rec, "inputs");
    if (code && !json_is_string(code))
        return bad_record(p->where, "\"code\" must be a string");
    if (path && !json_is_string(path))
        return bad_record(p->where, "\"path\" must be a string");
    if (tests && !json_is_string(tests))
        return bad_record(p->where, "\"tests\" must be a path (a string)");
    if (inputs) {
        if (!json_is_array(inputs))
            return bad_record(p->where, "\"inputs\" must be an array of "
                              "call expressions");
        for (size_t i = 0; i < json_array_size(inputs); i++)
            if (!json_is_string(json_array_get(inputs, i)))
                return bad_record(p->where, "\"inputs\"[%zu] must be a call "
                                  "expression (a string)", i);
        int c = lt__ds_check_calls(r, p->where, p->id_str, inputs);
        if (c)
            return c;
        p->inputs = inputs;
    }
    if (path) {
        int e;
        p->path = resolve(base_dir, json_string_value(path), &e);
        if (!p->path)
            return bad_record(p->where, "path %s: %s",
                              json_string_value(path), strerror(e));
    }
    if (code) {
        p->code = xstrndup(json_string_value(code), json_string_length(code));
        p->len = json_string_length(code);
        p->untrusted = 1;
        if (memchr(p->code, '\0', p->len))
            return bad_record(p->where, "\"code\" contains a NUL character");
    } else if (p->path) {
        int rc = lt_read_file(p->path, &p->code, &p->len);
        if (rc < 0)
            return bad_record(p->where, "%s: %s", p->path, lt_strerror(rc));
        if (!valid_utf8(p->code, p->len))
            return bad_record(p->where, "%s: not UTF-8 text", p->path);
    } else {
        return bad_record(p->where, "no \"code\" (or \"path\" of the "
                          "program file)");
    }
    if (o->mode == LT_DS_SELECT)
        return 0;
    if (r->is_java)
        return java_record(r, p, tests, base_dir);
    const char *tpath = tests ? json_string_value(tests) : o->tests;
    if (tpath && (inputs == NULL || tests)) {
        if (!p->path)
            return bad_record(p->where, "tests need the program's file: add "
                              "\"path\" (the module the tests import)");
        int e;
        p->tests = resolve(tests ? base_dir : NULL, tpath, &e);
        if (!p->tests)
            return bad_record(p->where, "tests %s: %s", tpath, strerror(e));
    }
    if (!p->tests && !p->inputs && o->verify)
        return bad_record(p->where, "nothing to verify with: give \"tests\" "
                          "(or --tests) or \"inputs\" (call expressions)");
    if (o->vocab && o->mode == LT_DS_REWRITE)
        p->untrusted = 1;
    if (p->tests && o->verify) {
        char *err = NULL;
        p->lane = lt__ds_lane_tests(r, p->path, p->tests, &err);
        if (!p->lane) {
            int c = bad_record(p->where, "%s", err);
            free(err);
            return c;
        }
    } else if (p->inputs && o->verify) {
        p->lane = lt__ds_lane_bare(r);
    }
    return 0;
}

/* The rest of a Java record: its syntax checked, its source root (the
 * file's folder above its package folders), its lane.  A Java record
 * needs neither tests nor inputs: without them, compiling verifies. */
static int java_record(struct ds_run *r, struct ds_prog *p,
                       const json_t *tests, const char *base_dir)
{
    const struct lt_dataset_opts *o = r->o;
    json_t *info = lt__ds_call(r, "java_check",
                               json_pack("{s:s%}", "source", p->code, p->len),
                               p->where);
    if (!json_is_object(info)) {
        json_decref(info);
        if (r->call_rc == LT_EUSAGE)
            return bad_record(p->where, "id %s: the code does not parse: %s",
                              p->id_str, r->call_err);
        lt_error("%s: id %s: cannot check the code: %s", p->where, p->id_str,
                 r->call_err ? r->call_err : "no answer");
        return LT_EXIT_ENGINE;
    }
    char *root = NULL;
    if (p->path) {
        root = xstrdup(p->path);
        *strrchr(root, '/') = '\0';
        /* Strip the package folders, when the file sits in them. */
        const char *pkg = json_string_value(json_object_get(info, "package"));
        char *dup = xstrdup(pkg ? pkg : "");
        char *parts[256];
        int n = 0;
        for (char *tok = strtok(dup, "."); tok && n < 256;
             tok = strtok(NULL, "."))
            parts[n++] = tok;
        int ok = 1;
        char *end = root + strlen(root);
        for (int i = n - 1; i >= 0 && ok; i--) {
            size_t k = strlen(parts[i]);
            char *seg = end - k;
            ok = seg > root && seg[-1] == '/' && strncmp(seg, parts[i], k) == 0;
            if (ok)
                end = seg - 1;
        }
        if (ok && end > root)
            *end = '\0';
        else if (ok)
            strcpy(root, "/");
        free(dup);
    }
    json_decref(info);
    const char *tpath = tests ? json_string_value(tests) : o->tests;
    if (tpath && (p->inputs == NULL || tests)) {
        int e;
        p->tests = resolve(tests ? base_dir : NULL, tpath, &e);
        if (!p->tests) {
            free(root);
            return bad_record(p->where, "tests %s: %s", tpath, strerror(e));
        }
    }
    if (o->vocab && o->mode == LT_DS_REWRITE)
        p->untrusted = 1;
    if (o->verify) {
        char *err = NULL;
        p->lane = lt__ds_lane_java(r, p->path, root, p->tests, &err);
        if (!p->lane) {
            int c = bad_record(p->where, "%s", err);
            free(err);
            free(root);
            return c;
        }
    }
    free(root);
    return 0;
}

static int cmp_prog_id(const void *a, const void *b)
{
    const struct ds_prog *x = *(struct ds_prog *const *)a;
    const struct ds_prog *y = *(struct ds_prog *const *)b;
    int c = strcmp(x->id_str, y->id_str);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

static void add_prog(struct ds_run *r, size_t *cap)
{
    if (r->n_progs == *cap) {
        *cap = *cap ? *cap * 2 : 64;
        r->progs = xrealloc(r->progs, *cap * sizeof(*r->progs));
    }
    memset(&r->progs[r->n_progs], 0, sizeof(struct ds_prog));
    r->progs[r->n_progs].index = r->n_progs;
    r->progs[r->n_progs].base_ms = -1;
    r->n_progs++;
}

static int ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcmp(s + a - b, suf) == 0;
}

/* Without --lang, the first record decides the run's language (a "path"
 * ending in .java: Java); the others must agree: one run, one language. */
static int record_language(struct ds_run *r, struct ds_prog *p)
{
    const char *path = json_string_value(json_object_get(p->rec, "path"));
    int java = path && ends_with(path, ".java");
    int py = path && ends_with(path, ".py");
    if (r->o->lang == LT_LANG_AUTO && r->n_progs == 1)
        r->is_java = java;
    if ((java && !r->is_java) || (py && r->is_java))
        return bad_record(p->where, "a %s program in a run of %s programs: "
                          "run each language on its own (--lang)",
                          java ? "Java" : "Python",
                          r->is_java ? "Java" : "Python");
    return 0;
}

/* Reads every input (JSON Lines files, "-" for stdin, or .py program
 * files) into r->progs.  0, or 2 after a one-line error. */
static int load_inputs(struct ds_run *r)
{
    const struct lt_dataset_opts *o = r->o;
    size_t cap = 0;
    char *const stdin_only[] = {"-"};
    char *const *inputs = o->n_inputs ? o->inputs : stdin_only;
    size_t n_inputs = o->n_inputs ? o->n_inputs : 1;
    for (size_t f = 0; f < n_inputs; f++) {
        const char *name = inputs[f];
        if (f == 0 && o->lang == LT_LANG_AUTO && ends_with(name, ".java"))
            r->is_java = 1;
        if (ends_with(name, r->is_java ? ".java" : ".py")) {
            if (o->mode == LT_DS_SELECT)
                return bad_record(name, "select reads JSON Lines records "
                                  "{id, function_name, code, input, "
                                  "output}, not program files");
            add_prog(r, &cap);
            struct ds_prog *p = &r->progs[r->n_progs - 1];
            p->where = xstrdup(name);
            const char *base = strrchr(name, '/');
            base = base ? base + 1 : name;
            p->rec = json_pack("{s:s%, s:s}", "id", base,
                               strlen(base) - (r->is_java ? 5 : 3), "path",
                               name);
            int rc = prog_from_record(r, p, NULL);
            if (rc)
                return rc;
            continue;
        }
        FILE *in = strcmp(name, "-") == 0 ? stdin : fopen(name, "r");
        if (!in) {
            lt_error("%s: %s", name, strerror(errno));
            return LT_EXIT_USAGE;
        }
        char *dir = NULL;
        if (in != stdin) {
            char *real = realpath(name, NULL);
            char *slash = real ? strrchr(real, '/') : NULL;
            dir = slash ? xstrndup(real, (size_t)(slash - real)) : NULL;
            if (dir && !*dir) {
                free(dir);
                dir = xstrdup("/");
            }
            free(real);
        }
        char *line = NULL;
        size_t lcap = 0;
        ssize_t n;
        long lineno = 0;
        int rc = 0;
        while (rc == 0 && (n = getline(&line, &lcap, in)) >= 0) {
            lineno++;
            size_t k = (size_t)n;
            while (k > 0 && (line[k - 1] == '\n' || line[k - 1] == '\r' ||
                             line[k - 1] == ' ' || line[k - 1] == '\t'))
                k--;
            size_t s = 0;
            while (s < k && (line[s] == ' ' || line[s] == '\t'))
                s++;
            if (s == k)
                continue;
            char *where = xasprintf("%s:%ld", in == stdin ? "<stdin>" : name,
                                    lineno);
            json_error_t je;
            json_t *rec = json_loadb(line + s, k - s, JSON_REJECT_DUPLICATES,
                                     &je);
            if (!json_is_object(rec)) {
                rc = bad_record(where, "not a JSON object%s%s",
                                rec ? "" : ": ", rec ? "" : je.text);
                json_decref(rec);
                free(where);
                break;
            }
            add_prog(r, &cap);
            struct ds_prog *p = &r->progs[r->n_progs - 1];
            p->where = where;
            p->rec = rec;
            rc = record_language(r, p);
            if (rc == 0)
                rc = prog_from_record(r, p, dir);
        }
        if (rc == 0 && ferror(in)) {
            lt_error("%s: %s", name, strerror(errno));
            rc = 2;
        }
        free(line);
        free(dir);
        if (in != stdin)
            fclose(in);
        if (rc)
            return rc;
    }
    /* Ids name the items: they must be unique. */
    struct ds_prog **by_id = xmalloc((r->n_progs + 1) * sizeof(*by_id));
    for (size_t i = 0; i < r->n_progs; i++)
        by_id[i] = &r->progs[i];
    qsort(by_id, r->n_progs, sizeof(*by_id), cmp_prog_id);
    for (size_t i = 1; i < r->n_progs; i++) {
        if (strcmp(by_id[i]->id_str, by_id[i - 1]->id_str) == 0) {
            int c = bad_record(by_id[i]->where, "duplicate id %s (also at "
                               "%s)", by_id[i]->id_str, by_id[i - 1]->where);
            free(by_id);
            return c;
        }
    }
    free(by_id);
    return 0;
}

/*** The run ***/

struct ds_mode {
    int (*prepare)(struct ds_run *r, struct ds_prog *p);
    void (*start)(struct ds_run *r, struct ds_prog *p);
    void (*free)(struct ds_prog *p);
};

static void rewrite_free(struct ds_prog *p)
{
    lt__ds_rewrite_free(NULL, p);
}

static const struct ds_mode modes[] = {
    [LT_DS_SELECT] = {lt__ds_select_prepare, lt__ds_select_start,
                      lt__ds_select_free},
    [LT_DS_TYPED] = {lt__ds_typed_prepare, lt__ds_variants_start,
                     lt__ds_variants_free},
    [LT_DS_FAULTS] = {lt__ds_faults_prepare, lt__ds_variants_start,
                      lt__ds_variants_free},
    [LT_DS_REWRITE] = {lt__ds_rewrite_prepare, lt__ds_rewrite_start,
                       rewrite_free},
};

static json_t *summary_json(struct ds_run *r, double wall)
{
    const struct lt_dataset_opts *o = r->o;
    double exec = r->t_last_job > r->t_first_job
                      ? r->t_last_job - r->t_first_job
                      : 0;
    json_t *s = json_object();
    json_object_set_new(s, "mode", json_string(lt_dataset_mode_name(o->mode)));
    json_object_set_new(s, "seed", json_integer((json_int_t)o->seed));
    json_object_set_new(s, "programs", json_integer((json_int_t)r->n_progs));
    json_object_set_new(s, "programs_skipped",
                        json_integer((json_int_t)r->s.programs_skipped));
    json_object_set_new(s, "items", json_integer((json_int_t)r->s.emitted));
    json_object_set_new(s, "candidates",
                        json_integer((json_int_t)r->s.candidates));
    json_object_set_new(s, "verified",
                        json_integer((json_int_t)r->s.verified));
    json_object_set(s, "dropped", r->s.dropped);
    json_object_set(s, "by_operator", r->s.by_op);
    json_object_set(s, "by_category", r->s.by_cat);
    json_object_set(s, "by_location", r->s.by_loc);
    json_object_set_new(s, "runs", json_integer((json_int_t)r->s.jobs_run));
    json_object_set_new(s, "cached",
                        json_integer((json_int_t)r->s.cache_hits));
    json_object_set_new(s, "retries",
                        json_integer((json_int_t)(r->s.retries +
                                                  r->ex.retries)));
    json_object_set_new(s, "engine_errors",
                        json_integer((json_int_t)r->s.engine_errors));
    json_object_set_new(s, "jobs", json_integer(o->run.jobs));
    json_object_set_new(s, "wall_s", json_real(wall));
    json_object_set_new(s, "prepare_s", json_real(r->t_prepared - r->t_start));
    json_object_set_new(s, "runs_s", json_real(exec));
    json_object_set_new(s, "items_per_s",
                        json_real(wall > 0 ? (double)r->s.emitted / wall : 0));
    json_object_set_new(s, "runs_per_s",
                        json_real(exec > 0 ? (double)r->s.jobs_run / exec
                                           : 0));
    if (r->is_java) {
        /* Where the Java workers' time went: compiling, or running the
         * tests and calls (CPU ms as the workers measured them). */
        json_object_set_new(
            s, "java",
            json_pack("{s:f, s:f, s:I, s:I}", "compile_ms",
                      r->s.java_compile_ms, "run_ms", r->s.java_run_ms,
                      "compiles", (json_int_t)r->s.java_compiles,
                      "workers_started", (json_int_t)r->s.java_workers));
    }
    return s;
}

static void counts_text(struct lt_buf *b, const char *title, json_t *o)
{
    if (json_object_size(o) == 0)
        return;
    const char *k;
    json_t *v;
    int first = 1;
    lt_buf_printf(b, "\n  %s:", title);
    json_object_foreach(o, k, v) {
        lt_buf_printf(b, "%s %s %" JSON_INTEGER_FORMAT, first ? "" : ",", k,
                      json_integer_value(v));
        first = 0;
    }
}

static void summary_text(struct ds_run *r, json_t *s)
{
    struct lt_buf b = LT_BUF_INIT;
    lt_buf_printf(&b, "litmus dataset %s: %zu program%s (%zu skipped), %zu "
                  "items, %zu verified of %zu candidates; %zu runs (%zu "
                  "cached) in %.2f s, %.1f items/s",
                  lt_dataset_mode_name(r->o->mode), r->n_progs,
                  r->n_progs == 1 ? "" : "s",
                  r->s.programs_skipped, r->s.emitted, r->s.verified,
                  r->s.candidates, r->s.jobs_run, r->s.cache_hits,
                  json_real_value(json_object_get(s, "wall_s")),
                  json_real_value(json_object_get(s, "items_per_s")));
    counts_text(&b, "dropped", r->s.dropped);
    counts_text(&b, "by operator", r->s.by_op);
    counts_text(&b, "by category", r->s.by_cat);
    counts_text(&b, "by location", r->s.by_loc);
    const json_t *fl = json_object_get(s, "floor");
    if (fl) {
        lt_buf_printf(&b, "\n  floor: %zu runs x %.2f ms fork + %.3f s "
                      "in-process (+ %.3f s timeouts) = %.3f s over %d "
                      "jobs; runs took %.3f s: %.2fx the floor",
                      (size_t)json_integer_value(json_object_get(fl, "runs")),
                      json_real_value(json_object_get(fl, "fork_ms")),
                      json_real_value(json_object_get(fl, "inproc_s")),
                      json_real_value(json_object_get(fl, "timeouts_s")),
                      json_real_value(json_object_get(fl, "floor_s")),
                      r->o->run.jobs,
                      json_real_value(json_object_get(fl, "runs_s")),
                      json_real_value(json_object_get(fl, "ratio")));
    }
    lt_buf_puts(&b, "\n");
    fputs(b.data, stderr);
    lt_buf_free(&b);
}

static void prog_free(const struct lt_dataset_opts *o, struct ds_prog *p)
{
    if (p->m)
        modes[o->mode].free(p);
    free(p->where);
    json_decref(p->rec);
    free(p->id_str);
    free(p->code);
    free(p->path);
    free(p->tests);
    json_decref(p->items);
    lt_buf_free(&p->raw);
}

/*** Shards ***/

/* The run's plan as a string: the mode, every option that decides an
 * item, and a hash of every program's id and text (before the deal), so
 * that `litmus merge` can tell the shards of one run from others. */
static char *plan_fingerprint(const struct ds_run *r)
{
    const struct lt_dataset_opts *o = r->o;
    struct lt_sha256 h;
    uint8_t d[32];
    char hex[65];
    lt_sha256_init(&h);
    for (size_t i = 0; i < r->n_progs; i++) {
        const struct ds_prog *p = &r->progs[i];
        lt_sha256_update(&h, p->id_str, strlen(p->id_str) + 1);
        lt_sha256_update(&h, p->code ? p->code : "", p->code ? p->len : 0);
        lt_sha256_update(&h, "", 1);
        lt_sha256_update(&h, p->tests ? p->tests : "",
                         p->tests ? strlen(p->tests) + 1 : 1);
    }
    lt_sha256_final(&h, d);
    for (int i = 0; i < 32; i++)
        snprintf(hex + 2 * i, 3, "%02x", d[i]);
    struct lt_buf b = LT_BUF_INIT;
    lt_buf_printf(&b, "mode=%s\nseed=%llu\nprograms=%zu\nprograms_sha256=%s\n",
                  lt_dataset_mode_name(o->mode), o->seed, r->n_progs, hex);
    lt_buf_printf(&b, "operators=%s\nall=%d\ndetails=%d\nper_cell=%d\n"
                      "per_program=%d\nquarter=%d\nkinds=%s\nops=%s\n"
                      "strength=%d\nvariants=%d\nvocab=%s\nverify=%d\n"
                      "tests=%s\n",
                  o->operators ? o->operators : "", o->all, o->details,
                  o->per_cell, o->per_program, o->quarter,
                  o->kinds ? o->kinds : "", o->ops ? o->ops : "",
                  o->strength, o->variants, o->vocab ? o->vocab : "",
                  o->verify, o->tests ? o->tests : "");
    return lt_buf_steal(&b);
}

/* Keeps the programs dealt to shard index/count and frees the others.
 * The deal: programs sorted by id, round-robin, so shards differ by at
 * most one program and the same input always deals the same way.  The
 * kept ones stay in input order (their output order). */
static void shard_programs(struct ds_run *r, unsigned index, unsigned count)
{
    unsigned char *keep = xcalloc(r->n_progs + 1, 1);
    lt__shard_deal(r->progs, r->n_progs, sizeof(*r->progs), cmp_prog_id,
                   index, count, keep);
    size_t w = 0;
    for (size_t i = 0; i < r->n_progs; i++) {
        if (!keep[i]) {
            prog_free(r->o, &r->progs[i]);
            continue;
        }
        if (w != i)
            r->progs[w] = r->progs[i];
        r->progs[w].index = w;
        w++;
    }
    r->n_progs = w;
    free(keep);
}

/* Contract: see engine.h. */
/* --vocab: the rewrite mode's texts from a JSON object.  0, or the exit
 * code after printing why. */
static int read_vocab(struct ds_run *r)
{
    const char *path = r->o->vocab;
    if (!path)
        return 0;
    json_error_t je;
    r->vocab = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
    if (json_is_object(r->vocab))
        return 0;
    /* A line number only where the JSON did not parse at a line. */
    char where[32] = "";
    if (!r->vocab && je.line > 0)
        snprintf(where, sizeof(where), ":%d", je.line);
    lt_error("%s%s: the vocabulary must be a JSON object {\"names\", "
             "\"comments\", \"dead_code\"}%s%s", path, where,
             r->vocab ? "" : ": ", r->vocab ? "" : je.text);
    return LT_EXIT_USAGE;
}

/* Where the records go: -o FILE through FILE.tmp (renamed into place by
 * close_output once the run succeeded), or stdout.  0, or the exit code
 * after printing why. */
static int open_output(struct ds_run *r, char **tmp_out)
{
    const char *out = r->o->out;
    if (!out || strcmp(out, "-") == 0) {
        r->out = stdout;
        return 0;
    }
    /* A device or a pipe (-o /dev/null, a fifo) is written in place: a
     * rename would replace it with a file. */
    struct stat st;
    if (stat(out, &st) == 0 && !S_ISREG(st.st_mode)) {
        r->out = fopen(out, "w");
        if (r->out)
            return 0;
        lt_error("%s: %s", out, strerror(errno));
        return LT_EXIT_USAGE;
    }
    *tmp_out = xasprintf("%s.tmp", out);
    r->out = fopen(*tmp_out, "w");
    if (r->out)
        return 0;
    lt_error("%s: %s", out, strerror(errno));
    return LT_EXIT_USAGE;
}

/* Opens --db for a verified run: the dataset table, a shard's store used
 * as the same shard only, and the run's settings (plan) with
 * "dataset_complete" 0 until it ends.  0, or the exit code after
 * printing why. */
static int open_store(struct ds_run *r, const char *plan, const char *shard)
{
    const char *db = r->o->run.db;
    char *msg = NULL;
    int rc = lt_store_open(db, &r->st, &msg);
    if (rc < 0) {
        lt_error("%s: %s", db, msg ? msg : lt_strerror(rc));
        free(msg);
        return lt_exit_from_error(rc);
    }
    rc = lt_store_dataset_init(r->st);
    if (rc < 0)
        return lt__store_write_failed(r->st, db, rc);
    /* A shard's store holds that shard's runs: used as another shard, the
     * merge would take it for that one.  (Runs are keyed by content, so a
     * store of the whole run may serve a shard.) */
    char *was = NULL;
    rc = lt_store_get_meta(r->st, lt_dataset_shard_store.shard_key, &was);
    if (rc < 0) {
        lt_error("%s: %s", db, lt_store_errmsg(r->st));
        return LT_EXIT_ENGINE;
    }
    if (was && strcmp(was, shard) != 0) {
        lt_error("%s holds %s%s, not %s%s; use another --db", db,
                 *was ? "dataset shard " : "the whole run", was,
                 *shard ? "shard " : "the whole run", shard);
        free(was);
        return LT_EXIT_USAGE;
    }
    free(was);
    if (*shard)
        rc = lt_store_set_meta(r->st, lt_dataset_shard_store.shard_key, shard);
    if (rc == 0)
        rc = lt_store_set_meta(r->st, lt_dataset_shard_store.settings_key,
                               plan);
    if (rc == 0)
        rc = lt_store_set_meta(r->st, lt_dataset_shard_store.complete_key, "0");
    return rc < 0 ? lt__store_write_failed(r->st, db, rc) : 0;
}

/* Runs every program's work on the executor, in the mode's way.  0, or
 * the exit code. */
static int run_programs(struct ds_run *r)
{
    lt__progress_init(&r->prog, r->o->run.progress, "programs");
    for (size_t i = 0; i < r->n_progs && !r->ex.fatal; i++)
        modes[r->o->mode].start(r, &r->progs[i]);
    int code = lt__ds_loop(r);
    if (code == 0 && r->next_emit < r->n_progs) {
        lt_error("internal error: %zu programs were never finished",
                 r->n_progs - r->next_emit);
        code = LT_EXIT_ENGINE;
    }
    return code;
}

/* The run's summary: the runners' floor when --floor asks, the text on
 * stderr, --summary FILE, and "dataset_complete" 1 in the store.  0, or
 * the exit code after printing why. */
static int finish(struct ds_run *r)
{
    const struct lt_dataset_opts *o = r->o;
    json_t *summary = summary_json(r, lt__now() - r->t_start);
    int code = o->floor ? lt__ds_floor(r, summary) : 0;
    if (code == 0) {
        summary_text(r, summary);
        if (o->summary) {
            struct lt_buf b = LT_BUF_INIT;
            lt__ds_dump(summary, &b);
            lt_buf_puts(&b, "\n");
            FILE *f = fopen(o->summary, "w");
            if (!f || fwrite(b.data, 1, b.len, f) != b.len) {
                lt_error("%s: %s", o->summary, strerror(errno));
                code = LT_EXIT_USAGE;
            }
            if (f)
                fclose(f);
            lt_buf_free(&b);
        }
    }
    json_decref(summary);
    if (code == 0 && r->st) {
        int rc = lt_store_set_meta(r->st, lt_dataset_shard_store.complete_key,
                                   "1");
        if (rc < 0)
            code = lt__store_write_failed(r->st, o->run.db, rc);
    }
    return code;
}

/* Closes -o: FILE.tmp becomes FILE when the run succeeded (code 0) and
 * is removed otherwise.  Returns the run's exit code, 3 when the file
 * could not be completed. */
static int close_output(struct ds_run *r, int code, const char *tmp_out)
{
    const char *out = r->o->out;
    if (r->out && r->out != stdout) {
        int bad = fclose(r->out) != 0;
        if (code == 0 && bad) {
            lt_error("%s: %s", out, strerror(errno));
            code = LT_EXIT_ENGINE;
        }
        if (code == 0 && tmp_out && rename(tmp_out, out) < 0) {
            lt_error("%s: %s", out, strerror(errno));
            code = LT_EXIT_ENGINE;
        }
        if (code != 0 && tmp_out)
            unlink(tmp_out);
    } else if (r->out) {
        fflush(stdout);
    }
    return code;
}

/* Releases what the run made. */
static void run_free(struct ds_run *r)
{
    lt_store_close(r->st);
    for (size_t i = 0; i < r->n_progs; i++)
        prog_free(r->o, &r->progs[i]);
    free(r->progs);
    json_decref(r->vocab);
    json_decref(r->s.dropped);
    json_decref(r->s.by_op);
    json_decref(r->s.by_cat);
    json_decref(r->s.by_loc);
    json_decref(r->s.floor_cases);
    free(r->call_err);
}

/* Contract: see engine.h.  The steps: the inputs read and this shard's
 * programs prepared in the mode's way, the output and the store opened,
 * the programs run, the summary written. */
int lt_dataset(const struct lt_dataset_opts *o)
{
    struct ds_run r;
    memset(&r, 0, sizeof(r));
    lt_exec_init(&r.ex, o->run.jobs);
    r.o = o;
    r.s.dropped = json_object();
    r.s.by_op = json_object();
    r.s.by_cat = json_object();
    r.s.by_loc = json_object();
    r.s.floor_cases = json_array();
    r.t_start = lt__now();
    char *tmp_out = NULL, *plan = NULL;
    char shard[48] = "";

    r.is_java = o->lang == LT_LANG_JAVA;
    int code = read_vocab(&r);
    if (code == 0 && o->lang == LT_LANG_JAVA &&
        (o->mode == LT_DS_SELECT || o->mode == LT_DS_TYPED)) {
        lt_error("dataset %s takes Python programs; Java programs go to "
                 "faults and rewrite", lt_dataset_mode_name(o->mode));
        code = LT_EXIT_USAGE;
    }
    if (code == 0 && lt_operators_init() < 0) {
        lt_error("cannot start the embedded Python for the generators");
        code = LT_EXIT_ENGINE;
    }
    if (code == 0)
        code = load_inputs(&r);
    if (code == 0 && r.is_java &&
        (o->mode == LT_DS_SELECT || o->mode == LT_DS_TYPED)) {
        lt_error("dataset %s takes Python programs; Java programs go to "
                 "faults and rewrite", lt_dataset_mode_name(o->mode));
        code = LT_EXIT_USAGE;
    }
    if (code == 0 && r.is_java && o->floor) {
        lt_error("--floor measures the Python runners; drop it with Java");
        code = LT_EXIT_USAGE;
    }
    if (code == 0) {
        plan = plan_fingerprint(&r);
        if (o->run.shard_count) {
            snprintf(shard, sizeof(shard), "%u/%u", o->run.shard_index,
                     o->run.shard_count);
            shard_programs(&r, o->run.shard_index, o->run.shard_count);
        }
    }
    for (size_t i = 0; code == 0 && i < r.n_progs; i++)
        code = modes[o->mode].prepare(&r, &r.progs[i]);
    r.t_prepared = lt__now();
    if (code == 0)
        code = open_output(&r, &tmp_out);
    if (code == 0 && o->run.db && o->verify)
        code = open_store(&r, plan, shard);
    free(plan);
    if (code == 0)
        code = run_programs(&r);
    if (code == 0)
        code = finish(&r);
    lt__ds_exec_close(&r);
    code = close_output(&r, code, tmp_out);
    free(tmp_out);
    run_free(&r);
    return code;
}
