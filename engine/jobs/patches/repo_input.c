/* `litmus patches` on repositories: its inputs.  SWE-bench's instances
 * and predictions (JSON Lines or a JSON array), the folder of clones,
 * the environment of each (repository, version), and the CI form on the
 * repository at hand (--repo, --base, --candidate, --reference).  Bad
 * input is one line naming the file, the line or instance, and the
 * field, then exit 2.  SPDX-License-Identifier: MIT */
#include "engine/jobs/patches/repo_internal.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/log.h"
#include "common/run.h"
#include "common/sha256.h"
#include "common/xmalloc.h"
#include "engine/core/shard.h"

/*** Records ***/

static int bad(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int bad(const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    lt_error("%s", msg);
    return -1;
}

/* The records of a file that holds JSON Lines or one JSON array of
 * objects: *recs (a JSON array) and, per record, its line (0 inside an
 * array).  0, or -1 after an error printed. */
static int read_records(const char *path, const char *what, json_t **recs,
                        long **lines)
{
    char *text = NULL;
    size_t len = 0;
    int rc = lt_read_file(path, &text, &len);
    if (rc < 0)
        return bad("%s %s: %s", what, path, lt_strerror(rc));
    *recs = json_array();
    *lines = NULL;
    size_t cap = 0, n = 0;
    const char *p = text;
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    if (*p == '[') {
        json_error_t je;
        json_t *all = json_loadb(text, len, 0, &je);
        if (!json_is_array(all)) {
            json_decref(all);
            free(text);
            return bad("%s %s: line %d: not a JSON array of objects: %s",
                       what, path, je.line, je.text);
        }
        json_decref(*recs);
        *recs = all;
        *lines = xcalloc(json_array_size(all) + 1, sizeof(long));
    } else {
        long line = 0;
        char *save = NULL;
        for (char *s = strtok_r(text, "\n", &save); s;
             s = strtok_r(NULL, "\n", &save)) {
            line++;
            /* strtok_r skips empty lines: count them back. */
            for (char *q = s - 1; q > text && q[-1] == '\n' && q[0] == '\n';
                 q--)
                line++;
            char *e = s + strlen(s);
            while (e > s && (e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t'))
                *--e = '\0';
            if (!*s)
                continue;
            json_error_t je;
            json_t *o = json_loads(s, 0, &je);
            if (!o) {
                free(text);
                return bad("%s %s: line %ld: not JSON: %s", what, path, line,
                           je.text);
            }
            if (n == cap) {
                cap = cap ? 2 * cap : 64;
                *lines = xrealloc(*lines, cap * sizeof(long));
            }
            (*lines)[n++] = line;
            json_array_append_new(*recs, o);
        }
    }
    free(text);
    size_t i;
    json_t *o;
    json_array_foreach(*recs, i, o) {
        if (!json_is_object(o))
            return bad("%s %s: %s %zu is not a JSON object", what, path,
                       (*lines)[i] ? "line" : "record",
                       (*lines)[i] ? (size_t)(*lines)[i] : i + 1);
    }
    return 0;
}

/* "file: line N: instance X" for messages. */
static char *where_of(const char *path, long line, const char *id)
{
    if (line && id)
        return xasprintf("%s: line %ld: instance %s", path, line, id);
    if (line)
        return xasprintf("%s: line %ld", path, line);
    if (id)
        return xasprintf("%s: instance %s", path, id);
    return xstrdup(path);
}

/* A required string field. */
static const char *field_str(const json_t *o, const char *key,
                             const char *where, int *err)
{
    const json_t *v = json_object_get(o, key);
    if (!json_is_string(v)) {
        *err = bad("%s: field '%s' %s", where, key,
                   v ? "must be a string" : "is missing");
        return NULL;
    }
    return json_string_value(v);
}

/* A test list: a JSON list of strings, or a string holding one (as the
 * published datasets store them). */
static int field_tests(const json_t *o, const char *key, const char *where,
                       struct strv *out)
{
    const json_t *v = json_object_get(o, key);
    json_t *parsed = NULL;
    if (!v)
        return bad("%s: field '%s' is missing", where, key);
    if (json_is_string(v)) {
        json_error_t je;
        parsed = json_loads(json_string_value(v), JSON_DECODE_ANY, &je);
        if (!json_is_array(parsed)) {
            json_decref(parsed);
            return bad("%s: field '%s' is a string but not a JSON list of "
                       "test ids", where, key);
        }
        v = parsed;
    }
    if (!json_is_array(v)) {
        json_decref(parsed);
        return bad("%s: field '%s' must be a list of test ids", where, key);
    }
    size_t i;
    const json_t *t;
    json_array_foreach(v, i, t) {
        if (!json_is_string(t) || !*json_string_value(t)) {
            json_decref(parsed);
            return bad("%s: field '%s': item %zu is not a test id", where,
                       key, i + 1);
        }
        if (!lt__strv_has(out, json_string_value(t)))
            lt__strv_push(out, json_string_value(t));
    }
    json_decref(parsed);
    return 0;
}

static int is_dir(const char *p)
{
    struct stat sb;
    return stat(p, &sb) == 0 && S_ISDIR(sb.st_mode);
}

/* The clone of repo (owner/name) under dir: owner__name or owner/name. */
static char *clone_of(const char *dir, const char *repo)
{
    char *flat = xstrdup(repo);
    for (char *s = flat; *s; s++)
        if (*s == '/')
            *s = '\0';
    const char *slash = strchr(repo, '/');
    char *a = slash ? xasprintf("%s/%s__%s", dir, flat, slash + 1)
                    : xasprintf("%s/%s", dir, repo);
    free(flat);
    if (is_dir(a))
        return a;
    free(a);
    a = xasprintf("%s/%s", dir, repo);
    if (is_dir(a))
        return a;
    free(a);
    return NULL;
}

/* The interpreter of (repo, version) in the --env mapping: a python
 * executable or a venv folder (its bin/python), relative to the mapping's
 * folder.  NULL when the mapping names none. */
static char *env_python(const json_t *env, const char *env_dir,
                        const char *repo, const char *version)
{
    const json_t *m = json_object_get(env, repo);
    if (!m)
        m = json_object_get(env, "*");
    const json_t *v = NULL;
    if (json_is_string(m))
        v = m;
    else if (json_is_object(m)) {
        v = version ? json_object_get(m, version) : NULL;
        if (!v)
            v = json_object_get(m, "*");
    }
    if (!json_is_string(v))
        return NULL;
    const char *p = json_string_value(v);
    char *abs = p[0] == '/' ? xstrdup(p) : xasprintf("%s/%s", env_dir, p);
    if (is_dir(abs)) {
        char *py = xasprintf("%s/bin/python", abs);
        free(abs);
        return py;
    }
    return abs;
}

static char *dir_of(const char *path)
{
    char *real = realpath(path, NULL);
    if (!real)
        return xstrdup(".");
    char *slash = strrchr(real, '/');
    if (slash == real)
        slash[1] = '\0';
    else if (slash)
        *slash = '\0';
    return real;
}

void lt__ri_inst_free(struct rinst *in)
{
    if (!in)
        return;
    free(in->id);
    free(in->repo);
    free(in->base);
    free(in->version);
    free(in->patch);
    free(in->test_patch);
    lt__strv_free(&in->f2p);
    lt__strv_free(&in->p2p);
    free(in->python);
    free(in->clone);
    free(in->tree);
    free(in->apply_tree);
    lt__strv_free(&in->test_files);
    lt__strv_free(&in->named);
    free(in->ci_first);
    json_decref(in->home_base);
    lt__strv_free(&in->wider_files);
    lt__strv_free(&in->documented);
    free(in->ovs);
    for (size_t i = 0; i < in->n_subjects; i++) {
        free((char *)in->subjects[i].path);
        free((char *)in->subjects[i].source);
    }
    free(in->subjects);
    lt__strv_free(&in->args[0]);
    lt__strv_free(&in->args[1]);
    free(in->libpython);
    free(in->diff_module);
    json_decref(in->diff_also);
    lt__strv_free(&in->unpin);
    free(in->diff_path);
    free(in->path_prefix);
    free(in);
}

static struct rinst *find_inst(const struct repo_run *r, const char *id)
{
    for (size_t i = 0; i < r->n_insts; i++)
        if (strcmp(r->insts[i]->id, id) == 0)
            return r->insts[i];
    return NULL;
}

/*** SWE-bench's files ***/

static int read_instances(struct repo_run *r, const json_t *env,
                          const char *env_dir)
{
    const struct lt_patches_opts *o = r->o;
    json_t *recs = NULL;
    long *lines = NULL;
    if (read_records(o->instances, "--instances", &recs, &lines) < 0) {
        json_decref(recs);
        free(lines);
        return -1;
    }
    int err = 0;
    size_t i;
    json_t *rec;
    r->insts = xcalloc(json_array_size(recs) + 1, sizeof(*r->insts));
    json_array_foreach(recs, i, rec) {
        const json_t *idv = json_object_get(rec, "instance_id");
        char *w = where_of(o->instances, lines[i],
                           json_is_string(idv) ? json_string_value(idv)
                                               : NULL);
        const char *id = field_str(rec, "instance_id", w, &err);
        const char *repo = id ? field_str(rec, "repo", w, &err) : NULL;
        const char *base = repo ? field_str(rec, "base_commit", w, &err)
                                : NULL;
        const char *patch = base ? field_str(rec, "patch", w, &err) : NULL;
        const char *tp = patch ? field_str(rec, "test_patch", w, &err)
                               : NULL;
        if (err) {
            free(w);
            break;
        }
        if (find_inst(r, id)) {
            err = bad("%s: instance_id '%s' appears twice", w, id);
            free(w);
            break;
        }
        struct rinst *in = xcalloc(1, sizeof(*in));
        r->insts[r->n_insts++] = in;
        in->id = xstrdup(id);
        in->repo = xstrdup(repo);
        in->base = xstrdup(base);
        in->patch = xstrdup(patch);
        in->test_patch = xstrdup(tp);
        in->where = o->instances;
        in->line = lines[i];
        const json_t *ver = json_object_get(rec, "version");
        if (json_is_string(ver))
            in->version = xstrdup(json_string_value(ver));
        else if (json_is_number(ver))
            in->version = xasprintf("%g", json_number_value(ver));
        if (field_tests(rec, "FAIL_TO_PASS", w, &in->f2p) < 0 ||
            field_tests(rec, "PASS_TO_PASS", w, &in->p2p) < 0) {
            err = -1;
            free(w);
            break;
        }
        if (strlen(base) < 7 || strspn(base, "0123456789abcdefABCDEF") !=
                                    strlen(base)) {
            err = bad("%s: field 'base_commit' is not a commit id ('%s')", w,
                      base);
            free(w);
            break;
        }
        in->python = env ? env_python(env, env_dir, repo, in->version) : NULL;
        if (!in->python && o->python)
            in->python = xstrdup(o->python);
        free(w);
    }
    json_decref(recs);
    free(lines);
    return err ? -1 : 0;
}

static int read_predictions(struct repo_run *r)
{
    const struct lt_patches_opts *o = r->o;
    json_t *recs = NULL;
    long *lines = NULL;
    if (read_records(o->predictions, "--predictions", &recs, &lines) < 0) {
        json_decref(recs);
        free(lines);
        return -1;
    }
    int err = 0;
    size_t i;
    json_t *rec;
    r->cands = xcalloc(json_array_size(recs) + 1, sizeof(*r->cands));
    json_array_foreach(recs, i, rec) {
        const json_t *idv = json_object_get(rec, "instance_id");
        char *w = where_of(o->predictions, lines[i],
                           json_is_string(idv) ? json_string_value(idv)
                                               : NULL);
        const char *id = field_str(rec, "instance_id", w, &err);
        const char *model = id ? field_str(rec, "model_name_or_path", w,
                                           &err)
                               : NULL;
        const json_t *pv = json_object_get(rec, "model_patch");
        if (!err && pv && !json_is_string(pv) && !json_is_null(pv))
            err = bad("%s: field 'model_patch' must be a string", w);
        else if (!err && !pv)
            err = bad("%s: field 'model_patch' is missing", w);
        struct rinst *in = err ? NULL : find_inst(r, id);
        if (!err && !in)
            err = bad("%s: no instance '%s' in %s", w, id, o->instances);
        for (size_t k = 0; !err && k < r->n_cands; k++)
            if (r->cands[k].inst == in &&
                strcmp(r->cands[k].model, model) == 0)
                err = bad("%s: a second prediction of model '%s'", w, model);
        if (err) {
            free(w);
            break;
        }
        const char *patch = json_is_string(pv) ? json_string_value(pv) : "";
        struct rcand *c = &r->cands[r->n_cands++];
        c->seq = (long long)r->n_cands;
        c->instance_id = xstrdup(id);
        c->model = xstrdup(model);
        c->patch = xstrdup(patch);
        c->len = strlen(patch);
        c->inst = in;
        c->where = o->predictions;
        c->line = lines[i];
        in->n_cands++;
        free(w);
    }
    json_decref(recs);
    free(lines);
    if (!err && r->n_cands == 0)
        err = bad("--predictions %s: no prediction found", o->predictions);
    return err ? -1 : 0;
}

/*** The CI form ***/

/* The full commit id of rev in repo, or NULL. */
static char *rev_parse(const char *repo, const char *rev)
{
    char *spec = xasprintf("%s^{commit}", rev);
    char *argv[] = {"git", "rev-parse", "--verify", "-q", spec, NULL};
    char *out = NULL;
    int rc = lt_run_capture(argv, repo, NULL, 4096, &out, NULL);
    free(spec);
    if (rc != 0 || !out) {
        free(out);
        return NULL;
    }
    out[strcspn(out, "\n")] = '\0';
    return out;
}

/* A candidate or reference of the CI form: a diff file, or a revision
 * whose diff from the base is taken.  Heap text, or NULL after an error
 * printed. */
static char *ci_diff(const char *repo, const char *base, const char *what,
                     const char *spec)
{
    struct stat sb;
    if (stat(spec, &sb) == 0 && S_ISREG(sb.st_mode)) {
        char *text = NULL;
        size_t len = 0;
        int rc = lt_read_file(spec, &text, &len);
        if (rc < 0) {
            bad("%s %s: %s", what, spec, lt_strerror(rc));
            return NULL;
        }
        return text;
    }
    char *sha = rev_parse(repo, spec);
    if (!sha) {
        bad("%s %s: neither a diff file nor a revision of %s", what, spec,
            repo);
        return NULL;
    }
    char *argv[] = {"git", "diff", "--no-color", "--no-ext-diff",
                    "--full-index", (char *)base, sha, NULL};
    char *out = NULL, *err = NULL;
    int rc = lt_run_capture(argv, repo, NULL, LT_REPO_MAX_DIFF + 1, &out,
                            &err);
    free(sha);
    if (rc != 0) {
        bad("%s %s: git diff failed: %s", what, spec, err ? err : "");
        free(out);
        free(err);
        return NULL;
    }
    free(err);
    return out;
}

/* The part of a diff that touches test files (tests 1) or the rest
 * (tests 0). */
static char *diff_part(const struct rinst *in, const char *diff, int tests)
{
    struct lt_buf b = LT_BUF_INIT;
    struct lt__diff_block blk;
    for (const char *at = diff; lt__rt_next_block(&at, &blk);) {
        const char *kind = lt__rt_protected(in, blk.path);
        if ((kind && (strcmp(kind, "test") == 0 ||
                      strcmp(kind, "instance_test") == 0)) == tests)
            lt_buf_append(&b, blk.start, blk.len);
        free(blk.path);
    }
    lt_buf_puts(&b, "");
    return lt_buf_steal(&b);
}

/* The files of the tree at rev under rel (rel itself when it is a
 * file), into out; 0 when there is none. */
static size_t tree_files(const char *repo, const char *rev, const char *rel,
                         struct strv *out)
{
    char *argv[] = {"git", "-c", "core.quotePath=false", "ls-tree", "-r",
                    "--name-only", (char *)rev, "--", (char *)rel, NULL};
    char *text = NULL;
    size_t n = 0;
    if (lt_run_capture(argv, repo, NULL, 1 << 24, &text, NULL) == 0 && text)
        for (char *line = strtok(text, "\n"); line;
             line = strtok(NULL, "\n")) {
            lt__strv_push(out, line);
            n++;
        }
    free(text);
    return n;
}

/* One --tests value of the CI form: a file or folder (its test files
 * join the instance's test files) or a node id (it joins in->named), as
 * a path relative to the working directory or to the repository,
 * present at the base or added by the test patch.  0, or -1 after an
 * error printed. */
static int ci_named_test(struct rinst *in, const char *given,
                         const struct strv *patch_files)
{
    const char *sep = strstr(given, "::");
    char *path = sep ? xstrndup(given, (size_t)(sep - given))
                     : xstrdup(given);
    size_t pl = strlen(path);
    while (pl > 1 && path[pl - 1] == '/')
        path[--pl] = '\0';
    /* A relative path is taken from the working directory when that is
     * inside the repository, else from the repository's root. */
    size_t rl = strlen(in->clone);
    char *cwd = getcwd(NULL, 0);
    int inside = cwd && strncmp(cwd, in->clone, rl) == 0 &&
                 (cwd[rl] == '/' || cwd[rl] == '\0');
    char *full = path[0] == '/' ? xstrdup(path)
                                : xasprintf("%s/%s", inside ? cwd : in->clone,
                                            path);
    free(cwd);
    char *abs = realpath(full, NULL);
    const char *at = abs ? abs : full;
    char *rel = NULL;
    if (strncmp(at, in->clone, rl) == 0 && (at[rl] == '/' || !at[rl])) {
        rel = xstrdup(at[rl] ? at + rl + 1 : ".");
        while (strncmp(rel, "./", 2) == 0)
            memmove(rel, rel + 2, strlen(rel + 2) + 1);
    }
    free(abs);
    free(full);
    if (!rel || strstr(rel, "/./") || strstr(rel, "..") || !*rel) {
        free(rel);
        free(path);
        return bad("--tests %s: not a path inside --repo %s", given,
                   in->clone);
    }
    struct strv files = {0};
    int whole = strcmp(rel, ".") == 0;
    tree_files(in->clone, in->base, whole ? "." : rel, &files);
    for (size_t i = 0; i < patch_files->n; i++) {
        const char *f = patch_files->v[i];
        size_t n = strlen(rel);
        if ((whole || strcmp(f, rel) == 0 ||
             (strncmp(f, rel, n) == 0 && f[n] == '/')) &&
            !lt__strv_has(&files, f))
            lt__strv_push(&files, f);
    }
    int is_file = files.n == 1 && strcmp(files.v[0], rel) == 0;
    const char *kind = is_file ? lt__rt_protected(in, rel) : "test";
    int rc = 0;
    if (!kind || strcmp(kind, "test") != 0) {
        /* A package file taken as a test would leave the candidates'
         * changes to it out. */
        rc = bad("--tests %s: %s is not a test file (test_*.py, *_test.py "
                 "or in a tests folder)", given, rel);
    } else if (!files.n) {
        rc = bad("--tests %s: no such file or folder in %s at %.12s (nor "
                 "added by the tests' diff)", given, in->clone, in->base);
    } else if (sep && !is_file) {
        rc = bad("--tests %s: %s is not a file", given, rel);
    } else if (sep) {
        char *id = xasprintf("%s%s", rel, sep);
        if (!lt__strv_has(&in->named, id))
            lt__strv_push(&in->named, id);
        free(id);
    } else {
        /* A file as named; in a folder, the files pytest collects by
         * their names (test_*.py, *_test.py). */
        size_t taken = 0;
        for (size_t i = 0; i < files.n; i++) {
            const char *slash = strrchr(files.v[i], '/');
            const char *name = slash ? slash + 1 : files.v[i];
            size_t n = strlen(name);
            if (!is_file &&
                (n < 8 || strcmp(name + n - 3, ".py") != 0 ||
                 (strncmp(name, "test_", 5) != 0 &&
                  strcmp(name + n - 8, "_test.py") != 0)))
                continue;
            taken++;
            if (!lt__strv_has(&in->test_files, files.v[i]))
                lt__strv_push(&in->test_files, files.v[i]);
        }
        if (!taken)
            rc = bad("--tests %s: no test file (test_*.py, *_test.py) in "
                     "%s at %.12s", given, rel, in->base);
    }
    lt__strv_free(&files);
    free(rel);
    free(path);
    return rc;
}

/* The block of a diff that changes path (from its "diff --git" line to
 * the next), without its "index" line (abbreviated or full, as the
 * diff's maker chose), or "" (heap). */
static char *file_block(const char *diff, const char *path)
{
    struct lt_buf b = LT_BUF_INIT;
    struct lt__diff_block blk;
    for (const char *at = diff; lt__rt_next_block(&at, &blk);) {
        int mine = strcmp(blk.path, path) == 0;
        free(blk.path);
        if (!mine)
            continue;
        const char *end = blk.start + blk.len;
        for (const char *l = blk.start; l < end;) {
            const char *e = memchr(l, '\n', (size_t)(end - l));
            size_t n = e ? (size_t)(e - l) + 1 : (size_t)(end - l);
            if (strncmp(l, "index ", 6) != 0)
                lt_buf_append(&b, l, n);
            l += n;
        }
        break;
    }
    lt_buf_puts(&b, "");
    return lt_buf_steal(&b);
}

/* A CI candidate's changes to test files (mine: its diff's test part)
 * that the instance's tests do not make alike: left out, and listed as a
 * prediction's are. */
static json_t *dropped_tests(const struct rinst *in, const char *mine)
{
    struct strv paths = {0};
    lt__rt_diff_paths(mine, &paths);
    json_t *out = json_array();
    for (size_t i = 0; i < paths.n; i++) {
        char *a = file_block(mine, paths.v[i]);
        char *b = file_block(in->test_patch ? in->test_patch : "",
                             paths.v[i]);
        if (strcmp(a, b) != 0) {
            const char *kind = lt__rt_protected(in, paths.v[i]);
            json_array_append_new(out, json_pack("{s:s, s:s}", "path",
                                                 paths.v[i], "kind",
                                                 kind ? kind : "test"));
        }
        free(a);
        free(b);
    }
    lt__strv_free(&paths);
    return out;
}

static int read_ci(struct repo_run *r)
{
    const struct lt_patches_opts *o = r->o;
    char *repo = realpath(o->repo, NULL);
    if (!repo || !is_dir(repo)) {
        free(repo);
        return bad("--repo %s: no such folder", o->repo);
    }
    char *base = rev_parse(repo, o->base ? o->base : "HEAD");
    if (!base) {
        free(repo);
        return bad("--base %s: not a revision of %s", o->base ? o->base :
                   "HEAD", o->repo);
    }
    struct rinst *in = xcalloc(1, sizeof(*in));
    r->insts = xcalloc(2, sizeof(*r->insts));
    r->insts[r->n_insts++] = in;
    in->ci = 1;
    in->clone = repo;
    in->base = base;
    in->where = "--repo";
    const char *slash = strrchr(repo, '/');
    in->repo = xstrdup(slash ? slash + 1 : repo);
    in->id = xasprintf("%s-%.12s", in->repo, base);
    in->python = o->python ? xstrdup(o->python) : NULL;
    char *ref = NULL;
    if (o->reference && !(ref = ci_diff(repo, base, "--reference",
                                        o->reference)))
        return -1;
    r->cands = xcalloc(o->n_candidates + 1, sizeof(*r->cands));
    char **texts = xcalloc(o->n_candidates + 1, sizeof(char *));
    for (size_t i = 0; i < o->n_candidates; i++) {
        texts[i] = ci_diff(repo, base, "--candidate", o->candidates[i]);
        if (!texts[i]) {
            for (size_t k = 0; k < i; k++)
                free(texts[k]);
            free(texts);
            free(ref);
            return -1;
        }
    }
    /* The tests: those the reference adds or changes, else the first
     * candidate's; each candidate's own test changes are left out like
     * any candidate's (the instance's tests decide). */
    const char *with_tests = ref ? ref : texts[0];
    in->test_patch = diff_part(in, with_tests, 1);
    in->patch = ref ? diff_part(in, ref, 0) : NULL;
    /* The tests --tests names decide with them. */
    struct strv patch_files = {0};
    lt__rt_diff_paths(in->test_patch, &patch_files);
    int named_ok = 0;
    for (size_t i = 0; i < o->n_tests && named_ok == 0; i++)
        named_ok = ci_named_test(in, o->tests[i], &patch_files);
    lt__strv_free(&patch_files);
    if (named_ok < 0) {
        for (size_t k = 0; k < o->n_candidates; k++)
            free(texts[k]);
        free(texts);
        free(ref);
        return -1;
    }
    for (size_t i = 0; i < o->n_candidates; i++) {
        struct rcand *c = &r->cands[r->n_cands++];
        c->seq = (long long)r->n_cands;
        c->instance_id = xstrdup(in->id);
        c->model = xstrdup(o->candidates[i]);
        c->patch = diff_part(in, texts[i], 0);
        c->len = strlen(c->patch);
        if (i == 0)
            in->ci_first = xstrdup(c->patch);
        char *tests_part = diff_part(in, texts[i], 1);
        c->dropped = dropped_tests(in, tests_part);
        c->tests_only = !*c->patch && *tests_part;
        free(tests_part);
        c->inst = in;
        c->where = "--candidate";
        in->n_cands++;
        free(texts[i]);
    }
    free(texts);
    free(ref);
    if (!*in->test_patch && !o->n_tests)
        lt_warn("--repo: %s changes no test file: the suite covering the "
                "changed files decides", o->reference ? "--reference"
                                                      : "the first candidate");
    return 0;
}

/* Contract: see repo_internal.h. */
int lt__ri_read(struct repo_run *r)
{
    const struct lt_patches_opts *o = r->o;
    if (o->repo)
        return read_ci(r);
    json_t *env = NULL;
    char *env_dir = NULL;
    if (o->env) {
        json_error_t je;
        env = json_load_file(o->env, 0, &je);
        if (!json_is_object(env)) {
            json_decref(env);
            return bad("--env %s: %s", o->env,
                       access(o->env, R_OK) != 0
                           ? strerror(errno)
                           : "not a JSON object {repo: {version: python}}");
        }
        env_dir = dir_of(o->env);
    }
    int rc = read_instances(r, env, env_dir);
    json_decref(env);
    free(env_dir);
    if (rc < 0)
        return -1;
    if (!is_dir(o->repos))
        return bad("--repos %s: no such folder", o->repos);
    if (read_predictions(r) < 0)
        return -1;
    for (size_t i = 0; i < r->n_insts; i++) {
        struct rinst *in = r->insts[i];
        if (!in->n_cands)
            continue;
        in->clone = clone_of(o->repos, in->repo);
        if (!in->clone) {
            char *w = where_of(in->where, in->line, in->id);
            rc = bad("%s: field 'repo': no clone of %s in %s (as %s or "
                     "owner__name)", w, in->repo, o->repos, in->repo);
            free(w);
            return rc;
        }
    }
    return 0;
}

/*** Shards ***/

static int cmp_cand_key(const void *a, const void *b)
{
    const struct rcand *x = *(const struct rcand *const *)a;
    const struct rcand *y = *(const struct rcand *const *)b;
    int c = strcmp(x->instance_id, y->instance_id);
    return c ? c : strcmp(x->model, y->model);
}

/* Contract: see repo_internal.h. */
int lt__ri_shard(struct repo_run *r)
{
    const struct lt_patches_opts *o = r->o;
    struct lt_buf b = LT_BUF_INIT;
    lt_buf_printf(&b, "%s wider %g diff %g factor %g const %g sim %g\n",
                  LT_REPO_SCHEMA, o->wider_budget, o->diff_budget,
                  o->run.timeout_factor, o->run.timeout_const,
                  o->sim_threshold);
    for (size_t i = 0; i < o->n_pytest_args; i++)
        lt_buf_printf(&b, "arg %s\n", o->pytest_args[i]);
    for (size_t i = 0; i < r->n_insts; i++) {
        const struct rinst *in = r->insts[i];
        char sha[65];
        struct lt_buf t = LT_BUF_INIT;
        lt_buf_printf(&t, "%s\n%s\n%s\n%s\n%s\n", in->id, in->base,
                      in->patch ? in->patch : "",
                      in->test_patch ? in->test_patch : "",
                      in->python ? in->python : "");
        for (size_t k = 0; k < in->f2p.n; k++)
            lt_buf_printf(&t, "f %s\n", in->f2p.v[k]);
        for (size_t k = 0; k < in->p2p.n; k++)
            lt_buf_printf(&t, "p %s\n", in->p2p.v[k]);
        lt_sha256_hex(t.data, t.len, sha);
        lt_buf_free(&t);
        lt_buf_printf(&b, "instance %s %s\n", in->id, sha);
    }
    for (size_t i = 0; i < r->n_cands; i++) {
        char sha[65];
        lt_sha256_hex(r->cands[i].patch, r->cands[i].len, sha);
        lt_buf_printf(&b, "candidate %s %s %s\n", r->cands[i].instance_id,
                      r->cands[i].model, sha);
    }
    char sha[65];
    lt_sha256_hex(b.data, b.len, sha);
    lt_buf_free(&b);
    r->plan = xstrdup(sha);
    if (!o->run.shard_count)
        return 0;
    snprintf(r->shard, sizeof(r->shard), "%u/%u", o->run.shard_index,
             o->run.shard_count);
    unsigned char *keep = xcalloc(r->n_cands + 1, 1);
    lt__shard_deal(r->cands, r->n_cands, sizeof(*r->cands), cmp_cand_key,
                   o->run.shard_index, o->run.shard_count, keep);
    size_t w = 0, all = r->n_cands;
    for (size_t i = 0; i < r->n_cands; i++) {
        if (!keep[i]) {
            r->cands[i].inst->n_cands--;
            free(r->cands[i].instance_id);
            free(r->cands[i].model);
            free(r->cands[i].patch);
            json_decref(r->cands[i].dropped);
            continue;
        }
        r->cands[w++] = r->cands[i];
    }
    r->n_cands = w;
    free(keep);
    if (!w) {
        lt_error("shard %s gets none of the %zu candidates: use at most %zu "
                 "shards", r->shard, all, all);
        return -1;
    }
    return 0;
}
