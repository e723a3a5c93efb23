/* `litmus patches`: triage of candidate patches as correct, overfitting,
 * memorized or invalid (docs/patches.md).  This file reads the inputs
 * (manifest, patches, inputs), groups program entries into units that
 * share a zygote pool and a cache, plans every child run a text still
 * needs, and runs them as tasks of the engine's executor (one lane of
 * zygotes per unit, engine/core/exec.h).
 * SPDX-License-Identifier: MIT */
#include "engine/engine.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/log.h"
#include "common/sha256.h"
#include "common/xmalloc.h"
#include "engine/core/internal.h"
#include "engine/core/mutate.h"
#include "engine/core/progress.h"
#include "engine/core/select.h"
#include "engine/jobs/patches/patches_internal.h"
#include "sandbox/sandbox.h"

#ifdef LT_HAVE_SIMILARITY
#include "engine/similarity/similarity.h"
#endif

#define REF_TIMEOUT 300.0     /* s for a reference run */
#define DIFF_TIMEOUT 300.0    /* s for a differential job */
#define MUT_CONST 0.25        /* s added to a mutant's CPU budget */
#define CALL_CONST 0.25       /* s added to a differential call's limit */
#define ZYGOTE_TIMEOUT 300.0  /* s for a zygote to collect the tests */
#define BATCH_WRITES 64       /* store writes committed together */
#define MAX_INPUTS_JSON (2u << 20)
#define MAX_EXTRA (7u << 20)  /* a RUN frame holds at most 8 MiB */

void lt_patches_opts_init(struct lt_patches_opts *o)
{
    memset(o, 0, sizeof(*o));
    o->db = ".litmus-patches.db";
    o->format = LT_FORMAT_TEXT;
    o->threshold = 0.60;
    o->sim_threshold = 0.95;
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    o->jobs = n > 0 ? (int)n : 1;
    o->timeout_factor = 5.0;
    o->timeout_const = LT_PATCHES_TIMEOUT_CONST;
    o->timeout = 15.0;
    o->diff_budget = 10.0;
    o->mutation = 1;
    o->mutation_gate = 1;
    o->mutation_budget = 30.0;
    o->memory_mb = LT_MEMORY_MB_DEFAULT;
    o->progress = -1;
}

/*** The run's state ***/

struct run {
    const struct lt_patches_opts *o;
    struct lt_store *st;
    struct pprog *progs;
    size_t n_progs;
    struct patch *patches;
    size_t n_patches, cap_patches;
    struct unit **units;
    size_t n_units;
    struct lt_exec ex;  /* its fatal code stops the run */
    char *scratch;
    FILE *run_log;
    size_t decided, n_texts;
    struct lt_progress prog;
    double t_start;
    size_t zygotes_started, jobs_started[T_MUT + 1];
};

/*** Reading inputs ***/

/* The absolute, resolved path of `path` taken relative to `base` (NULL:
 * the working directory); NULL with an error printed when it does not
 * exist.  what names it in the message. */
static char *resolve(const char *base, const char *path, const char *what,
                     const char *ctx, int want_dir)
{
    char *joined = base && path[0] != '/' ? xasprintf("%s/%s", base, path)
                                          : xstrdup(path);
    char *real = realpath(joined, NULL);
    struct stat sb;
    if (!real || stat(real, &sb) < 0) {
        lt_error("%s%s%s %s: %s", ctx ? ctx : "", ctx ? ": " : "", what,
                 joined, strerror(errno));
        free(joined);
        free(real);
        return NULL;
    }
    if (want_dir == 0 && !S_ISREG(sb.st_mode)) {
        lt_error("%s%s%s %s is not a file", ctx ? ctx : "", ctx ? ": " : "",
                 what, joined);
        free(joined);
        free(real);
        return NULL;
    }
    free(joined);
    return real;
}

static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return xstrdup(".");
    if (slash == path)
        return xstrdup("/");
    return xstrndup(path, (size_t)(slash - path));
}

/* The file name without directory and ".py". */
static char *stem_of(const char *path)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    size_t n = strlen(b);
    if (n > 3 && strcmp(b + n - 3, ".py") == 0)
        n -= 3;
    return xstrndup(b, n);
}

/* A line [b, e) (without its newline) that is a markdown fence: up to
 * three spaces, then ``` or more backticks.  Returns the number of
 * backticks (0: not a fence) and sets *info to the rest of the line,
 * trimmed, and *info_len to its length. */
static size_t fence_line(const char *b, const char *e, const char **info,
                         size_t *info_len)
{
    const char *p = b;
    while (p < e && p - b < 3 && *p == ' ')
        p++;
    const char *q = p;
    while (q < e && *q == '`')
        q++;
    size_t ticks = (size_t)(q - p);
    if (ticks < 3)
        return 0;
    while (q < e && (*q == ' ' || *q == '\t'))
        q++;
    const char *z = e;
    while (z > q && (z[-1] == ' ' || z[-1] == '\t' || z[-1] == '\r'))
        z--;
    if (memchr(q, '`', (size_t)(z - q)))
        return 0; /* ```x``` on one line: inline code, not a fence */
    *info = q;
    *info_len = (size_t)(z - q);
    return ticks;
}

/* An info string that names Python, or none. */
static int python_info(const char *s, size_t n)
{
    static const char *const names[] = {"", "python", "python3", "py",
                                        "py3", "pycon", NULL};
    size_t w = 0;
    while (w < n && s[w] != ' ' && s[w] != '\t' && s[w] != '{')
        w++;
    for (int i = 0; names[i]; i++)
        if (strlen(names[i]) == w && strncasecmp(s, names[i], w) == 0)
            return 1;
    return 0;
}

/* Strips a markdown code fence (docs/patches.md, "Inputs").  The opening
 * fence is the first non-blank line when it is a fence (any info
 * string), or else the first line that is a fence naming Python or
 * nothing (```python, ```py, ```): an answer with prose around its code
 * (blocks in other languages are skipped whole).
 * The patch is the text after that line up to the next line made of
 * backticks alone, at least as many as the opening ones (so ``` inside a
 * string of the code does not end it), or up to the end when the fence
 * is never closed.  Text without such a fence is kept as it is.  Returns
 * a heap copy (NUL-terminated; the caller frees) and its length. */
char *lt__strip_fence(const char *s, size_t n, size_t *out_len)
{
    size_t start = (size_t)-1, ticks = 0;
    int first = 1;
    for (size_t i = 0; i < n && start == (size_t)-1;) {
        size_t e = i;
        while (e < n && s[e] != '\n')
            e++;
        const char *info = NULL;
        size_t il = 0;
        size_t t = fence_line(s + i, s + e, &info, &il);
        int blank = 1;
        for (size_t k = i; k < e && blank; k++)
            blank = s[k] == ' ' || s[k] == '\t' || s[k] == '\r';
        if (t && (first || python_info(info, il))) {
            start = e < n ? e + 1 : n;
            ticks = t;
        } else if (t) {
            /* A block in another language: skip it, so that its
             * closing fence is not taken for an opening one. */
            i = e + 1;
            while (i < n) {
                e = i;
                while (e < n && s[e] != '\n')
                    e++;
                size_t c = fence_line(s + i, s + e, &info, &il);
                if (c >= t && il == 0)
                    break;
                i = e + 1;
            }
        }
        if (!blank)
            first = 0;
        i = e + 1;
    }
    size_t end = n;
    if (start != (size_t)-1) {
        for (size_t i = start; i < n;) {
            size_t e = i;
            while (e < n && s[e] != '\n')
                e++;
            const char *info = NULL;
            size_t il = 0;
            size_t t = fence_line(s + i, s + e, &info, &il);
            if (t >= ticks && il == 0) {
                end = i;
                break;
            }
            i = e + 1;
        }
    } else {
        start = 0;
    }
    *out_len = end - start;
    char *c = xmalloc(end - start + 1);
    memcpy(c, s + start, end - start);
    c[end - start] = '\0';
    return c;
}

static struct pprog *find_prog(struct run *r, const char *name)
{
    for (size_t i = 0; i < r->n_progs; i++)
        if (strcmp(r->progs[i].name, name) == 0)
            return &r->progs[i];
    return NULL;
}

static int add_patch(struct run *r, struct pprog *p, const char *run_id,
                     const char *raw, size_t raw_len, const char *origin,
                     long line)
{
    for (size_t i = 0; i < r->n_patches; i++)
        if (r->patches[i].prog == p &&
            strcmp(r->patches[i].run_id, run_id) == 0) {
            if (line)
                lt_error("%s:%ld: run_id '%s' of program '%s' appears twice",
                         origin, line, run_id, p->name);
            else
                lt_error("%s: run_id '%s' of program '%s' appears twice",
                         origin, run_id, p->name);
            return -1;
        }
    if (r->n_patches == r->cap_patches) {
        r->cap_patches = r->cap_patches ? r->cap_patches * 2 : 64;
        r->patches = xrealloc(r->patches,
                              r->cap_patches * sizeof(*r->patches));
    }
    struct patch *pa = &r->patches[r->n_patches];
    memset(pa, 0, sizeof(*pa));
    pa->seq = (long long)r->n_patches;
    pa->prog = p;
    pa->run_id = xstrdup(run_id);
    pa->text = lt__strip_fence(raw, raw_len, &pa->len);
    lt_sha256_hex(pa->text, pa->len, pa->sha);
    pa->origin = origin;
    pa->line = line;
    p->n_patches++;
    r->n_patches++;
    return 0;
}

/* A JSON Lines file of {"program", "run_id", "patch_text"}. */
static int read_jsonl(struct run *r, const char *path)
{
    char *data = NULL;
    size_t len = 0;
    int rc = lt_read_file(path, &data, &len);
    if (rc < 0) {
        lt_error("%s: %s", path, lt_strerror(rc));
        return -1;
    }
    long line = 0;
    size_t i = 0;
    int bad = 0;
    while (i < len && !bad) {
        size_t e = i;
        while (e < len && data[e] != '\n')
            e++;
        line++;
        size_t k = i;
        while (k < e && (data[k] == ' ' || data[k] == '\t' || data[k] == '\r'))
            k++;
        if (k < e) {
            json_error_t err;
            json_t *o = json_loadb(data + i, e - i, JSON_REJECT_DUPLICATES,
                                   &err);
            const char *prog = lt__pe_str(o, "program");
            const char *run_id = lt__pe_str(o, "run_id");
            json_t *text = o ? json_object_get(o, "patch_text") : NULL;
            json_t *jp = o ? json_object_get(o, "program") : NULL;
            if (!o) {
                lt_error("%s:%ld: not valid JSON: %s", path, line, err.text);
                bad = 1;
            } else if (!json_is_object(o)) {
                lt_error("%s:%ld: expected a JSON object with program, "
                         "run_id and patch_text", path, line);
                bad = 1;
            } else if (!run_id || !*run_id) {
                lt_error("%s:%ld: \"run_id\" must be a non-empty string",
                         path, line);
                bad = 1;
            } else if (!json_is_string(text)) {
                lt_error("%s:%ld: \"patch_text\" must be a string", path,
                         line);
                bad = 1;
            } else if (jp && !json_is_string(jp)) {
                lt_error("%s:%ld: \"program\" must be a string", path, line);
                bad = 1;
            } else {
                struct pprog *p = NULL;
                if (prog)
                    p = find_prog(r, prog);
                else if (r->n_progs == 1)
                    p = &r->progs[0];
                if (!p && !prog) {
                    lt_error("%s:%ld: \"program\" is missing (the manifest "
                             "names several programs)", path, line);
                    bad = 1;
                } else if (!p) {
                    lt_error("%s:%ld: program '%s' is not %s", path, line,
                             prog,
                             r->o->manifest ? "in the manifest"
                                            : "the program given with "
                                              "--buggy (use --manifest for "
                                              "several programs)");
                    bad = 1;
                } else if (add_patch(r, p, run_id, json_string_value(text),
                                     json_string_length(text), path,
                                     line) < 0) {
                    bad = 1;
                }
            }
            json_decref(o);
        }
        i = e + 1;
    }
    free(data);
    return bad ? -1 : 0;
}

/* Every *.py of dir, in natural order, as patches of p. */
static int read_dir(struct run *r, struct pprog *p, const char *dir)
{
    struct dirent **ents = NULL;
    int n = scandir(dir, &ents, NULL, versionsort);
    if (n < 0) {
        lt_error("%s: %s", dir, strerror(errno));
        return -1;
    }
    int rc = 0;
    for (int i = 0; i < n; i++) {
        const char *name = ents[i]->d_name;
        size_t len = strlen(name);
        if (rc == 0 && name[0] != '.' && len > 3 &&
            strcmp(name + len - 3, ".py") == 0) {
            char *path = xasprintf("%s/%s", dir, name);
            struct stat sb;
            if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode)) {
                char *data = NULL;
                size_t dl = 0;
                int e = lt_read_file(path, &data, &dl);
                if (e < 0) {
                    lt_error("%s: %s", path, lt_strerror(e));
                    rc = -1;
                } else {
                    char *id = stem_of(name);
                    rc = add_patch(r, p, id, data, dl, dir, 0);
                    free(id);
                }
                free(data);
            }
            free(path);
        }
        free(ents[i]);
    }
    free(ents);
    return rc;
}

static int read_patches(struct run *r)
{
    const char *path = r->o->patches;
    struct stat sb;
    if (stat(path, &sb) < 0) {
        lt_error("--patches %s: %s", path, strerror(errno));
        return -1;
    }
    if (S_ISDIR(sb.st_mode)) {
        if (!r->o->manifest)
            return read_dir(r, &r->progs[0], path);
        int found = 0;
        for (size_t i = 0; i < r->n_progs; i++) {
            char *d = xasprintf("%s/%s", path, r->progs[i].name);
            struct stat ds;
            if (stat(d, &ds) == 0 && S_ISDIR(ds.st_mode)) {
                found = 1;
                if (read_dir(r, &r->progs[i], d) < 0) {
                    free(d);
                    return -1;
                }
            }
            free(d);
        }
        if (!found) {
            lt_error("--patches %s: no folder named after a program of the "
                     "manifest (expected %s/<program>/<run_id>.py)", path,
                     path);
            return -1;
        }
        return 0;
    }
    return read_jsonl(r, path);
}

