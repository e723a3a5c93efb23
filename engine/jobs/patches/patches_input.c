/* `litmus patches`' inputs: the programs (a manifest, or the single
 * --buggy one), the candidate patches (a JSONL file or folders of .py
 * files, their markdown fences stripped), a program's extra inputs and
 * precondition file; and the deal of the candidates into shards.
 * SPDX-License-Identifier: MIT */
#include "engine/jobs/patches/patches_internal.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/log.h"
#include "common/sha256.h"
#include "common/xmalloc.h"
#include "engine/core/shard.h"

#define MAX_INPUTS_JSON (2u << 20)

/*** Programs and patches ***/

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

/* Contract: see patches_internal.h. */
char *lt__pi_dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return xstrdup(".");
    if (slash == path)
        return xstrdup("/");
    return xstrndup(path, (size_t)(slash - path));
}

/* The file name without directory and ".py". */
char *lt__pi_stem_of(const char *path)
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

static struct pprog *find_prog(struct patches_run *r, const char *name)
{
    for (size_t i = 0; i < r->n_progs; i++)
        if (strcmp(r->progs[i].name, name) == 0)
            return &r->progs[i];
    return NULL;
}

static int add_patch(struct patches_run *r, struct pprog *p, const char *run_id,
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

/* The program a JSONL line names (prog), or the only one when it names
 * none; NULL after an error printed. */
static struct pprog *line_prog(struct patches_run *r, const char *prog,
                               const char *path, long line)
{
    struct pprog *p = NULL;
    if (prog)
        p = find_prog(r, prog);
    else if (r->n_progs == 1)
        p = &r->progs[0];
    if (!p && !prog)
        lt_error("%s:%ld: \"program\" is missing (the manifest "
                 "names several programs)", path, line);
    else if (!p)
        lt_error("%s:%ld: program '%s' is not %s", path, line, prog,
                 r->o->manifest ? "in the manifest"
                                : "the program given with "
                                  "--buggy (use --manifest for "
                                  "several programs)");
    return p;
}

/* One non-blank line of a JSONL file: {"program", "run_id",
 * "patch_text"}.  0, or -1 after an error printed. */
static int jsonl_patch(struct patches_run *r, const char *path, long line,
                       const char *s, size_t n)
{
    json_error_t err;
    json_t *o = json_loadb(s, n, JSON_REJECT_DUPLICATES, &err);
    const char *prog = lt__pe_str(o, "program");
    const char *run_id = lt__pe_str(o, "run_id");
    json_t *text = o ? json_object_get(o, "patch_text") : NULL;
    json_t *jp = o ? json_object_get(o, "program") : NULL;
    int rc = -1;
    struct pprog *p;
    if (!o)
        lt_error("%s:%ld: not valid JSON: %s", path, line, err.text);
    else if (!json_is_object(o))
        lt_error("%s:%ld: expected a JSON object with program, "
                 "run_id and patch_text", path, line);
    else if (!run_id || !*run_id)
        lt_error("%s:%ld: \"run_id\" must be a non-empty string", path,
                 line);
    else if (!json_is_string(text))
        lt_error("%s:%ld: \"patch_text\" must be a string", path, line);
    else if (jp && !json_is_string(jp))
        lt_error("%s:%ld: \"program\" must be a string", path, line);
    else if ((p = line_prog(r, prog, path, line)))
        rc = add_patch(r, p, run_id, json_string_value(text),
                       json_string_length(text), path, line);
    json_decref(o);
    return rc;
}

/* A JSON Lines file of {"program", "run_id", "patch_text"}. */
static int read_jsonl(struct patches_run *r, const char *path)
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
        if (k < e && jsonl_patch(r, path, line, data + i, e - i) < 0)
            bad = 1;
        i = e + 1;
    }
    free(data);
    return bad ? -1 : 0;
}