static void prog_free(struct pprog *p)
{
    free(p->name);
    free(p->buggy);
    free(p->tests);
    free(p->reference);
    free(p->held_out);
    free(p->inputs);
    free(p->precondition);
    free(p->function);
}

/* The programs: the manifest's entries, or the single --buggy one. */
static int read_programs(struct run *r)
{
    const struct lt_patches_opts *o = r->o;
    if (!o->manifest) {
        r->progs = xcalloc(1, sizeof(*r->progs));
        r->n_progs = 1;
        struct pprog *p = &r->progs[0];
        p->buggy = resolve(NULL, o->buggy, "--buggy", NULL, 0);
        p->tests = p->buggy ? resolve(NULL, o->tests, "--tests", NULL, 1)
                            : NULL;
        if (!p->buggy || !p->tests)
            return -1;
        if (o->reference &&
            !(p->reference = resolve(NULL, o->reference, "--reference",
                                     NULL, 0)))
            return -1;
        if (o->held_out &&
            !(p->held_out = resolve(NULL, o->held_out, "--held-out", NULL,
                                    1)))
            return -1;
        if (o->inputs &&
            !(p->inputs = resolve(NULL, o->inputs, "--inputs", NULL, 0)))
            return -1;
        if (o->precondition &&
            !(p->precondition = resolve(NULL, o->precondition,
                                        "--precondition", NULL, 0)))
            return -1;
        p->name = stem_of(p->buggy);
        return 0;
    }
    json_error_t err;
    json_t *m = json_load_file(o->manifest, JSON_REJECT_DUPLICATES, &err);
    if (!m) {
        lt_error("%s:%d: not valid JSON: %s", o->manifest, err.line,
                 err.text);
        return -1;
    }
    if (!json_is_object(m) || json_object_size(m) == 0) {
        lt_error("%s: expected an object {program: {\"buggy\", \"tests\", "
                 "\"reference\"}}", o->manifest);
        json_decref(m);
        return -1;
    }
    char *base = NULL;
    {
        char *real = realpath(o->manifest, NULL);
        base = dir_of(real ? real : o->manifest);
        free(real);
    }
    r->progs = xcalloc(json_object_size(m), sizeof(*r->progs));
    const char *name;
    json_t *e;
    int rc = 0;
    json_object_foreach(m, name, e) {
        struct pprog *p = &r->progs[r->n_progs++];
        p->name = xstrdup(name);
        char *ctx = xasprintf("%s: program '%s'", o->manifest, name);
        const char *buggy = lt__pe_str(e, "buggy");
        const char *tests = lt__pe_str(e, "tests");
        if (!*name || strchr(name, '/') || strchr(name, '\n')) {
            lt_error("%s: bad program name", ctx);
            rc = -1;
        } else if (!json_is_object(e) || !buggy || !tests) {
            lt_error("%s: needs \"buggy\" and \"tests\" paths", ctx);
            rc = -1;
        } else {
            static const char *const keys[] = {"reference", "held_out",
                                               "inputs", "function",
                                               "precondition"};
            for (size_t k = 0; k < 5; k++) {
                json_t *v = json_object_get(e, keys[k]);
                if (v && !json_is_string(v) && !json_is_null(v)) {
                    lt_error("%s: \"%s\" must be a string", ctx, keys[k]);
                    rc = -1;
                }
            }
            if (rc == 0) {
                const char *ref = lt__pe_str(e, "reference");
                const char *held = lt__pe_str(e, "held_out");
                const char *inputs = lt__pe_str(e, "inputs");
                const char *fn = lt__pe_str(e, "function");
                const char *pre = lt__pe_str(e, "precondition");
                if (!(p->buggy = resolve(base, buggy, "buggy file", ctx, 0)) ||
                    !(p->tests = resolve(base, tests, "tests", ctx, 1)) ||
                    (ref && !(p->reference = resolve(base, ref, "reference",
                                                     ctx, 0))) ||
                    (held && !(p->held_out = resolve(base, held, "held-out "
                                                     "tests", ctx, 1))) ||
                    (inputs && !(p->inputs = resolve(base, inputs, "inputs",
                                                     ctx, 0))) ||
                    (pre && !(p->precondition = resolve(base, pre,
                                                        "precondition", ctx,
                                                        0))))
                    rc = -1;
                if (fn)
                    p->function = xstrdup(fn);
            }
        }
        free(ctx);
        if (rc < 0)
            break;
    }
    free(base);
    json_decref(m);
    return rc;
}

/* Extra inputs for the differential job: a .json file holds one array
 * of inputs, anything else is JSON Lines (one input a line).  An input
 * is an array of positional arguments or {"function", "args",
 * "kwargs"}.  Returns the normalised array or NULL after an error. */
static json_t *read_inputs(const char *path, const char *function)
{
    char *data = NULL;
    size_t len = 0;
    int rc = lt_read_file(path, &data, &len);
    if (rc < 0) {
        lt_error("%s: %s", path, lt_strerror(rc));
        return NULL;
    }
    json_t *items = json_array();
    json_t *out = json_array();
    size_t n = strlen(path);
    int bad = 0;
    if (n > 5 && strcmp(path + n - 5, ".json") == 0) {
        json_error_t err;
        json_t *doc = json_loadb(data, len, 0, &err);
        if (!json_is_array(doc)) {
            lt_error("%s:%d: expected a JSON array of inputs%s%s", path,
                     doc ? 1 : err.line, doc ? "" : ": ",
                     doc ? "" : err.text);
            bad = 1;
        } else {
            size_t i;
            json_t *v;
            json_array_foreach(doc, i, v) json_array_append(items, v);
        }
        json_decref(doc);
    } else {
        long line = 0;
        size_t i = 0;
        while (i < len && !bad) {
            size_t e = i;
            while (e < len && data[e] != '\n')
                e++;
            line++;
            size_t k = i;
            while (k < e && (data[k] == ' ' || data[k] == '\t' ||
                             data[k] == '\r'))
                k++;
            if (k < e) {
                json_error_t err;
                json_t *v = json_loadb(data + i, e - i, 0, &err);
                if (!v) {
                    lt_error("%s:%ld: not valid JSON: %s", path, line,
                             err.text);
                    bad = 1;
                } else {
                    json_array_append_new(items, v);
                }
            }
            i = e + 1;
        }
    }
    size_t i;
    json_t *v;
    json_array_foreach(items, i, v) {
        if (bad)
            break;
        json_t *in = json_object();
        if (json_is_array(v)) {
            json_object_set_new(in, "function", function
                                                    ? json_string(function)
                                                    : json_null());
            json_object_set(in, "args", v);
            json_object_set_new(in, "kwargs", json_object());
        } else if (json_is_object(v)) {
            json_t *fn = json_object_get(v, "function");
            json_t *args = json_object_get(v, "args");
            json_t *kw = json_object_get(v, "kwargs");
            size_t known = (fn != NULL) + (args != NULL) + (kw != NULL);
            if ((fn && !json_is_string(fn) && !json_is_null(fn)) ||
                (args && !json_is_array(args)) || (kw && !json_is_object(kw)) ||
                known != json_object_size(v)) {
                lt_error("%s: input %zu: expected {\"function\": a string, "
                         "\"args\": an array, \"kwargs\": an object}",
                         path, i + 1);
                bad = 1;
            }
            json_object_set_new(in, "function",
                                json_is_string(fn) ? json_incref(fn)
                                : function ? json_string(function)
                                           : json_null());
            json_object_set_new(in, "args", args ? json_incref(args)
                                                 : json_array());
            json_object_set_new(in, "kwargs", kw ? json_incref(kw)
                                                 : json_object());
        } else {
            lt_error("%s: input %zu: expected an array of arguments or an "
                     "object", path, i + 1);
            bad = 1;
        }
        json_array_append_new(out, in);
    }
    json_decref(items);
    free(data);
    if (!bad) {
        char *dump = json_dumps(out, JSON_COMPACT);
        if (dump && strlen(dump) > MAX_INPUTS_JSON) {
            lt_error("%s: more than %u bytes of inputs", path,
                     MAX_INPUTS_JSON);
            bad = 1;
        }
        free(dump);
    }
    if (bad) {
        json_decref(out);
        return NULL;
    }
    return out;
}

/*** Units: programs that share a pool and a cache ***/

/* Hashes the regular files of a folder (recursive up to depth levels),
 * names and contents, into s: results stay valid only while the tests
 * and the data they load stay the same. */
static void hash_tree(struct lt_sha256 *s, const char *dir, int depth)
{
    struct dirent **ents = NULL;
    int n = scandir(dir, &ents, NULL, alphasort);
    for (int i = 0; i < n; i++) {
        const char *name = ents[i]->d_name;
        if (name[0] != '.' && strcmp(name, "__pycache__") != 0) {
            char *p = xasprintf("%s/%s", dir, name);
            struct stat sb;
            if (lstat(p, &sb) == 0 && S_ISREG(sb.st_mode)) {
                lt_sha256_update(s, name, strlen(name) + 1);
                if (sb.st_size <= (8 << 20)) {
                    char *data = NULL;
                    size_t len = 0;
                    if (lt_read_file(p, &data, &len) == 0)
                        lt_sha256_update(s, data, len);
                    free(data);
                } else {
                    char sig[64];
                    snprintf(sig, sizeof(sig), "%lld:%lld",
                             (long long)sb.st_size,
                             (long long)sb.st_mtime);
                    lt_sha256_update(s, sig, strlen(sig));
                }
            } else if (depth > 0 && lstat(p, &sb) == 0 &&
                       S_ISDIR(sb.st_mode)) {
                lt_sha256_update(s, name, strlen(name) + 1);
                hash_tree(s, p, depth - 1);
            }
            free(p);
        }
        free(ents[i]);
    }
    free(ents);
}

static void hash_str(struct lt_sha256 *s, const char *v)
{
    v = v ? v : "-";
    lt_sha256_update(s, v, strlen(v) + 1);
}

/* Hashes the tests of a path: a file's folder (not recursive), or a
 * directory's tree. */
static void hash_tests(struct lt_sha256 *s, const char *path)
{
    struct stat sb;
    hash_str(s, path);
    if (!path || stat(path, &sb) < 0)
        return;
    if (S_ISDIR(sb.st_mode)) {
        hash_tree(s, path, 4);
    } else {
        char *d = dir_of(path);
        hash_tree(s, d, 0);
        free(d);
    }
}

static struct ptext *text_of(struct unit *u, const char *text, size_t len,
                             const char *sha)
{
    for (size_t i = 0; i < u->n_texts; i++)
        if (strcmp(u->texts[i]->sha, sha) == 0)
            return u->texts[i];
    struct ptext *t = xcalloc(1, sizeof(*t));
    memcpy(t->sha, sha, 65);
    t->text = xmalloc(len + 1);
    memcpy(t->text, text, len);
    t->text[len] = '\0';
    t->len = len;
    u->texts = xrealloc(u->texts, (u->n_texts + 1) * sizeof(*u->texts));
    u->texts[u->n_texts++] = t;
    return t;
}

static void line_index_free(struct lt__line_index *x);
static void sample_free(struct lt__mut_sample *s);
static int mut_budget_same(const struct lt_patches_opts *o,
                           const json_t *mut);

static void text_free(struct ptext *t)
{
    free(t->text);
    json_decref(t->l1);
    json_decref(t->held);
    json_decref(t->diff);
    json_decref(t->mut);
    json_decref(t->sim);
    lt__mutants_clear(t->an, t->ml.count);
    line_index_free(t->lines_idx);
    lt_mutant_list_free(&t->ml);
    free(t->an);
    free(t->dup_of);
    free(t->mv);
    sample_free(t->samp);
    free(t);
}

/* The tasks of a run that stopped early: queued on the unit's lane, or
 * running on one of its zygotes (before lt_exec_close). */
static void unit_free_tasks(struct unit *u)
{
    if (!u->lane)
        return;
    for (struct lt_task *t = u->lane->qhead, *next; t; t = next) {
        next = t->next;
        free(t->owner);
    }
    u->lane->qhead = u->lane->qtail = NULL;
    for (int k = 0; k < u->lane->pool.n; k++) {
        struct job *j = &u->lane->pool.z[k].job;
        if (j->active && j->owner) {
            free(((struct lt_task *)j->owner)->owner);
            j->owner = NULL;
        }
    }
}

/* After lt_exec_close (the lane's pool uses the unit's strings). */
static void unit_free(struct unit *u)
{
    free(u->buggy_src);
    free(u->module);
    free(u->cwd);
    free(u->args);
    json_decref(u->inputs);
    free(u->precondition);
    json_decref(u->ref_main);
    json_decref(u->ref_held);
    json_decref(u->ref_json);
    for (size_t i = 0; i < u->n_texts; i++)
        text_free(u->texts[i]);
    free(u->texts);
    free(u->main_tests);
    free(u->held_tests);
    free(u);
}

static int load_layer(struct run *r, struct unit *u, struct ptext *t,
                      const char *layer, json_t **out)
{
    char *s = NULL;
    int rc = lt_store_get_candidate_result(r->st, u->key, t->sha, layer, &s);
    if (rc < 0)
        return rc;
    if (s) {
        json_t *v = json_loads(s, 0, NULL);
        if (json_is_object(v))
            *out = v;
        else
            json_decref(v);
    }
    free(s);
    return 0;
}

/* The store writes of the run go through the executor's batches; the
 * first failure stops the run (reported when it ends). */