/* Every *.py of dir, in natural order, as patches of p. */
static int read_dir(struct patches_run *r, struct pprog *p, const char *dir)
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
                    char *id = lt__pi_stem_of(name);
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

/* Contract: see patches_internal.h. */
int lt__pi_read_patches(struct patches_run *r)
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

void lt__pi_prog_free(struct pprog *p)
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

/* The single program of --buggy, --tests and the options beside them. */
static int read_single_program(struct patches_run *r)
{
    const struct lt_patches_opts *o = r->o;
    r->progs = xcalloc(1, sizeof(*r->progs));
    r->n_progs = 1;
    struct pprog *p = &r->progs[0];
    p->buggy = resolve(NULL, o->buggy, "--buggy", NULL, 0);
    p->tests = p->buggy ? resolve(NULL, o->tests[0], "--tests", NULL, 1) : NULL;
    if (!p->buggy || !p->tests)
        return -1;
    if (o->reference &&
        !(p->reference = resolve(NULL, o->reference, "--reference", NULL, 0)))
        return -1;
    if (o->held_out &&
        !(p->held_out = resolve(NULL, o->held_out, "--held-out", NULL, 1)))
        return -1;
    if (o->inputs &&
        !(p->inputs = resolve(NULL, o->inputs, "--inputs", NULL, 0)))
        return -1;
    if (o->precondition &&
        !(p->precondition = resolve(NULL, o->precondition, "--precondition",
                                    NULL, 0)))
        return -1;
    p->name = lt__pi_stem_of(p->buggy);
    return 0;
}

/* Manifest entry e of program p (its name set): paths resolved from the
 * manifest's folder base.  ctx names the entry in messages.  0, or -1
 * after an error printed. */
static int read_manifest_entry(struct pprog *p, const json_t *e,
                               const char *base, const char *ctx)
{
    const char *name = p->name;
    const char *buggy = lt__pe_str(e, "buggy");
    const char *tests = lt__pe_str(e, "tests");
    if (!*name || strchr(name, '/') || strchr(name, '\n')) {
        lt_error("%s: bad program name", ctx);
        return -1;
    }
    if (!json_is_object(e) || !buggy || !tests) {
        lt_error("%s: needs \"buggy\" and \"tests\" paths", ctx);
        return -1;
    }
    static const char *const keys[] = {"reference", "held_out", "inputs",
                                       "function", "precondition"};
    int rc = 0;
    for (size_t k = 0; k < 5; k++) {
        json_t *v = json_object_get(e, keys[k]);
        if (v && !json_is_string(v) && !json_is_null(v)) {
            lt_error("%s: \"%s\" must be a string", ctx, keys[k]);
            rc = -1;
        }
    }
    if (rc < 0)
        return rc;
    const char *ref = lt__pe_str(e, "reference");
    const char *held = lt__pe_str(e, "held_out");
    const char *inputs = lt__pe_str(e, "inputs");
    const char *fn = lt__pe_str(e, "function");
    const char *pre = lt__pe_str(e, "precondition");
    if (!(p->buggy = resolve(base, buggy, "buggy file", ctx, 0)) ||
        !(p->tests = resolve(base, tests, "tests", ctx, 1)) ||
        (ref && !(p->reference = resolve(base, ref, "reference", ctx, 0))) ||
        (held && !(p->held_out = resolve(base, held, "held-out tests", ctx,
                                         1))) ||
        (inputs && !(p->inputs = resolve(base, inputs, "inputs", ctx, 0))) ||
        (pre && !(p->precondition = resolve(base, pre, "precondition", ctx,
                                            0))))
        rc = -1;
    if (fn)
        p->function = xstrdup(fn);
    return rc;
}