static void store_layer(struct run *r, struct unit *u, const char *sha,
                        const char *layer, json_t *v)
{
    if (lt_exec_write(&r->ex) < 0)
        return;
    char *s = json_dumps(v, JSON_COMPACT);
    lt_exec_wrote(&r->ex, lt_store_put_candidate_result(r->st, u->key, sha,
                                                        layer, s));
    free(s);
}


/* The user's precondition file (--precondition, manifest
 * "precondition"): Python source that defines litmus_precondition(*args,
 * **kwargs), or litmus_precondition_<function> for one function.  Its text,
 * or NULL after an error: unreadable, a NUL byte, or source that does not
 * compile (checked here, so that the error is the user's, before any
 * run). */
static char *read_precondition(const char *path)
{
    char *src = NULL;
    size_t len = 0;
    int rc = lt_read_file(path, &src, &len);
    if (rc < 0 || memchr(src, '\0', len)) {
        lt_error("%s: %s", path, rc < 0 ? lt_strerror(rc)
                                        : "holds a NUL byte");
        free(src);
        return NULL;
    }
    char fp[17];
    if (lt_operators_init() < 0 ||
        lt_code_fingerprint(path, src, len, fp) < 0) {
        lt_error("cannot start the embedded Python to read %s", path);
        free(src);
        return NULL;
    }
    if (!fp[0]) {
        lt_error("%s: the precondition file does not compile", path);
        free(src);
        return NULL;
    }
    if (!strstr(src, "litmus_precondition")) {
        lt_error("%s: defines no litmus_precondition function", path);
        free(src);
        return NULL;
    }
    return src;
}
/* Builds the unit of program p (or finds the one it shares). */
static int unit_for(struct run *r, struct pprog *p)
{
    const struct lt_patches_opts *o = r->o;
    char *src = NULL, *ref = NULL;
    size_t len = 0, ref_len = 0;
    int rc = lt_read_file(p->buggy, &src, &len);
    if (rc < 0) {
        lt_error("%s: %s", p->buggy, lt_strerror(rc));
        return -1;
    }
    if (memchr(src, '\0', len)) {
        lt_error("%s: holds a NUL byte; not Python source", p->buggy);
        free(src);
        return -1;
    }
    if (p->reference) {
        rc = lt_read_file(p->reference, &ref, &ref_len);
        if (rc < 0 || memchr(ref, '\0', ref_len)) {
            lt_error("%s: %s", p->reference,
                     rc < 0 ? lt_strerror(rc) : "holds a NUL byte");
            free(src);
            free(ref);
            return -1;
        }
    }
    json_t *inputs = NULL;
    char *pre = NULL;
    if ((p->inputs && !(inputs = read_inputs(p->inputs, p->function))) ||
        (p->precondition && !(pre = read_precondition(p->precondition)))) {
        json_decref(inputs);
        free(src);
        free(ref);
        return -1;
    }
    struct lt_sha256 s;
    char hex[65];
    lt_sha256_init(&s);
    /* 2: the differential layer's inputs, contract and timing rules. */
    hash_str(&s, "litmus-patches/2");
    hash_str(&s, p->buggy);
    lt_sha256_hex(src, len, hex);
    hash_str(&s, hex);
    hash_tests(&s, p->tests);
    hash_tests(&s, p->held_out);
    if (ref) {
        lt_sha256_hex(ref, ref_len, hex);
        hash_str(&s, hex);
    } else {
        hash_str(&s, NULL);
    }
    if (inputs) {
        char *dump = json_dumps(inputs, JSON_COMPACT);
        hash_str(&s, dump);
        free(dump);
    } else {
        hash_str(&s, NULL);
    }
    for (size_t i = 0; i < o->n_pytest_args; i++)
        hash_str(&s, o->pytest_args[i]);
    hash_str(&s, pre);
    char set[200];
    snprintf(set, sizeof(set), "%.6g %.6g %.6g %lu %.6g %.6g",
             o->timeout_factor, o->timeout_const,
             p->reference ? 0.0 : o->timeout, o->memory_mb, o->diff_budget,
             o->slower_factor);
    hash_str(&s, set);
    uint8_t dig[32];
    lt_sha256_final(&s, dig);
    char key[17];
    for (int i = 0; i < 8; i++)
        snprintf(key + 2 * i, 3, "%02x", dig[i]);

    for (size_t i = 0; i < r->n_units; i++)
        if (strcmp(r->units[i]->key, key) == 0) {
            p->unit = r->units[i];
            free(src);
            free(ref);
            free(pre);
            json_decref(inputs);
            return 0;
        }
    struct unit *u = xcalloc(1, sizeof(*u));
    memcpy(u->key, key, 17);
    u->p0 = p;
    u->buggy_src = src;
    u->buggy_len = len;
    u->buggy_lines = 1;
    for (size_t i = 0; i < len; i++)
        u->buggy_lines += src[i] == '\n';
    u->module = stem_of(p->buggy);
    struct stat sb;
    u->cwd = stat(p->tests, &sb) == 0 && S_ISDIR(sb.st_mode)
                 ? xstrdup(p->tests)
                 : dir_of(p->tests);
    u->args = xcalloc(o->n_pytest_args + 3, sizeof(char *));
    u->args[u->n_args++] = p->tests;
    if (p->held_out)
        u->args[u->n_args++] = p->held_out;
    for (size_t i = 0; i < o->n_pytest_args; i++)
        u->args[u->n_args++] = o->pytest_args[i];
    u->subject = (struct lt_subject){p->buggy, u->buggy_src, u->buggy_len};
    u->inputs = inputs ? inputs : json_array();
    u->precondition = pre;
    if (ref) {
        char sha[65];
        lt_sha256_hex(ref, ref_len, sha);
        u->ref = text_of(u, ref, ref_len, sha);
        u->ref->is_ref = 1;
        free(ref);
    }
    r->units = xrealloc(r->units, (r->n_units + 1) * sizeof(*r->units));
    r->units[r->n_units++] = u;
    p->unit = u;
    return 0;
}

/*** Planning: what each text still needs ***/

static int l1_passed(const struct ptext *t)
{
    const char *s = lt__pe_str(t->l1, "status");
    return s && strcmp(s, "pass") == 0;
}

/* Loads what the store knows of a unit's texts and says whether any run
 * is still needed. */
static int plan_unit(struct run *r, struct unit *u)
{
    const struct lt_patches_opts *o = r->o;
    int rc = 0;
    if (u->ref)
        rc = load_layer(r, u, u->ref, "ref", &u->ref_json);
    for (size_t i = 0; rc == 0 && i < u->n_texts; i++) {
        struct ptext *t = u->texts[i];
        if (t->is_cand) {
            rc = load_layer(r, u, t, "l1", &t->l1);
            if (rc == 0)
                rc = load_layer(r, u, t, "held", &t->held);
            if (rc == 0)
                rc = load_layer(r, u, t, "diff", &t->diff);
            if (rc == 0)
                rc = load_layer(r, u, t, "sim", &t->sim);
        }
        if (rc == 0 && o->mutation)
            rc = load_layer(r, u, t, "mut", &t->mut);
        if (t->mut && !mut_budget_same(o, t->mut)) {
            json_decref(t->mut); /* decided again under this budget */
            t->mut = NULL;
        }
        if (rc == 0 && t->is_cand && !t->l1) {
            /* Texts that are never run. */
            if (t->len > LT_PATCH_MAX_TEXT) {
                t->l1 = json_pack("{s:s, s:s, s:f, s:i, s:i}", "status",
                                  "too_large", "detail",
                                  "the patch text is larger than 4 MiB; "
                                  "not run", "duration_ms", 0.0,
                                  "tests_total", 0, "tests_passed", 0);
            } else if (memchr(t->text, '\0', t->len)) {
                t->l1 = json_pack("{s:s, s:s, s:f, s:i, s:i}", "status",
                                  "syntax", "detail",
                                  "SyntaxError: source code cannot contain "
                                  "null bytes", "duration_ms", 0.0,
                                  "tests_total", 0, "tests_passed", 0);
            }
        }
    }
    if (rc < 0) {
        lt_error("%s: %s", o->db, lt_strerror(rc));
        return rc;
    }
    int work = u->ref && !u->ref_json;
    for (size_t i = 0; i < u->n_texts && !work; i++) {
        struct ptext *t = u->texts[i];
        if (t->is_cand) {
            if (!t->l1)
                work = 1;
            else if (l1_passed(t) &&
                     ((u->ref && !t->diff) || (u->p0->held_out && !t->held) ||
                      (o->mutation && !t->mut)))
                work = 1;
        }
        if (t->is_ref && o->mutation && !t->mut)
            work = 1;
    }
    u->pending_work = work;
    return 0;
}

/*** Tasks: what a unit queues on its lane ***/

static const struct lt_task_ops task_ops, diff_ops;

/* The priority of a kind of task: the reference runs first (budgets and
 * captured calls come from them), then layer 1, layer 2, the mutants. */
static int kind_class(enum ptask_kind kind)
{
    return kind == T_REF_MAIN || kind == T_REF_HELD ? 0
           : kind == T_L1                          ? 1
           : kind == T_MUT                         ? 3
                                                   : 2;
}

/* Queues a task on its unit's lane; a retry goes first among its kind. */
static void submit(struct run *r, struct ptask *k, int retry)
{
    k->in_q = 1;
    k->u->nq[kind_class(k->kind)]++;
    if (retry)
        lt_exec_retry(&r->ex, &k->task);
    else
        lt_exec_submit(&r->ex, &k->task);
}

/* A queued task left the lane's queue. */
static void unqueued(struct ptask *k)
{
    if (k->in_q) {
        k->in_q = 0;
        k->u->nq[kind_class(k->kind)]--;
    }
}

/* The lane's next task: the first queued of the highest priority.  Tasks
 * handed back come before the others in the queue: retries, and tasks
 * the executor queued again itself (their zygote died or refused them;
 * not counted in nq until seen here). */
static struct lt_task *unit_next(struct lt_lane *l)
{
    struct unit *u = l->owner;
    int want = 0;
    while (want < 4 && u->nq[want] == 0)
        want++;
    struct lt_task *best = NULL;
    int best_c = 4;
    for (struct lt_task *t = l->qhead; t; t = t->next) {
        struct ptask *k = t->owner;
        int c = kind_class(k->kind);
        int handed_back = t->retried || !k->in_q;
        if (!k->in_q) {
            k->in_q = 1;
            u->nq[c]++;
            if (c < want)
                want = c;
        }
        if (!best || c < best_c) {
            best = t;
            best_c = c;
        }
        if (!handed_back && best_c <= want)
            break;
    }
    if (best)
        unqueued(best->owner);
    return best;
}

static struct ptask *task_new(struct unit *u, enum ptask_kind kind,
                              struct ptext *t)
{
    struct ptask *k = xcalloc(1, sizeof(*k));
    k->task.ops = kind == T_DIFF ? &diff_ops : &task_ops;
    k->task.lane = u->lane;
    k->task.owner = k;
    k->kind = kind;
    k->u = u;
    k->t = t;
    k->probe_index = -1;
    return k;
}

/*** Mutation of a text ***/

static const json_t *cov_of(const struct unit *u, const struct ptext *t)
{
    if (t->is_ref && u->ref_json)
        return json_object_get(u->ref_json, "cov");
    return t->l1 ? json_object_get(t->l1, "cov") : NULL;
}

/* Per line of the buggy file, the main tests that executed it; per
 * test, its cost (line events) and whether it executed anything. */
struct lt__line_index {
    struct lt_u32s {
        uint32_t *v;
        size_t n, cap;
    } *by_line;
    size_t n_lines;
    double *work;
    unsigned char *all, *covered;
};

static void line_index_free(struct lt__line_index *x)
{
    if (!x)
        return;
    for (size_t l = 0; l <= x->n_lines; l++)
        free(x->by_line[l].v);
    free(x->by_line);
    free(x->work);
    free(x->all);
    free(x->covered);
    free(x);
}

/* Coverage reported by a child is hostile input: lines outside the
 * buggy file are dropped (the tracer sees its lines only). */
static struct lt__line_index *line_index(const struct unit *u,
                                         const json_t *cov)
{
    struct lt__line_index *x = xcalloc(1, sizeof(*x));
    size_t nt = u->n_main;
    x->n_lines = u->buggy_lines;
    x->by_line = xcalloc(x->n_lines + 1, sizeof(*x->by_line));
    x->work = xcalloc(nt + 1, sizeof(double));
    x->all = xcalloc(nt + 1, 1);
    x->covered = xcalloc(nt + 1, 1);
    const json_t *lines = json_object_get(cov, "lines");
    const json_t *events = json_object_get(cov, "events");
    for (size_t k = 0; k < nt; k++) {
        x->all[k] = 1;
        x->work[k] = (double)json_integer_value(json_array_get(events, k));
        const json_t *ls = json_array_get(lines, k);
        x->covered[k] = json_array_size(ls) > 0;
        size_t i;
        const json_t *v;
        json_array_foreach(ls, i, v) {
            json_int_t line = json_integer_value(v);
            if (line < 0 || (size_t)line > x->n_lines)
                continue;
            struct lt_u32s *t = &x->by_line[line];
            if (t->n && t->v[t->n - 1] == (uint32_t)k)
                continue;
            if (t->n == t->cap) {
                t->cap = t->cap ? 2 * t->cap : 4;
                t->v = xrealloc(t->v, t->cap * sizeof(uint32_t));
            }
            t->v[t->n++] = (uint32_t)k;
        }
    }
    return x;
}

static size_t index_cover(const void *ctx, long line, const uint32_t **tests)
{
    const struct lt__line_index *x = ctx;
    if (line < 0 || (size_t)line > x->n_lines)
        return 0;
    *tests = x->by_line[line].v;
    return x->by_line[line].n;
}

/* The main tests (as positions in u->main_tests) a mutant of text t runs,
 * by the shared rule (lt__select_tests): those that executed its lines,
 * cheapest first; every test for a structural change; every test that
 * executed anything for a change beyond the buggy file's lines, which
 * the tracer does not see. */
static size_t select_tests(const struct unit *u, struct ptext *t,
                           const json_t *cov, const struct lt_mutant *m,
                           int structural, uint32_t **out)
{
    if (!t->lines_idx)
        t->lines_idx = line_index(u, cov);
    struct lt__line_index *x = t->lines_idx;
    int beyond = !structural && (size_t)m->end_line > u->buggy_lines;
    struct lt__selection sel = {u->n_main, beyond ? x->covered : x->all,
                                x->work, index_cover, x};
    return lt__select_tests(&sel, m->line, m->end_line,
                            structural || beyond, out);
}

/*** The mutation budget ***/

#define MUT_RUN_S 0.03         /* s a mutant's child costs besides its tests
                                  (fork, compiling the text, the guards) */
#define MUT_TIMEOUT_SHARE 0.05 /* share of mutants expected to time out
                                  (2% on the corpus), for the estimate */
#define MUT_TIMING ((size_t)-1) /* ptask.mi of a text's timing run */

/* A text's mutants under --mutation-budget (docs/patches.md, "Mutation
 * score"): those whose fate needs a run (valid, covered, not equivalent,
 * and the duplicates of such) in sample order, the first n_sample of
 * them sampled.  Costs are CPU seconds of the tests on the text: the
 * first sample is sized with layer 1's times, which trace coverage and
 * so run pure Python several times slower than a mutant's run; when
 * what that sample cost leaves too little for every mutant, one timing
 * run of the tests on the text without tracing gives the times the
 * sample is extended with.  A mutant's cost is a model from its verdict
 * and the test that decided it, never its own measured time, so the
 * same stored evidence (a resumed run) gives the same sample. */
struct lt__mut_sample {
    size_t *order;
    size_t n_order, n_sample;
    int stage;               /* 1: first sample; 0: its timing run;
                                2: the last */
    double budget;           /* s for the mutants; 0: every mutant */
    double est_total;        /* s: every runnable mutant's estimate */
    double *tcpu;            /* per main test position: CPU s without
                                tracing (the timing run), or NULL */
    int timed;               /* a timing run was needed */
    double timing_s;         /* its cost, taken off the budget */
    double timing_ms;        /* its child time */
    unsigned char *kind;     /* per mutant: enum below */
    unsigned char *needed;   /* per mutant: a sampled mutant needs its run */
    unsigned char *counted;  /* per mutant: in the score */
    long *kpos;              /* per mutant: position of the deciding test
                                in its selection, or -1 */
    double *est;             /* per mutant: estimated cost of its run, s */
    double *ms;              /* per mutant: child time of its run */
    double *work;            /* per main test position: line events */
    double work_total;       /* the suite's line events */
    double l1_total;         /* the suite's CPU s in layer 1 */
    double real_total;       /* ... in the timing run */
};

enum { MK_KNOWN, MK_RUN, MK_DUP };  /* no run; runs; shares a MK_RUN's */

static void sample_free(struct lt__mut_sample *s)
{
    if (!s)
        return;
    free(s->order);
    free(s->tcpu);
    free(s->kind);
    free(s->needed);
    free(s->counted);
    free(s->kpos);
    free(s->est);
    free(s->ms);
    free(s->work);
    free(s);
}

/* How mut_tests prices a test: for the model (estimates and costs), its
 * share of the suite's line events, which are the same on every run,
 * times the suite's CPU time in layer 1 (TM_LAYER1), or in the timing
 * run when there was one (TM_REAL): a suite's total varies less from run
 * to run than the times of its small tests, which the kernel counts in
 * ticks of a few ms.  For a limit (TM_LIMIT), its own time: the timing
 * run's when there was one, else layer 1's. */
enum { TM_LAYER1, TM_REAL, TM_LIMIT };

/* The tests mutant i runs (positions in u->main_tests, *sel) and their
 * CPU seconds on the text (*cpu), priced by mode.  Both the caller's to
 * free. */
static size_t mut_tests(const struct unit *u, struct ptext *t, size_t i,
                        int mode, uint32_t **sel, double **cpu)
{
    const json_t *cov = cov_of(u, t);
    size_t n = select_tests(u, t, cov, &t->ml.items[i],
                            t->an[i].structural, sel);
    const json_t *cpus = json_object_get(cov, "cpu_ms");
    const struct lt__mut_sample *s = t->samp;
    const double *tcpu = mode != TM_LAYER1 && s ? s->tcpu : NULL;
    double scale = -1;
    if (mode != TM_LIMIT && s && s->work_total > 0)
        scale = (tcpu ? s->real_total : s->l1_total) / s->work_total;
    *cpu = xcalloc(n + 1, sizeof(double));
    for (size_t q = 0; q < n; q++) {
        uint32_t k = (*sel)[q];
        double x = scale >= 0 ? s->work[k] * scale
                   : tcpu     ? tcpu[k]
                              : json_number_value(json_array_get(cpus, k)) /
                                1000;
        (*cpu)[q] = isfinite(x) && x > 0 ? x : 0;
    }
    return n;
}

/* What mutant i's run is expected to cost: every selected test (a
 * survivor runs them all), the child's own cost, and a share of the
 * extra a timeout costs (factor x the slowest test + the constant: the
 * per-test limit of task_prepare). */
static double mut_estimate(const struct run *r, const struct unit *u,
                           struct ptext *t, size_t i, int real)
{
    uint32_t *sel = NULL;
    double *cpu = NULL, sum = 0, max = 0;
    size_t n = mut_tests(u, t, i, real ? TM_REAL : TM_LAYER1, &sel, &cpu);
    for (size_t q = 0; q < n; q++) {
        sum += cpu[q];
        max = cpu[q] > max ? cpu[q] : max;
    }
    free(sel);
    free(cpu);
    return MUT_RUN_S + sum +
           MUT_TIMEOUT_SHARE *
               ((r->o->timeout_factor - 1) * max + MUT_CONST);
}

/* The position in mutant i's selection of the test that decided its
 * verdict v (killed_by names it), or -1: none, or a survivor. */
static long killer_pos(const struct unit *u, struct ptext *t, size_t i,
                       enum lt_verdict v, const char *killed_by)
{
    if (!killed_by || v == LT_VERDICT_SURVIVED)
        return -1;
    uint32_t *sel = NULL;
    double *cpu = NULL;
    size_t n = mut_tests(u, t, i, TM_LAYER1, &sel, &cpu);
    const struct pool *pool = &u->lane->pool;
    long p = -1;
    for (size_t q = 0; q < n && p < 0; q++) {
        uint32_t x = u->main_tests[sel[q]];
        if (x < pool->n_tests && pool->test_ids[x] &&
            strcmp(pool->test_ids[x], killed_by) == 0)
            p = (long)q;
    }
    free(sel);
    free(cpu);
    return p;
}

/* What mutant i's run cost by the model: the selected tests up to the
 * one that decided it (all of them for a survivor), a timeout's limit in
 * place of the test that timed out, and the child's own cost.  0 for a
 * fate without a run. */
static double mut_charge(const struct run *r, const struct unit *u,
                         struct ptext *t, size_t i, int real)
{
    enum lt_verdict v = (enum lt_verdict)t->mv[i];
    if (v == LT_VERDICT_PENDING || v == LT_VERDICT_EQUIVALENT ||
        v == LT_VERDICT_INVALID || v == LT_VERDICT_NO_COVERAGE)
        return 0;
    if (v == LT_VERDICT_ERROR)
        return mut_estimate(r, u, t, i, real);
    uint32_t *sel = NULL;
    double *cpu = NULL;
    size_t n = mut_tests(u, t, i, real ? TM_REAL : TM_LAYER1, &sel, &cpu);
    long kp = t->samp->kpos[i];
    size_t p = kp >= 0 && (size_t)kp < n ? (size_t)kp : n;
    double f = r->o->timeout_factor, sum = 0;
    for (size_t q = 0; q < p; q++)
        sum += cpu[q];
    if (v == LT_VERDICT_TIMEOUT)
        sum += p < n ? f * cpu[p] + MUT_CONST : (f - 1) * sum + MUT_CONST;
    else if (p < n)
        sum += cpu[p];
    free(sel);
    free(cpu);
    return MUT_RUN_S + sum;
}

struct stored_mut {
    struct unit *u;
    struct ptext *t;
};

static int load_mutant(const struct lt_candidate_mutant *m, void *ud)
{
    struct stored_mut *sm = ud;
    struct ptext *t = sm->t;
    for (size_t i = 0; i < t->ml.count; i++)
        if (strcmp(t->ml.items[i].id, m->mutant_id) == 0) {
            enum lt_verdict v = lt_verdict_from_name(m->verdict);
            if (v != LT_VERDICT_PENDING) {
                t->mv[i] = (unsigned char)v;
                t->samp->ms[i] = isfinite(m->duration_ms) ? m->duration_ms
                                                          : 0;
                if (t->an[i].status == LT_CHANGE_OK && t->dup_of[i] < 0)
                    t->samp->kpos[i] = killer_pos(sm->u, t, i, v,
                                                  m->killed_by);
            }
            break;
        }
    return 0;
}

static void put_mutant(struct run *r, struct unit *u, struct ptext *t,
                       size_t i, enum lt_verdict v, const char *killed_by,
                       const char *detail, double ms)
{
    t->mv[i] = (unsigned char)v;
    struct lt_candidate_mutant cm = {u->key, t->sha, t->ml.items[i].id,
                                     lt_verdict_name(v), killed_by, detail,
                                     ms};
    if (lt_exec_write(&r->ex) == 0)
        lt_exec_wrote(&r->ex, lt_store_put_candidate_mutant(r->st, &cm));
}

/* Texts with the same code as t take its mutation result. */
static void share_mutation(struct run *r, struct unit *u, struct ptext *t)
{
    for (size_t i = 0; i < u->n_texts; i++) {
        struct ptext *w = u->texts[i];
        if (w->twin != t || w->mut)
            continue;
        w->mut = json_deep_copy(t->mut);
        json_object_set_new(w->mut, "shared_with", json_string(t->sha));
        json_object_set_new(w->mut, "duration_ms", json_real(0));
        store_layer(r, u, w->sha, "mut", w->mut);
    }
}

/* A stored mutation result counts under the current --mutation-budget
 * only (the mutants' verdicts are kept: a new budget reruns none that
 * ran). */
static int mut_budget_same(const struct lt_patches_opts *o,
                           const json_t *mut)
{
    const char *s = lt__pe_str(mut, "status");
    if (!s || strcmp(s, "done") != 0)
        return 1;
    double b = lt__pe_num(mut, "budget_s", -1);
    return fabs(b - o->mutation_budget) < 1e-9;
}

static void finish_mutation(struct run *r, struct unit *u, struct ptext *t)
{
    struct lt__mut_sample *sp = t->samp;
    struct lt_summary s;
    memset(&s, 0, sizeof(s));
    /* The sampled mutants apart from those decided without a run. */
    double d = 0, v = 0, dk = 0, vk = 0, ms = sp->timing_ms;
    for (size_t i = 0; i < t->ml.count; i++) {
        enum lt_verdict x = (enum lt_verdict)t->mv[i];
        if (sp->needed[i])
            ms += sp->ms[i];
        if (!sp->counted[i])
            continue;
        lt_summary_add(&s, x);
        if (sp->kind[i] == MK_KNOWN) {
            dk += lt_verdict_is_detected(x);
            vk += lt_verdict_is_valid(x);
        } else {
            d += lt_verdict_is_detected(x);
            v += lt_verdict_is_valid(x);
        }
    }
    int sampled = sp->n_sample < sp->n_order;
    double lo = -1, hi = -1;
    double score = sampled ? lt__ps_score(d, v, (double)sp->n_sample,
                                          (double)sp->n_order, dk, vk, &lo,
                                          &hi)
                           : lt_summary_score(&s);
    json_t *counts = json_object();
    for (int x = LT_VERDICT_KILLED; x < LT_VERDICT__COUNT; x++)
        json_object_set_new(counts, lt_verdict_name((enum lt_verdict)x),
                            json_integer(s.counts[x]));
    json_decref(t->mut);
    t->mut = json_object();
    json_object_set_new(t->mut, "status", json_string("done"));
    json_object_set_new(t->mut, "score", score < 0 ? json_null()
                                                   : json_real(score));
    json_object_set_new(t->mut, "detected",
                        json_integer((json_int_t)(d + dk)));
    json_object_set_new(t->mut, "valid", json_integer((json_int_t)(v + vk)));
    json_object_set_new(t->mut, "mutants",
                        json_integer((json_int_t)t->ml.count));
    json_object_set_new(t->mut, "mutants_total",
                        json_integer((json_int_t)sp->n_order));
    json_object_set_new(t->mut, "mutants_run",
                        json_integer((json_int_t)sp->n_sample));
    json_object_set_new(t->mut, "sampled", json_boolean(sampled));
    if (sampled && score >= 0) {
        json_object_set_new(t->mut, "score_low", json_real(lo));
        json_object_set_new(t->mut, "score_high", json_real(hi));
    }
    json_object_set_new(t->mut, "budget_s", json_real(r->o->mutation_budget));
    json_object_set_new(t->mut, "estimate_s",
                        json_real(round(sp->est_total * 10) / 10));
    json_object_set_new(t->mut, "timing_run", json_boolean(sp->timed));
    json_object_set_new(t->mut, "counts", counts);
    json_object_set_new(t->mut, "duration_ms", json_real(ms));
    store_layer(r, u, t->sha, "mut", t->mut);
    share_mutation(r, u, t);
}

static void mutation_error(struct run *r, struct unit *u, struct ptext *t,
                           const char *why)
{
    json_decref(t->mut);
    t->mut = json_pack("{s:s, s:s, s:n, s:f}", "status", "error", "detail",
                       why, "score", "duration_ms", 0.0);
    store_layer(r, u, t->sha, "mut", t->mut);
    share_mutation(r, u, t);
}

/* Asks for the runs of the sampled mutants from position `from` on in
 * sample order: a duplicate's run is its representative's. */