/* Contract: see patches_internal.h. */
int lt__pi_read_programs(struct patches_run *r)
{
    const struct lt_patches_opts *o = r->o;
    if (!o->manifest)
        return read_single_program(r);
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
    char *real = realpath(o->manifest, NULL);
    char *base = lt__pi_dir_of(real ? real : o->manifest);
    free(real);
    r->progs = xcalloc(json_object_size(m), sizeof(*r->progs));
    const char *name;
    json_t *e;
    int rc = 0;
    json_object_foreach(m, name, e) {
        struct pprog *p = &r->progs[r->n_progs++];
        p->name = xstrdup(name);
        char *ctx = xasprintf("%s: program '%s'", o->manifest, name);
        rc = read_manifest_entry(p, e, base, ctx);
        free(ctx);
        if (rc < 0)
            break;
    }
    free(base);
    json_decref(m);
    return rc;
}

/* The raw inputs of an inputs file's text data[0..len) into items: a
 * .json file holds one array, anything else is JSON Lines.  0, or -1
 * after an error printed. */
static int input_items(const char *path, const char *data, size_t len,
                       json_t *items)
{
    size_t n = strlen(path);
    if (n > 5 && strcmp(path + n - 5, ".json") == 0) {
        json_error_t err;
        json_t *doc = json_loadb(data, len, 0, &err);
        int bad = !json_is_array(doc);
        if (bad) {
            lt_error("%s:%d: expected a JSON array of inputs%s%s", path,
                     doc ? 1 : err.line, doc ? "" : ": ",
                     doc ? "" : err.text);
        } else {
            size_t i;
            json_t *v;
            json_array_foreach(doc, i, v) json_array_append(items, v);
        }
        json_decref(doc);
        return bad ? -1 : 0;
    }
    long line = 0;
    for (size_t i = 0; i < len;) {
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
                lt_error("%s:%ld: not valid JSON: %s", path, line, err.text);
                return -1;
            }
            json_array_append_new(items, v);
        }
        i = e + 1;
    }
    return 0;
}

/* Input number i (from 0) of the file path as {"function", "args",
 * "kwargs"}: an array is positional arguments of function (NULL: the
 * file's own choice).  Sets *bad after an error printed (the result is
 * still an object, dropped by the caller). */
static json_t *normalise_input(json_t *v, const char *function,
                               const char *path, size_t i, int *bad)
{
    json_t *in = json_object();
    if (json_is_array(v)) {
        json_object_set_new(in, "function", function ? json_string(function)
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
            *bad = 1;
        }
        json_object_set_new(in, "function",
                            json_is_string(fn) ? json_incref(fn)
                            : function         ? json_string(function)
                                               : json_null());
        json_object_set_new(in, "args", args ? json_incref(args)
                                             : json_array());
        json_object_set_new(in, "kwargs", kw ? json_incref(kw)
                                             : json_object());
    } else {
        lt_error("%s: input %zu: expected an array of arguments or an "
                 "object", path, i + 1);
        *bad = 1;
    }
    return in;
}

/* Extra inputs for the differential job: a .json file holds one array
 * of inputs, anything else is JSON Lines (one input a line).  An input
 * is an array of positional arguments or {"function", "args",
 * "kwargs"}.  Returns the normalised array or NULL after an error. */
json_t *lt__pi_read_inputs(const char *path, const char *function)
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
    int bad = input_items(path, data, len, items) < 0;
    size_t i;
    json_t *v;
    json_array_foreach(items, i, v) {
        if (bad)
            break;
        json_array_append_new(out, normalise_input(v, function, path, i,
                                                   &bad));
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

/* The user's precondition file (--precondition, manifest
 * "precondition"): Python source that defines litmus_precondition(*args,
 * **kwargs), or litmus_precondition_<function> for one function.  Its text,
 * or NULL after an error: unreadable, a NUL byte, or source that does not
 * compile (checked here, so that the error is the user's, before any
 * run). */
char *lt__pi_read_precondition(const char *path)
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
char *lt__pi_fingerprint(const struct patches_run *r)
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
                  o->mutation_gate, o->run.timeout_factor, o->run.timeout_const,
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
void lt__pi_shard(struct patches_run *r, unsigned index, unsigned count)
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