static void queue_sample(struct run *r, struct unit *u, struct ptext *t,
                         size_t from)
{
    struct lt__mut_sample *s = t->samp;
    for (size_t j = from; j < s->n_sample; j++) {
        size_t i = s->order[j];
        size_t rep = t->dup_of[i] >= 0 ? (size_t)t->dup_of[i] : i;
        s->counted[i] = 1;
        int asked = s->needed[rep];
        s->needed[rep] = 1;
        if (t->mv[rep]) {
            if (!t->mv[i])
                put_mutant(r, u, t, i, (enum lt_verdict)t->mv[rep], NULL,
                           "same code as another mutant", 0);
        } else if (!asked) {
            struct ptask *task = task_new(u, T_MUT, t);
            task->mi = rep;
            submit(r, task, 0);
            t->mut_left++;
        }
    }
}

/* Every run a text's sample asked for has ended: a first sample is
 * extended with the budget it left, at the cost its runs showed (by the
 * times of a timing run, asked for first when layer 1's times leave too
 * little for every mutant); else the score is final. */
static void mutation_next(struct run *r, struct unit *u, struct ptext *t)
{
    struct lt__mut_sample *s = t->samp;
    if (s->stage == 1) {
        int real = s->tcpu != NULL;
        double spent = 0, est = 0;
        for (size_t i = 0; i < t->ml.count; i++)
            if (s->needed[i]) {
                spent += mut_charge(r, u, t, i, real);
                est += real ? mut_estimate(r, u, t, i, 1) : s->est[i];
            }
        size_t k = lt__ps_extend(s->n_sample, s->n_order, spent, est,
                                 s->budget - s->timing_s);
        lt_debug("mutants of %.8s: %zu of %zu cost %.3f s (estimated "
                 "%.3f s, %s times; timing run %.3f s): %zu", t->sha,
                 s->n_sample, s->n_order, spent, est,
                 real ? "untraced" : "layer-1", s->timing_s, k);
        if (k < s->n_order && !s->timed) {
            s->stage = 0;
            struct ptask *task = task_new(u, T_MUT, t);
            task->mi = MUT_TIMING;
            submit(r, task, 0);
            return;
        }
        s->stage = 2;
        if (k > s->n_sample) {
            size_t from = s->n_sample;
            s->n_sample = k;
            queue_sample(r, u, t, from);
            if (t->mut_left)
                return;
        }
    }
    finish_mutation(r, u, t);
}

/* Sorts a text's mutants into those decided without a run and those to
 * run, in sample order. */
static void classify_mutants(struct run *r, struct unit *u, struct ptext *t)
{
    struct lt__mut_sample *s = t->samp;
    size_t n = t->ml.count;
    for (size_t i = 0; i < n; i++) {
        if (t->an[i].status == LT_CHANGE_EQUIVALENT) {
            if (!t->mv[i])
                put_mutant(r, u, t, i, LT_VERDICT_EQUIVALENT, NULL,
                           "compiles to the candidate's code objects", 0);
        } else if (t->an[i].status != LT_CHANGE_OK) {
            if (!t->mv[i])
                put_mutant(r, u, t, i, LT_VERDICT_INVALID, NULL,
                           t->an[i].detail, 0);
        } else if (t->dup_of[i] < 0) {
            uint32_t *sel = NULL;
            size_t k = select_tests(u, t, cov_of(u, t), &t->ml.items[i],
                                    t->an[i].structural, &sel);
            free(sel);
            if (k == 0 && !t->mv[i])
                put_mutant(r, u, t, i, LT_VERDICT_NO_COVERAGE, NULL,
                           "no test executes its lines", 0);
            if (k > 0)
                s->kind[i] = MK_RUN;
        }
    }
    for (size_t i = 0; i < n; i++) {
        long d = t->dup_of[i];
        if (t->an[i].status == LT_CHANGE_OK && d >= 0 &&
            s->kind[d] == MK_RUN)
            s->kind[i] = MK_DUP;
        if (s->kind[i] == MK_KNOWN)
            s->counted[i] = 1;
        else
            s->order[s->n_order++] = i;
    }
    lt__ps_shuffle(t->sha, s->order, s->n_order);
}

/* The first sample, from the estimates by layer 1's times (a resumed
 * run, which may have the timing run's, must choose the same): every
 * runnable mutant when they fit the budget. */
static void first_sample(struct run *r, struct unit *u, struct ptext *t)
{
    struct lt__mut_sample *s = t->samp;
    size_t n = t->ml.count;
    s->est_total = 0;
    for (size_t i = 0; i < n; i++) {
        if (s->kind[i] != MK_RUN)
            continue;
        s->est[i] = mut_estimate(r, u, t, i, 0);
        s->est_total += s->est[i];
    }
    double budget = s->budget;
    s->n_sample = s->n_order;
    s->stage = 2;
    if (s->budget > 0 && s->est_total > budget) {
        /* Each run's estimate counts at the first member needing it. */
        double *cost = xcalloc(s->n_order + 1, sizeof(double));
        unsigned char *seen = xcalloc(n + 1, 1);
        for (size_t j = 0; j < s->n_order; j++) {
            size_t i = s->order[j];
            size_t rep = t->dup_of[i] >= 0 ? (size_t)t->dup_of[i] : i;
            if (!seen[rep])
                cost[j] = s->est[rep];
            seen[rep] = 1;
        }
        s->n_sample = lt__ps_first(cost, s->n_order, budget);
        s->stage = s->n_sample < s->n_order ? 1 : 2;
        free(cost);
        free(seen);
    }
}

/* Queues the first sample's runs. */
static void run_sample(struct run *r, struct unit *u, struct ptext *t)
{
    queue_sample(r, u, t, 0);
    /* Duplicates of mutants decided without a run. */
    for (size_t i = 0; i < t->ml.count; i++)
        if (!t->mv[i] && t->dup_of[i] >= 0 && t->mv[t->dup_of[i]] &&
            t->samp->kind[i] == MK_KNOWN)
            put_mutant(r, u, t, i, (enum lt_verdict)t->mv[t->dup_of[i]],
                       NULL, "same code as another mutant", 0);
    if (t->mut_left == 0)
        mutation_next(r, u, t);
}

/* Takes the per-test CPU times of a timing run ("mtime" layer: cpu_ms per
 * main test, or status "error"): the estimates and the mutants' limits
 * use them from then on. */
static void use_timing(const struct unit *u, struct ptext *t,
                       const json_t *mt)
{
    struct lt__mut_sample *s = t->samp;
    const json_t *cpus = json_object_get(mt, "cpu_ms");
    s->timed = 1;
    s->timing_ms = lt__pe_num(mt, "duration_ms", 0);
    s->timing_s = MUT_RUN_S;
    if (json_array_size(cpus) != u->n_main || u->n_main == 0)
        return;
    double *v = xcalloc(u->n_main + 1, sizeof(double));
    for (size_t q = 0; q < u->n_main; q++) {
        double ms = json_number_value(json_array_get(cpus, q));
        if (!isfinite(ms) || ms < 0) {
            free(v);
            return;
        }
        v[q] = ms / 1000.0;
        s->real_total += v[q];
    }
    s->timing_s += s->real_total;
    s->tcpu = v;
}

/* The timing run of text t ended (j NULL: it could not run): its
 * per-test times are stored, and the sample extended with them. */
static void mutation_timed(struct run *r, struct unit *u, struct ptext *t,
                           const struct job *j)
{
    json_t *mt = json_object();
    int ok = j && !j->timed_out && j->seen;
    json_t *cpus = json_array();
    for (size_t q = 0; ok && q < u->n_main; q++) {
        uint32_t x = u->main_tests[q];
        ok = j->seen[x];
        json_array_append_new(cpus, json_real(j->test_cpu_ns[x] / 1e6));
    }
    double ms = 0;
    if (j && j->exited_at > 0)
        ms = (j->exited_at - j->started_at) * 1000.0;
    json_object_set_new(mt, "status", json_string(ok ? "done" : "error"));
    json_object_set_new(mt, "cpu_ms", ok ? cpus : json_array());
    if (!ok)
        json_decref(cpus);
    json_object_set_new(mt, "duration_ms", json_real(ms));
    store_layer(r, u, t->sha, "mtime", mt);
    use_timing(u, t, mt);
    json_decref(mt);
    t->samp->stage = 1;
    mutation_next(r, u, t);
}

/* Generates the mutants of a text, drops the equivalent and invalid
 * ones, restores the verdicts already stored and queues the runs of its
 * first sample (every mutant within --mutation-budget). */
static void start_mutation(struct run *r, struct unit *u, struct ptext *t)
{
    t->mut_started = 1;
    /* The same tokens and the same syntax tree as the reference: the same
     * code, hence the same mutants with the same fates. */
    if (!t->is_ref && u->ref &&
        ((t->code[0] && strcmp(t->code, u->ref->code) == 0) ||
         (t->sim && lt__pe_num(t->sim, "token", 0) >= 1.0 &&
          lt__pe_num(t->sim, "ast", 0) >= 1.0))) {
        t->twin = u->ref;
        if (u->ref->mut)
            share_mutation(r, u, u->ref);
        return;
    }
    const json_t *cov = cov_of(u, t);
    const json_t *lines = cov ? json_object_get(cov, "lines") : NULL;
    if (!cov || json_array_size(lines) != u->n_main) {
        mutation_error(r, u, t, "no coverage of the tests on this text "
                       "(stored results of other tests? use a new --db)");
        return;
    }
    char *name = xasprintf("candidate-%.16s.py", t->sha);
    char *msg = NULL;
    int rc = lt_operators_generate(name, t->text, t->len, "mutmut", &t->ml,
                                   &msg);
    free(name);
    if (rc < 0) {
        char *why = xasprintf("cannot generate mutants: %s",
                              msg ? msg : lt_strerror(rc));
        mutation_error(r, u, t, why);
        free(why);
        free(msg);
        return;
    }
    free(msg);
    size_t n = t->ml.count;
    t->an = xcalloc(n + 1, sizeof(*t->an));
    t->dup_of = xcalloc(n + 1, sizeof(long));
    t->mv = xcalloc(n + 1, 1);
    rc = lt__mutants_analyse(u->p0->buggy, t->text, t->len, t->ml.items, n,
                             NULL, t->an, t->dup_of);
    if (rc < 0) {
        mutation_error(r, u, t, "cannot compile the mutants");
        return;
    }
    struct lt__mut_sample *s = t->samp = xcalloc(1, sizeof(*s));
    s->budget = r->o->mutation_budget;
    s->order = xcalloc(n + 1, sizeof(size_t));
    s->kind = xcalloc(n + 1, 1);
    s->needed = xcalloc(n + 1, 1);
    s->counted = xcalloc(n + 1, 1);
    s->kpos = xcalloc(n + 1, sizeof(long));
    for (size_t i = 0; i < n; i++)
        s->kpos[i] = -1;
    s->est = xcalloc(n + 1, sizeof(double));
    s->ms = xcalloc(n + 1, sizeof(double));
    s->work = xcalloc(u->n_main + 1, sizeof(double));
    for (size_t q = 0; q < u->n_main; q++) {
        double e = (double)json_integer_value(
            json_array_get(json_object_get(cov, "events"), q));
        double c = json_number_value(
            json_array_get(json_object_get(cov, "cpu_ms"), q));
        s->work[q] = e > 0 ? e : 0;
        s->work_total += s->work[q];
        s->l1_total += isfinite(c) && c > 0 ? c / 1000 : 0;
    }
    json_t *mt = NULL;
    rc = load_layer(r, u, t, "mtime", &mt);
    if (rc == 0 && mt)
        use_timing(u, t, mt);
    json_decref(mt);
    struct stored_mut sm = {u, t};
    if (rc == 0)
        rc = lt_store_each_candidate_mutant(r->st, u->key, t->sha,
                                            load_mutant, &sm);
    if (rc < 0) {
        lt_error("%s: %s", r->o->db, lt_strerror(rc));
        lt_exec_fail(&r->ex, LT_EXIT_ENGINE);
        return;
    }
    classify_mutants(r, u, t);
    first_sample(r, u, t);
    run_sample(r, u, t);
}

/*** Advancing a unit ***/

static void compute_sim(struct run *r, struct unit *u, struct ptext *t)
{
#ifdef LT_HAVE_SIMILARITY
    const char *s = lt__pe_str(t->l1, "status");
    if (!u->ref || t->sim || !s || strcmp(s, "syntax") == 0 ||
        strcmp(s, "too_large") == 0)
        return;
    double tok = lt_sim_token_levenshtein(t->text, t->len, u->ref->text,
                                          u->ref->len, LT_SIM_PYTHON);
    double ast = lt_sim_tree_edit(t->text, t->len, u->ref->text, u->ref->len,
                                  LT_SIM_PYTHON);
    if (tok < 0 || ast < 0)
        return;
    /* Rounded so that a stored value and a fresh one print alike. */
    t->sim = json_pack("{s:f, s:f}", "token", round(tok * 1e6) / 1e6, "ast",
                       round(ast * 1e6) / 1e6);
    store_layer(r, u, t->sha, "sim", t->sim);
#else
    (void)r;
    (void)u;
    (void)t;
#endif
}

/* A candidate text that compiles to the same code as an earlier one
 * takes that one's runs as they come: its tests, held-out tests,
 * differential results and mutation score (its similarity to the
 * reference, and so its verdict, stay its own). */
static void share_layers(struct run *r, struct unit *u, struct ptext *t)
{
    static const char *const names[] = {"l1", "held", "diff", "mut"};
    struct ptext *s = t->same;
    json_t **mine[] = {&t->l1, &t->held, &t->diff, &t->mut};
    json_t *const theirs[] = {s->l1, s->held, s->diff, s->mut};
    for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++) {
        if (*mine[i] || !theirs[i])
            continue;
        *mine[i] = json_deep_copy(theirs[i]);
        json_object_set_new(*mine[i], "shared_with", json_string(s->sha));
        store_layer(r, u, t->sha, names[i], *mine[i]);
    }
    t->q_l1 = t->q_held = t->q_diff = 1;
    t->mut_started = 1;
}

static void advance(struct run *r, struct unit *u)
{
    const struct lt_patches_opts *o = r->o;
    if (!u->have_tests || r->ex.fatal)
        return;
    if (u->ref && !u->ref_json) {
        if (!u->q_ref) {
            submit(r, task_new(u, T_REF_MAIN, u->ref), 0);
            if (u->n_held)
                submit(r, task_new(u, T_REF_HELD, u->ref), 0);
            u->q_ref = 1;
        }
        return; /* budgets and captured calls come from it */
    }
    for (size_t i = 0; i < u->n_texts; i++) {
        struct ptext *t = u->texts[i];
        if (t->is_ref && o->mutation && !t->mut && !t->mut_started)
            start_mutation(r, u, t);
        if (!t->is_cand)
            continue;
        if (t->same) {
            share_layers(r, u, t);
            if (l1_passed(t))
                compute_sim(r, u, t);
            continue;
        }
        if (!t->l1 && !t->q_l1) {
            submit(r, task_new(u, T_L1, t), 0);
            t->q_l1 = 1;
        }
        if (!l1_passed(t))
            continue;
        if (u->ref && !t->diff && !t->q_diff && t->code[0] &&
            strcmp(t->code, u->ref->code) == 0) {
            /* The reference's own code (comments or layout aside): it
             * agrees with the reference on every input, without a run. */
            t->diff = json_pack("{s:s, s:s, s:i, s:i, s:{}, s:f}", "status",
                                "same", "detail",
                                "compiles to the same code as the reference "
                                "fix", "compared", 0, "skipped", 0,
                                "by_origin", "duration_ms", 0.0);
            store_layer(r, u, t->sha, "diff", t->diff);
        }
        if (u->ref && !t->diff && !t->q_diff) {
            submit(r, task_new(u, T_DIFF, t), 0);
            t->q_diff = 1;
        }
        if (u->n_held && !t->held && !t->q_held) {
            submit(r, task_new(u, T_HELD, t), 0);
            t->q_held = 1;
        }
        compute_sim(r, u, t);
        if (o->mutation && !t->mut && !t->mut_started)
            start_mutation(r, u, t);
    }
}

/*** Finishing a unit: similarity, verdicts ***/

static void progress_show(struct run *r, int force);

static void finish_unit(struct run *r, struct unit *u)
{
    for (size_t i = 0; i < u->n_texts; i++) {
        if (u->texts[i]->same)
            share_layers(r, u, u->texts[i]);
        if (u->texts[i]->is_cand)
            compute_sim(r, u, u->texts[i]);
    }
    for (size_t i = 0; i < r->n_patches; i++) {
        struct patch *p = &r->patches[i];
        if (p->prog->unit != u)
            continue;
        struct pverdict v;
        lt__pe_decide(r->o, u, p->pt, u->ref, &v);
        json_object_set_new(v.evidence, "program", json_string(p->prog->name));
        json_object_set_new(v.evidence, "run_id", json_string(p->run_id));
        char *ev = json_dumps(v.evidence, JSON_COMPACT);
        struct lt_patch_run pr = {p->seq, p->prog->name, p->run_id, u->key,
                                  p->sha, v.verdict, v.reason, v.detail, ev,
                                  v.duration_ms};
        if (lt_exec_write(&r->ex) == 0)
            lt_exec_wrote(&r->ex, lt_store_put_patch_run(r->st, &pr));
        r->decided++;
        free(ev);
        free(v.detail);
        json_decref(v.evidence);
    }
    lt_exec_trim(&r->ex, u->lane, 0);
    u->done = 1;
    progress_show(r, 0);
}

/*** Starting jobs ***/

static const char *kind_name(enum ptask_kind k)
{
    static const char *const n[] = {"ref", "ref_held", "l1", "held", "diff",
                                    "mutant"};
    return n[k];
}

/* Sets the per-test arrays of a job over the listed main or held-out
 * positions. */
static void spec_tests(struct unit *u, struct job *spec, const uint32_t *idx,
                       size_t n, int cov)
{
    lt__job_alloc(spec, u->lane->pool.n_tests, cov);
    spec->n_files = 1;
    spec->tests = xmalloc((n + 1) * sizeof(uint32_t));
    memcpy(spec->tests, idx, n * sizeof(uint32_t));
    spec->n_tests = n;
}

static double ref_cpu_s(const struct unit *u, int held)
{
    const json_t *part = held ? json_object_get(u->ref_json, "held")
                              : u->ref_json;
    return lt__pe_num(part, "cpu_ms_total", 0) / 1000.0;
}

/* The CPU ms of the slowest main test of a text's layer-1 run. */
/* The flags of a mutant run of text t: process mode when its layer 1
 * saw a test start a process or open a network socket. */
static uint32_t mut_flags(const struct ptext *t)
{
    const json_t *l1 = t->same ? t->same->l1 : t->l1;
    return LT_PF_MUT | (l1 && json_is_true(json_object_get(l1, "processes"))
                            ? LT_RUN_PROCESSES : 0);
}

static double slowest_test_ms(const struct unit *u, const struct ptext *t)
{
    const json_t *cpus = json_object_get(cov_of(u, t), "cpu_ms");
    double max = 0;
    size_t i;
    const json_t *v;
    json_array_foreach(cpus, i, v)
        if (json_number_value(v) > max)
            max = json_number_value(v);
    return max;
}

/* The JSON job of a differential run (runners/runner.h, LT_RUN_CALLS;
 * runners/calls.py, diff_main, reads it). */
static char *diff_extra(const struct lt_patches_opts *opts, struct unit *u,
                        struct ptext *t, double call_timeout)
{
    json_t *o = json_object();
    json_object_set_new(o, "kind", json_string("diff"));
    json_object_set_new(o, "module", json_string(u->module));
    json_object_set_new(o, "path", json_string(u->p0->buggy));
    json_object_set_new(o, "reference", json_stringn(u->ref->text,
                                                     u->ref->len));
    json_object_set_new(o, "candidate", json_stringn(t->text, t->len));
    json_t *calls = json_object_get(u->ref_json, "calls");
    json_t *orig = json_object_get(u->ref_json, "origins");
    json_object_set_new(o, "captured", calls ? json_incref(calls)
                                             : json_array());
    json_object_set_new(o, "captured_origin", orig ? json_incref(orig)
                                                   : json_array());
    json_object_set(o, "inputs", u->inputs);
    json_object_set_new(o, "derive", json_true());
    json_object_set_new(o, "call_timeout", json_real(call_timeout));
    json_object_set_new(o, "timeout_factor", json_real(opts->timeout_factor));
    json_object_set_new(o, "timeout_const", json_real(opts->timeout_const));
    json_object_set_new(o, "candidate_test_ms",
                        json_real(slowest_test_ms(u, t)));
    json_object_set_new(o, "budget", json_real(opts->diff_budget));
    if (u->precondition)
        json_object_set_new(o, "precondition",
                            json_string(u->precondition));
    json_object_set_new(o, "max_inputs", json_integer(20000));
    /* json_stringn refuses invalid UTF-8: such texts fail layer 1. */
    char *s = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    return s;
}

/* What a task's child runs (the task's prepare op).  0, or LT_EUSAGE
 * when the differential job is too large to send. */
static int task_prepare(struct lt_exec *ex, struct lt_task *xt,
                        struct lt_launch *la)
{
    struct run *r = ex->owner;
    struct ptask *k = xt->owner;
    struct unit *u = k->u;
    const struct lt_patches_opts *o = r->o;
    struct job *spec = &la->spec;
    struct lt_run_request *req = &la->req;
    req->mode = LT_RUN_MUTANT;
    req->subject = 0;
    req->start = 0;
    req->end = u->buggy_len;
    req->memory_bytes = (uint64_t)o->memory_mb << 20;
    double cpu = 0, wall = 0;
    switch (k->kind) {
    case T_REF_MAIN:
    case T_REF_HELD: {
        int held = k->kind == T_REF_HELD;
        spec_tests(u, spec, held ? u->held_tests : u->main_tests,
                   held ? u->n_held : u->n_main, !held);
        req->replacement = k->t->text;
        req->flags = held ? LT_PF_REF_HELD : LT_PF_REF_MAIN;
        cpu = REF_TIMEOUT;
        wall = REF_TIMEOUT;
        break;
    }
    case T_L1:
    case T_HELD: {
        int held = k->kind == T_HELD;
        spec_tests(u, spec, held ? u->held_tests : u->main_tests,
                   held ? u->n_held : u->n_main, !held);
        req->replacement = k->t->text;
        req->flags = held ? LT_PF_HELD : LT_PF_L1;
        cpu = u->ref ? o->timeout_factor * ref_cpu_s(u, held) +
                           o->timeout_const
                     : o->timeout;
        wall = 3 * cpu + 1;
        break;
    }
    case T_DIFF: {
        lt__job_alloc(spec, u->lane->pool.n_tests, 0);
        spec->n_files = 1;
        /* A call's limit: well above the slowest test of the reference
         * and of the candidate (a call the tests make cannot be slower
         * than the test that makes it). */
        double max_ms = lt__pe_num(u->ref_json, "max_test_cpu_ms", 0);
        double own_ms = slowest_test_ms(u, k->t);
        k->call_timeout = CALL_CONST + o->timeout_factor *
                                           (max_ms > own_ms ? max_ms : own_ms) /
                                           1000.0;
        char *extra = la->owned[1] = diff_extra(o, u, k->t, k->call_timeout);
        if (!extra || strlen(extra) > MAX_EXTRA)
            return LT_EUSAGE; /* lost: "the job cannot be encoded" */
        req->mode = LT_RUN_CALLS;
        req->start = req->end = 0;
        req->replacement = "";
        req->extra = extra;
        req->flags = LT_PF_DIFF;
        cpu = 0; /* no engine CPU budget: the probe watchdog and the
                    runner's per-call limit stop stuck calls */
        wall = DIFF_TIMEOUT;
        k->probe_index = -1;
        k->probe_at = lt__now();
        k->probe_cpu_ns = -1;
        k->probe_stuck = 0;
        break;
    }
    case T_MUT: {
        struct ptext *t = k->t;
        if (k->mi == MUT_TIMING) {
            /* Every main test on the text itself, without tracing; its
             * limit is layer 1's, which tracing made longer. */
            spec_tests(u, spec, u->main_tests, u->n_main, 0);
            req->replacement = t->text;
            req->flags = mut_flags(t);
            const json_t *cpus = json_object_get(cov_of(u, t), "cpu_ms");
            double sum = 0;
            for (size_t i = 0; i < u->n_main; i++)
                sum += json_number_value(json_array_get(cpus, i)) / 1000;
            cpu = o->timeout_factor * sum + MUT_CONST;
            wall = 3 * cpu + 1;
            break;
        }
        const struct lt_mutant *m = &t->ml.items[k->mi];
        uint32_t *sel = NULL;
        double *tcpu = NULL, sum = 0;
        size_t n = mut_tests(u, t, k->mi, TM_LIMIT, &sel, &tcpu);
        for (size_t i = 0; i < n; i++) {
            sum += tcpu[i];
            sel[i] = u->main_tests[sel[i]];
        }
        spec_tests(u, spec, sel, n, 0);
        /* Each test also has a limit of its own, from its own time: a
         * mutant that loops in its first, cheapest test is stopped after
         * about factor x that test + the constant, not after the limit
         * of every test selected with it (on an exponential program, the
         * costliest test's). */
        spec->test_budget_ns = xcalloc(u->lane->pool.n_tests + 1,
                                       sizeof(double));
        for (size_t i = 0; i < n; i++)
            spec->test_budget_ns[sel[i]] =
                (o->timeout_factor * tcpu[i] + MUT_CONST) * 1e9;
        free(sel);
        free(tcpu);
        size_t len = 0;
        req->replacement = la->owned[0] = lt_mutant_apply(m, t->text, t->len,
                                                          &len);
        req->flags = mut_flags(t);
        req->stop_first = 1;
        cpu = o->timeout_factor * sum + MUT_CONST;
        wall = 3 * cpu + 1;
        break;
    }
    }
    req->cpu_seconds = lt__cpu_limit_for(cpu > 0 ? cpu : DIFF_TIMEOUT);
    spec->cpu_budget_ns = cpu * 1e9;
    la->wall = wall;
    return 0;
}

/* A zygote of a unit started (t NULL), or task t's child did (the lane's
 * started op): the run's figures and its log. */
static void unit_started(struct lt_exec *ex, struct lt_lane *l,
                         struct lt_task *xt)
{
    struct run *r = ex->owner;
    struct unit *u = l->owner;
    struct ptask *k = xt ? xt->owner : NULL;
    if (k)
        r->jobs_started[k->kind]++;
    else
        r->zygotes_started++;
    if (!r->run_log)
        return;
    /* Test aid: which zygotes and runs this process started. */
    if (!k) {
        fprintf(r->run_log, "%s zygote\n", u->key);
    } else {
        const char *mid = k->kind != T_MUT        ? ""
                          : k->mi == MUT_TIMING ? "timing"
                                                : k->t->ml.items[k->mi].id;
        fprintf(r->run_log, "%s %s %.16s%s%s\n", u->key, kind_name(k->kind),
                k->t->sha, *mid ? " " : "", mid);
    }
    fflush(r->run_log);
}

/*** Finishing jobs ***/

static int fail_input(struct run *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int fail_input(struct run *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = xvasprintf(fmt, ap);
    va_end(ap);
    lt_error("%s", s ? s : "input error");
    free(s);
    lt_exec_fail(&r->ex, LT_EXIT_USAGE);
    return -1;
}

static unsigned char *ref_skipped_map(const struct unit *u)
{
    unsigned char *m = xcalloc(u->lane->pool.n_tests + 1, 1);
    const json_t *parts[2] = {u->ref_json,
                              u->ref_json ? json_object_get(u->ref_json,
                                                            "held")
                                          : NULL};
    for (int p = 0; p < 2; p++) {
        const json_t *sk = parts[p] ? json_object_get(parts[p], "skipped_idx")
                                    : NULL;
        size_t i;
        json_t *v;
        json_array_foreach(sk, i, v) {
            json_int_t x = json_integer_value(v);
            if (x >= 0 && (size_t)x < u->lane->pool.n_tests)
                m[x] = 1;
        }
    }
    return m;
}

static void ref_done(struct run *r, struct unit *u)
{
    if (!u->ref_main || (u->n_held && !u->ref_held))
        return;
    json_t *o = json_deep_copy(u->ref_main);
    json_t *calls = json_array(), *origins = json_array();
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(u->ref_main, "calls"), i, v) {
        json_array_append(calls, v);
        json_array_append_new(origins, json_string("test"));
    }
    if (u->ref_held) {
        json_array_foreach(json_object_get(u->ref_held, "calls"), i, v) {
            json_array_append(calls, v);
            json_array_append_new(origins, json_string("held_out"));
        }
        json_t *h = json_deep_copy(u->ref_held);
        json_object_del(h, "calls");
        json_object_set_new(o, "held", h);
    }
    json_object_set_new(o, "calls", calls);
    json_object_set_new(o, "origins", origins);
    u->ref_json = o;
    store_layer(r, u, u->ref->sha, "ref", o);
}

/* Records what a finished job showed and queues what it unlocks (the
 * task's finished op; the executor said once when the kernel could not
 * give the whole sandbox).  A job whose evidence is an engine error runs
 * once more. */
static void task_finished(struct lt_exec *ex, struct lt_task *xt,
                          struct job *j)
{
    struct run *r = ex->owner;
    struct ptask *k = xt->owner;
    struct unit *u = k->u;
    struct ptext *t = k->t;
    switch (k->kind) {
    case T_REF_MAIN:
    case T_REF_HELD: {
        int held = k->kind == T_REF_HELD;
        char *why = NULL;
        json_t *ev = lt__pe_reference(u, j, held, &why);
        if (!ev) {
            fail_input(r, "program '%s': the reference fix %s does not pass "
                       "its own %stests: %s", u->p0->name, u->p0->reference,
                       held ? "held-out " : "", why);
            free(why);
            break;
        }
        if (held)
            u->ref_held = ev;
        else
            u->ref_main = ev;
        ref_done(r, u);
        break;
    }
    case T_L1:
    case T_HELD: {
        int held = k->kind == T_HELD;
        unsigned char *sk = u->ref_json ? ref_skipped_map(u) : NULL;
        json_t *ev = lt__pe_tests(u, j, held, sk);
        free(sk);
        if (!held && l1_passed(&(struct ptext){.l1 = ev}))
            json_object_set_new(ev, "cov", lt__pe_coverage(u, j));
        for (size_t i = 0; !held && j->test_needs && i < j->n_tests; i++)
            if (j->test_needs[j->tests[i]]) {
                json_object_set_new(ev, "processes", json_true());
                break;
            }
        if (strcmp(lt__pe_str(ev, "status"), "error") == 0 &&
            !k->task.retried) {
            json_decref(ev);
            submit(r, k, 1);
            return;
        }
        if (held) {
            t->held = ev;
        } else {
            json_object_set_new(ev, "tests_collected",
                                json_integer((json_int_t)
                                                 u->lane->pool.n_tests));
            t->l1 = ev;
        }
        store_layer(r, u, t->sha, held ? "held" : "l1", ev);
        break;
    }
    case T_DIFF: {
        json_t *ev = lt__pe_diff(j, k);
        if (strcmp(lt__pe_str(ev, "status"), "error") == 0 &&
            !k->task.retried) {
            json_decref(ev);
            submit(r, k, 1);
            return;
        }
        t->diff = ev;
        store_layer(r, u, t->sha, "diff", ev);
        break;
    }
    case T_MUT: {
        if (k->mi == MUT_TIMING) {
            mutation_timed(r, u, t, j);
            break;
        }
        char *detail = NULL, *killed_by = NULL;
        enum lt_verdict v = lt__pe_mutant(&u->lane->pool, j, &detail,
                                          &killed_by);
        if (v == LT_VERDICT_ERROR && !k->task.retried) {
            free(detail);
            free(killed_by);
            submit(r, k, 1);
            return;
        }
        double ms = (lt__now() - j->started_at) * 1000.0;
        if (j->exited_at > 0)
            ms = (j->exited_at - j->started_at) * 1000.0;
        t->samp->ms[k->mi] = ms;
        t->samp->kpos[k->mi] = killer_pos(u, t, k->mi, v, killed_by);
        put_mutant(r, u, t, k->mi, v, killed_by, detail, ms);
        for (size_t i = 0; i < t->ml.count; i++)
            if (t->dup_of[i] == (long)k->mi && !t->mv[i])
                put_mutant(r, u, t, i, v, killed_by,
                           "same code as another mutant", 0);
        free(detail);
        free(killed_by);
        if (--t->mut_left == 0)
            mutation_next(r, u, t);
        break;
    }
    }
    free(k);
    advance(r, u);
}

/* A task that cannot run (the task's lost op): its zygote died with it
 * twice (the executor ran it once more after the first death), or its
 * differential job is too large to send; an engine error. */
static void task_lost(struct lt_exec *ex, struct lt_task *xt,
                      const char *why)
{
    struct run *r = ex->owner;
    struct ptask *k = xt->owner;
    struct unit *u = k->u;
    struct ptext *t = k->t;
    unqueued(k);
    if (strcmp(why, "the job cannot be encoded") == 0 && k->kind == T_DIFF)
        why = "the differential job is too large";
    switch (k->kind) {
    case T_REF_MAIN:
    case T_REF_HELD:
        if (strcmp(why, "the runner died twice") == 0)
            lt_error("program '%s': the runner died twice during the "
                     "reference run", u->p0->name);
        else
            lt_error("program '%s': the reference run: %s", u->p0->name,
                     why);
        lt_exec_fail(ex, LT_EXIT_ENGINE);
        break;
    case T_L1:
    case T_HELD:
    case T_DIFF: {
        json_t *ev = json_pack("{s:s, s:s, s:f}", "status", "error",
                               "detail", why, "duration_ms", 0.0);
        const char *layer = k->kind == T_L1     ? "l1"
                            : k->kind == T_HELD ? "held"
                                                : "diff";
        if (k->kind == T_L1)
            t->l1 = ev;
        else if (k->kind == T_HELD)
            t->held = ev;
        else
            t->diff = ev;
        store_layer(r, u, t->sha, layer, ev);
        break;
    }
    case T_MUT:
        if (k->mi == MUT_TIMING) {
            mutation_timed(r, u, t, NULL);
            break;
        }
        put_mutant(r, u, t, k->mi, LT_VERDICT_ERROR, NULL, why, 0);
        if (--t->mut_left == 0)
            mutation_next(r, u, t);
        break;
    }
    free(k);
    advance(r, u);
}

/*** A unit's tests ***/

/* The test ids of the unit's pool, split into main and held-out tests
 * by the file part of each node id. */
static int setup_tests(struct run *r, struct unit *u)
{
    size_t nt = u->lane->pool.n_tests;
    u->main_tests = xcalloc(nt + 1, sizeof(uint32_t));
    u->held_tests = xcalloc(nt + 1, sizeof(uint32_t));
    char *held = u->p0->held_out;
    size_t hl = held ? strlen(held) : 0;
    for (size_t i = 0; i < nt; i++) {
        int is_held = 0;
        if (held) {
            const char *id = u->lane->pool.test_ids[i];
            const char *sep = strstr(id, "::");
            char *file = sep ? xstrndup(id, (size_t)(sep - id)) : xstrdup(id);
            /* Node ids are relative to pytest's rootdir: try the working
             * directory and its ancestors as that root. */
            char *root = xstrdup(u->cwd);
            for (;;) {
                char *p = xasprintf("%s/%s", root, file);
                char *real = realpath(p, NULL);
                free(p);
                if (real) {
                    is_held = strcmp(real, held) == 0 ||
                              (strncmp(real, held, hl) == 0 &&
                               real[hl] == '/');
                    free(real);
                    break;
                }
                char *up = dir_of(root);
                int top = strcmp(up, root) == 0;
                free(root);
                root = up;
                if (top)
                    break;
            }
            free(root);
            free(file);
        }
        if (is_held)
            u->held_tests[u->n_held++] = (uint32_t)i;
        else
            u->main_tests[u->n_main++] = (uint32_t)i;
    }
    if (u->n_main == 0)
        return fail_input(r, "program '%s': no tests collected from %s",
                          u->p0->name, u->p0->tests);
    if (held && u->n_held == 0)
        return fail_input(r, "program '%s': no held-out tests collected from "
                          "%s", u->p0->name, held);
    u->have_tests = 1;
    return 0;
}

/*** The unit's lane ***/

/* Work a pending unit will have once its tests are known, roughly. */
static size_t initial_work(const struct unit *u)
{
    size_t n = u->ref && !u->ref_json ? 1 : 0;
    for (size_t i = 0; i < u->n_texts; i++)
        n += u->texts[i]->is_cand && !u->texts[i]->l1;
    return n ? n : 1;
}

/* A zygote of the unit is ready (the lane's ready op); the first one's
 * tests are the unit's, and its first tasks follow from them. */
static int unit_ready(struct lt_exec *ex, struct lt_lane *l, int first,
                      char **why)
{
    struct run *r = ex->owner;
    struct unit *u = l->owner;
    (void)why; /* every failure stops the run */
    if (!first)
        return 0;
    if (l->pool.n_tests == 0)
        return fail_input(r, "program '%s': no tests collected from %s",
                          u->p0->name, u->p0->tests);
    if (setup_tests(r, u) < 0)
        return -1;
    advance(r, u);
    return 0;
}

/* A zygote of the unit could not start or collect the tests (the lane's
 * start_failed op): the run stops. */
static void unit_start_failed(struct lt_exec *ex, struct lt_lane *l, int rc,
                              const char *msg)
{
    struct run *r = ex->owner;
    struct unit *u = l->owner;
    if (rc == LT_ENOTESTS) {
        /* A FAILED frame without a readable message says nothing more
         * (the executor would name the code). */
        fail_input(r, "program '%s': the tests cannot be collected with "
                   "the buggy file in place: %s", u->p0->name,
                   strcmp(msg, lt_strerror(rc)) == 0 ? "" : msg);
        return;
    }
    lt_error("program '%s': %s", u->p0->name, msg);
    lt_exec_fail(ex, LT_EXIT_ENGINE);
}

/* The tasks the unit will have, for sharing the zygote slots (the lane's
 * work op): what it queued once its tests are known, before that an
 * estimate; none once it is done or when it needs no run. */
static size_t unit_work(const struct lt_lane *l)
{
    const struct unit *u = l->owner;
    if (u->done || !u->pending_work)
        return 0;
    return u->have_tests ? lt_exec_queued(l) : initial_work(u);
}

/* The probe watchdog of a differential job (its task's watch op): a call
 * that makes no progress, which the runner's own per-call limit did not
 * stop, is killed.  No progress is CPU time, which load does not
 * stretch: a child starved of the CPU on a busy machine must not make
 * the reference look stuck (the comparison would be inconclusive and an
 * overfitting patch pass).  A call that sleeps uses no CPU: the wall
 * clock catches it, later. */
static void diff_watch(struct lt_exec *ex, struct lt_task *xt, struct job *j,
                       double now)
{
    struct ptask *t = xt->owner;
    (void)ex;
    if (t->probe_stuck)
        return;
    double cpu = j->pid > 0 ? lt__job_cpu_ns(j) : -1;
    if (j->probe_index != t->probe_index ||
        j->probe_phase != t->probe_phase) {
        t->probe_index = j->probe_index;
        t->probe_phase = j->probe_phase;
        t->probe_at = now;
        t->probe_cpu_ns = cpu;
        return;
    }
    if (t->probe_cpu_ns < 0) /* the first reading of this probe */
        t->probe_cpu_ns = cpu;
    double limit = 3 * t->call_timeout + 2.0;
    if ((cpu >= 0 && cpu - t->probe_cpu_ns > limit * 1e9) ||
        now - t->probe_at > 3 * limit + 10.0) {
        t->probe_stuck = 1;
        lt__job_kill(j);
    }
}

static const struct lt_task_ops task_ops = {
    .prepare = task_prepare, .finished = task_finished, .lost = task_lost};
static const struct lt_task_ops diff_ops = {
    .prepare = task_prepare, .finished = task_finished, .lost = task_lost,
    .watch = diff_watch};
static const struct lt_lane_ops lane_ops = {
    .ready = unit_ready, .start_failed = unit_start_failed,
    .work = unit_work, .next = unit_next, .started = unit_started};

/* The unit's lane: its zygotes run pytest on its tests with its buggy
 * file as the subject. */
static void unit_lane(struct run *r, struct unit *u)
{
    struct lt_runner_config cfg = {
        .exe = lt__engine_exe(), .cwd = u->cwd, .scratch_base = r->scratch,
        .pytest_args = u->args, .n_pytest_args = u->n_args,
        .subjects = &u->subject, .n_subjects = 1, .debug = r->o->debug,
        .preload_generator = u->ref != NULL};
    u->lane = lt_exec_lane(&r->ex, &cfg, &lane_ops, u);
    u->lane->start_timeout = ZYGOTE_TIMEOUT;
}

/*** The run's hooks ***/

static void progress_show(struct run *r, int force)
{
    lt__progress_show(&r->prog, force, r->decided, r->n_patches, NULL);
}

/* Finishes the units with nothing queued or running (the executor's
 * idle hook).  Returns how many units wait for their first zygote: no
 * task of theirs is outstanding before it collected their tests. */
static size_t settle(struct lt_exec *ex)
{
    struct run *r = ex->owner;
    size_t waiting = 0;
    for (size_t i = 0; i < r->n_units && !ex->fatal; i++) {
        struct unit *u = r->units[i];
        if (u->done)
            continue;
        if (!u->pending_work ||
            (u->have_tests && lt_exec_queued(u->lane) == 0 &&
             u->lane->running == 0))
            finish_unit(r, u);
        else if (!u->have_tests)
            waiting++;
    }
    return waiting;
}

/* The end of the run, after the executor's last commit: the run's
 * figures in the store (for bench/patches_bench.sh), then the last
 * progress line.  The executor then reports a failed write. */
static void run_end(struct run *r)
{
    if (!r->ex.store_rc && lt_exec_write(&r->ex) == 0) {
        static const char *const keys[] = {
            "patches_elapsed_s", "patches_zygotes", "patches_jobs",
            "patches_mutant_jobs", "patches_texts"};
        char v[5][64];
        size_t jobs = 0;
        for (int k = 0; k <= T_MUT; k++)
            jobs += r->jobs_started[k];
        snprintf(v[0], sizeof(v[0]), "%.3f", lt__now() - r->t_start);
        snprintf(v[1], sizeof(v[1]), "%zu", r->zygotes_started);
        snprintf(v[2], sizeof(v[2]), "%zu", jobs);
        snprintf(v[3], sizeof(v[3]), "%zu", r->jobs_started[T_MUT]);
        snprintf(v[4], sizeof(v[4]), "%zu", r->n_texts);
        for (size_t k = 0; k < sizeof(keys) / sizeof(*keys); k++) {
            int rc = lt_store_set_meta(r->st, keys[k], v[k]);
            lt_exec_wrote(&r->ex, rc);
            if (rc < 0)
                break;
        }
    }
    lt_exec_commit(&r->ex, 1);
    {
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        lt_debug("patches: %.2f s (engine CPU %.2f s), %zu zygotes, jobs: "
                 "ref %zu, l1 %zu, held %zu, diff %zu, mutants %zu",
                 lt__now() - r->t_start,
                 (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
                     (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6,
                 r->zygotes_started,
                 r->jobs_started[T_REF_MAIN] + r->jobs_started[T_REF_HELD],
                 r->jobs_started[T_L1], r->jobs_started[T_HELD],
                 r->jobs_started[T_DIFF], r->jobs_started[T_MUT]);
    }
    progress_show(r, 1);
}

/* The executor's progress hook; its last call (force) ends the run. */
static void run_progress(struct lt_exec *ex, int force)
{
    struct run *r = ex->owner;
    if (force)
        run_end(r);
    else
        progress_show(r, 0);
}

/*** Texts that compile alike ***/

/* Fingerprints the code of the unit's candidate texts and of its
 * reference (comments and layout left out), and points each candidate to
 * the first earlier candidate with the same code: it is never run, and
 * takes that one's results.  A text whose results are stored already
 * keeps them. */
static void share_by_code(struct unit *u)
{
    for (size_t i = 0; i < u->n_texts; i++) {
        struct ptext *t = u->texts[i];
        if ((!t->is_cand && !t->is_ref) || t->len > LT_PATCH_MAX_TEXT ||
            memchr(t->text, '\0', t->len))
            continue;
        if (lt_code_fingerprint(u->p0->buggy, t->text, t->len,
                                       t->code) < 0)
            t->code[0] = '\0';
        if (!t->is_cand || !t->code[0] || t->l1)
            continue;
        for (size_t k = 0; k < i; k++) {
            struct ptext *o = u->texts[k];
            if (o->is_cand && !o->same && strcmp(o->code, t->code) == 0) {
                t->same = o;
                break;
            }
        }
    }
}

/*** Entry point ***/

static void remove_db_files(const char *db)
{
    static const char *const suffixes[] = {"", "-wal", "-shm", "-journal",
                                           ".lock"};
    for (size_t i = 0; i < sizeof(suffixes) / sizeof(*suffixes); i++) {
        char *p = xasprintf("%s%s", db, suffixes[i]);
        unlink(p);
        free(p);
    }
}

/*** Shards ***/

static int cmp_patch_key(const void *a, const void *b)
{
    const struct patch *x = *(struct patch *const *)a;
    const struct patch *y = *(struct patch *const *)b;
    int c = strcmp(x->prog->name, y->prog->name);
    return c ? c : strcmp(x->run_id, y->run_id);
}

/* The triage's plan as a string: the options that decide a verdict, each
 * program's files, and a hash of every candidate (program, run id, text)
 * before the deal, so that `litmus merge` can tell the shards of one
 * triage from others (caller frees). */
static char *patches_fingerprint(const struct run *r)
{
    const struct lt_patches_opts *o = r->o;
    struct lt_sha256 h;
    uint8_t d[32];
    char hex[65];
    lt_sha256_init(&h);
    for (size_t i = 0; i < r->n_patches; i++) {
        const struct patch *p = &r->patches[i];
        lt_sha256_update(&h, p->prog->name, strlen(p->prog->name) + 1);
        lt_sha256_update(&h, p->run_id, strlen(p->run_id) + 1);
        lt_sha256_update(&h, p->sha, 65);
    }
    lt_sha256_final(&h, d);
    for (int i = 0; i < 32; i++)
        snprintf(hex + 2 * i, 3, "%02x", d[i]);
    struct lt_buf b = LT_BUF_INIT;
    lt_buf_printf(&b, "candidates=%zu\ncandidates_sha256=%s\n",
                  r->n_patches, hex);
    lt_buf_printf(&b, "threshold=%g\nsimilarity_threshold=%g\n"
                      "mutation=%d\nmutation_gate=%d\ntimeout_factor=%g\n"
                      "timeout_const=%g\ntimeout=%g\n",
                  o->threshold, o->sim_threshold, o->mutation,
                  o->mutation_gate, o->timeout_factor, o->timeout_const,
                  o->timeout);
    lt_buf_printf(&b, "diff_budget=%g\nslower_is_overfitting=%g\n",
                  o->diff_budget, o->slower_factor);
    lt_buf_printf(&b, "mutation_budget=%g\n", o->mutation_budget);
    for (size_t i = 0; i < o->n_pytest_args; i++)
        lt_buf_printf(&b, "arg=%s\n", o->pytest_args[i]);
    for (size_t i = 0; i < r->n_progs; i++) {
        const struct pprog *p = &r->progs[i];
        lt_buf_printf(&b, "program=%s buggy=%s tests=%s reference=%s "
                          "held_out=%s inputs=%s function=%s "
                          "precondition=%s\n",
                      p->name, p->buggy ? p->buggy : "",
                      p->tests ? p->tests : "",
                      p->reference ? p->reference : "",
                      p->held_out ? p->held_out : "",
                      p->inputs ? p->inputs : "",
                      p->function ? p->function : "",
                      p->precondition ? p->precondition : "");
    }
    return lt_buf_steal(&b);
}

/* Keeps the candidates dealt to shard index/count: sorted by (program,
 * run id), round-robin, so shards differ by at most one candidate.  The
 * kept ones keep their input position (seq): the report's order. */
static void shard_patches(struct run *r, unsigned index, unsigned count)
{
    unsigned char *keep = xcalloc(r->n_patches + 1, 1);
    lt__shard_deal(r->patches, r->n_patches, sizeof(*r->patches),
                   cmp_patch_key, index, count, keep);
    size_t w = 0;
    for (size_t i = 0; i < r->n_patches; i++) {
        if (!keep[i]) {
            r->patches[i].prog->n_patches--;
            free(r->patches[i].run_id);
            free(r->patches[i].text);
            continue;
        }
        r->patches[w++] = r->patches[i];
    }
    r->n_patches = w;
    free(keep);
}

/* Contract: see engine.h. */
int lt_patches(const struct lt_patches_opts *o)
{
    struct run r;
    memset(&r, 0, sizeof(r));
    r.o = o;
    lt_exec_init(&r.ex, o->jobs);
    r.ex.owner = &r;
    r.t_start = lt__now();
    int code = LT_EXIT_ENGINE;
    char *errmsg = NULL;
    int db_existed = 1;
    char *plan = NULL;
    char shard[48] = "";


    if (read_programs(&r) < 0 || read_patches(&r) < 0) {
        code = LT_EXIT_USAGE;
        goto out;
    }
    plan = patches_fingerprint(&r);
    if (o->shard_count && r.n_patches) {
        size_t all = r.n_patches;
        snprintf(shard, sizeof(shard), "%u/%u", o->shard_index,
                 o->shard_count);
        shard_patches(&r, o->shard_index, o->shard_count);
        if (r.n_patches == 0) {
            lt_error("shard %s gets none of the %zu patches: use at most %zu "
                     "shards", shard, all, all);
            code = LT_EXIT_USAGE;
            goto out;
        }
    }
    if (r.n_patches == 0) {
        lt_error("--patches %s: no patch found", o->patches);
        code = LT_EXIT_USAGE;
        goto out;
    }
    for (size_t i = 0; i < r.n_progs; i++)
        if (r.progs[i].n_patches && unit_for(&r, &r.progs[i]) < 0) {
            code = LT_EXIT_USAGE;
            goto out;
        }
    for (size_t i = 0; i < r.n_patches; i++) {
        struct patch *p = &r.patches[i];
        p->pt = text_of(p->prog->unit, p->text, p->len, p->sha);
        p->pt->is_cand = 1;
    }
    for (size_t i = 0; i < r.n_units; i++)
        r.n_texts += r.units[i]->n_texts;

    db_existed = access(o->db, F_OK) == 0;
    int rc = lt_store_open(o->db, &r.st, &errmsg);
    if (rc < 0) {
        db_existed = 1;
        lt_error("%s: %s", o->db, errmsg ? errmsg : lt_strerror(rc));
        code = lt_exit_from_error(rc);
        goto out;
    }
    rc = lt_store_patches_init(r.st);
    if (rc == 0)
        rc = lt_store_begin(r.st);
    if (rc == 0)
        rc = lt_store_clear_patch_runs(r.st);
    if (rc == 0)
        rc = lt_store_set_meta(r.st, "patches_schema", LT_PATCHES_SCHEMA);
    /* A shard's store holds its candidates' results; used as another
     * shard, `litmus merge` would take it for that one. */
    char *was = NULL;
    if (rc == 0)
        rc = lt_store_get_meta(r.st, "patches_shard", &was);
    if (rc == 0 && was && strcmp(was, shard) != 0) {
        lt_error("%s holds %s%s, not %s%s; use another --db", o->db,
                 *was ? "patches shard " : "the whole triage", was,
                 *shard ? "shard " : "the whole triage", shard);
        free(was);
        lt_store_rollback(r.st);
        code = LT_EXIT_USAGE;
        goto out;
    }
    free(was);
    if (rc == 0 && *shard)
        rc = lt_store_set_meta(r.st, "patches_shard", shard);
    if (rc == 0)
        rc = lt_store_set_meta(r.st, "patches_settings", plan);
    if (rc == 0)
        rc = lt_store_set_meta(r.st, "patches_complete", "0");
    if (rc == 0)
        rc = lt_store_commit(r.st);
    if (rc < 0) {
        code = lt__store_write_failed(r.st, o->db, rc);
        goto out;
    }
    for (size_t i = 0; i < r.n_units; i++)
        if (plan_unit(&r, r.units[i]) < 0)
            goto out;

    int need_runs = 0;
    for (size_t i = 0; i < r.n_units; i++)
        need_runs |= r.units[i]->pending_work;
    if (need_runs) {
        /* The embedded interpreter compiles the texts (code sharing) and
         * the mutants. */
        if (lt_operators_init() < 0) {
            lt_error("cannot start the embedded Python for the operators");
            goto out;
        }
        for (size_t i = 0; i < r.n_units; i++)
            share_by_code(r.units[i]);
        r.scratch = lt_sandbox_scratch_new(NULL);
        if (!r.scratch) {
            lt_error("cannot create a scratch directory: %s", strerror(errno));
            goto out;
        }
    }
    const char *log_path = getenv("LITMUS_RUN_LOG");
    r.run_log = log_path && *log_path ? fopen(log_path, "a") : NULL;
    lt__progress_init(&r.prog, o->progress, "patches");

    for (size_t i = 0; i < r.n_units; i++)
        unit_lane(&r, r.units[i]);
    r.ex.st = r.st;
    r.ex.db = o->db;
    r.ex.batch = BATCH_WRITES;
    r.ex.idle = settle;
    r.ex.progress = run_progress;
    code = lt_exec_run(&r.ex);
    if (code != 0)
        goto out;
    code = lt__patches_report(r.st, o, lt__now() - r.t_start, r.n_texts,
                              stdout);
    /* Every candidate has its verdict (exit 1 is the overfitting gate). */
    if ((code == 0 || code == 1) &&
        lt_store_set_meta(r.st, "patches_complete", "1") < 0) {
        lt_error("%s: %s", o->db, lt_store_errmsg(r.st));
        code = LT_EXIT_ENGINE;
    }
out:
    free(plan);
    if (r.run_log)
        fclose(r.run_log);
    for (size_t i = 0; i < r.n_units; i++)
        unit_free_tasks(r.units[i]);
    lt_exec_close(&r.ex); /* stops the zygotes */
    for (size_t i = 0; i < r.n_units; i++)
        unit_free(r.units[i]);
    free(r.units);
    if (r.scratch) {
        lt_sandbox_scratch_remove(r.scratch);
        free(r.scratch);
    }
    for (size_t i = 0; i < r.n_patches; i++) {
        free(r.patches[i].run_id);
        free(r.patches[i].text);
    }
    free(r.patches);
    for (size_t i = 0; i < r.n_progs; i++)
        prog_free(&r.progs[i]);
    free(r.progs);
    free(errmsg);
    lt_store_close(r.st);
    if (code == 2 && !db_existed)
        remove_db_files(o->db);
    return code;
}
