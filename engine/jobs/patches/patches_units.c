/* `litmus patches`' units: program entries with the same files and
 * settings share one unit, keyed by a fingerprint of them, with one pool
 * of zygotes and one cache of results in the store (layers of each
 * distinct text); what each text still needs is planned from that cache.
 * SPDX-License-Identifier: MIT */
#include "engine/jobs/patches/patches_internal.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/err.h"
#include "common/log.h"
#include "common/sha256.h"
#include "common/xmalloc.h"

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
        char *d = lt__pi_dir_of(path);
        hash_tree(s, d, 0);
        free(d);
    }
}

/* Contract: see patches_internal.h. */
struct ptext *lt__pu_text_of(struct unit *u, const char *text, size_t len,
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

static void text_free(struct ptext *t)
{
    free(t->text);
    json_decref(t->l1);
    json_decref(t->held);
    json_decref(t->diff);
    json_decref(t->mut);
    json_decref(t->sim);
    lt__pm_text_free(t);
    free(t);
}

static void free_task(struct lt_task *t)
{
    free(t->owner);
}

/* The tasks of a run that stopped early: queued on the unit's lane, or
 * running on one of its zygotes (before lt_exec_close). */
void lt__pu_free_tasks(struct lt_exec *ex, struct unit *u)
{
    if (u->lane)
        lt_exec_lane_drop_tasks(ex, u->lane, free_task);
}

/* After lt_exec_close (the lane's pool uses the unit's strings). */
void lt__pu_free(struct unit *u)
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

/* What a program's unit is made of, read from its files. */
struct unit_sources {
    char *src, *ref;        /* the buggy file; the reference fix or NULL */
    size_t len, ref_len;
    json_t *inputs;         /* the extra inputs, or NULL */
    char *pre;              /* the precondition source, or NULL */
};

static void sources_free(struct unit_sources *us)
{
    free(us->src);
    free(us->ref);
    json_decref(us->inputs);
    free(us->pre);
}

/* Reads the files of program p into us.  0, or -1 after an error printed
 * (us is then the caller's to free). */
static int read_sources(const struct pprog *p, struct unit_sources *us)
{
    int rc = lt_read_file(p->buggy, &us->src, &us->len);
    if (rc < 0) {
        lt_error("%s: %s", p->buggy, lt_strerror(rc));
        return -1;
    }
    if (memchr(us->src, '\0', us->len)) {
        lt_error("%s: holds a NUL byte; not Python source", p->buggy);
        return -1;
    }
    if (p->reference) {
        rc = lt_read_file(p->reference, &us->ref, &us->ref_len);
        if (rc < 0 || memchr(us->ref, '\0', us->ref_len)) {
            lt_error("%s: %s", p->reference,
                     rc < 0 ? lt_strerror(rc) : "holds a NUL byte");
            return -1;
        }
    }
    if ((p->inputs &&
         !(us->inputs = lt__pi_read_inputs(p->inputs, p->function))) ||
        (p->precondition &&
         !(us->pre = lt__pi_read_precondition(p->precondition))))
        return -1;
    return 0;
}

/* The unit's key (16 hex digits into key): a fingerprint of everything
 * its results depend on, so that a stored result is reused only while
 * they stay the same. */
static void unit_key(const struct lt_patches_opts *o, const struct pprog *p,
                     const struct unit_sources *us, char key[17])
{
    struct lt_sha256 s;
    char hex[65];
    lt_sha256_init(&s);
    /* 2: the differential layer's inputs, contract and timing rules. */
    hash_str(&s, "litmus-patches/2");
    hash_str(&s, p->buggy);
    lt_sha256_hex(us->src, us->len, hex);
    hash_str(&s, hex);
    hash_tests(&s, p->tests);
    hash_tests(&s, p->held_out);
    if (us->ref) {
        lt_sha256_hex(us->ref, us->ref_len, hex);
        hash_str(&s, hex);
    } else {
        hash_str(&s, NULL);
    }
    if (us->inputs) {
        char *dump = json_dumps(us->inputs, JSON_COMPACT);
        hash_str(&s, dump);
        free(dump);
    } else {
        hash_str(&s, NULL);
    }
    for (size_t i = 0; i < o->n_pytest_args; i++)
        hash_str(&s, o->pytest_args[i]);
    hash_str(&s, us->pre);
    char set[200];
    snprintf(set, sizeof(set), "%.6g %.6g %.6g %lu %.6g %.6g",
             o->run.timeout_factor, o->run.timeout_const,
             p->reference ? 0.0 : o->timeout, o->run.memory_mb, o->diff_budget,
             o->slower_factor);
    hash_str(&s, set);
    uint8_t dig[32];
    lt_sha256_final(&s, dig);
    for (int i = 0; i < 8; i++)
        snprintf(key + 2 * i, 3, "%02x", dig[i]);
}

/* A new unit for program p, taking us's buffers (us is emptied). */
static struct unit *unit_new(const struct lt_patches_opts *o,
                             struct pprog *p, const char *key,
                             struct unit_sources *us)
{
    struct unit *u = xcalloc(1, sizeof(*u));
    memcpy(u->key, key, 17);
    u->p0 = p;
    u->buggy_src = us->src;
    u->buggy_len = us->len;
    u->buggy_lines = 1;
    for (size_t i = 0; i < us->len; i++)
        u->buggy_lines += us->src[i] == '\n';
    u->module = lt__pi_stem_of(p->buggy);
    struct stat sb;
    u->cwd = stat(p->tests, &sb) == 0 && S_ISDIR(sb.st_mode)
                 ? xstrdup(p->tests)
                 : lt__pi_dir_of(p->tests);
    u->args = xcalloc(o->n_pytest_args + 3, sizeof(char *));
    u->args[u->n_args++] = p->tests;
    if (p->held_out)
        u->args[u->n_args++] = p->held_out;
    for (size_t i = 0; i < o->n_pytest_args; i++)
        u->args[u->n_args++] = o->pytest_args[i];
    u->subject = (struct lt_subject){p->buggy, u->buggy_src, u->buggy_len};
    u->inputs = us->inputs ? us->inputs : json_array();
    u->precondition = us->pre;
    if (us->ref) {
        char sha[65];
        lt_sha256_hex(us->ref, us->ref_len, sha);
        u->ref = lt__pu_text_of(u, us->ref, us->ref_len, sha);
        u->ref->is_ref = 1;
        free(us->ref);
    }
    memset(us, 0, sizeof(*us));
    return u;
}

/* Contract: see patches_internal.h. */
int lt__pu_unit_for(struct patches_run *r, struct pprog *p)
{
    struct unit_sources us = {0};
    if (read_sources(p, &us) < 0) {
        sources_free(&us);
        return -1;
    }
    char key[17];
    unit_key(r->o, p, &us, key);
    for (size_t i = 0; i < r->n_units; i++)
        if (strcmp(r->units[i]->key, key) == 0) {
            p->unit = r->units[i];
            sources_free(&us);
            return 0;
        }
    struct unit *u = unit_new(r->o, p, key, &us);
    r->units = xrealloc(r->units, (r->n_units + 1) * sizeof(*r->units));
    r->units[r->n_units++] = u;
    p->unit = u;
    return 0;
}

/*** Planning: what each text still needs ***/

/* Contract: see patches_internal.h. */
int lt__pu_l1_passed(const struct ptext *t)
{
    const char *s = lt__pe_str(t->l1, "status");
    return s && strcmp(s, "pass") == 0;
}

/* Loads the stored layers of text t (a mutation result only when it
 * holds under this budget).  0, or a negative store code. */
static int load_text(struct patches_run *r, struct unit *u, struct ptext *t)
{
    const struct lt_patches_opts *o = r->o;
    int rc = 0;
    if (t->is_cand) {
        rc = lt__pt_load_layer(r, u, t, "l1", &t->l1);
        if (rc == 0)
            rc = lt__pt_load_layer(r, u, t, "held", &t->held);
        if (rc == 0)
            rc = lt__pt_load_layer(r, u, t, "diff", &t->diff);
        if (rc == 0)
            rc = lt__pt_load_layer(r, u, t, "sim", &t->sim);
    }
    if (rc == 0 && o->mutation)
        rc = lt__pt_load_layer(r, u, t, "mut", &t->mut);
    if (t->mut && !lt__pm_budget_same(o, t->mut)) {
        json_decref(t->mut); /* decided again under this budget */
        t->mut = NULL;
    }
    return rc;
}

/* The layer 1 of a candidate text that is never run: too large, or
 * holding a NUL byte (left alone otherwise). */
static void judge_unrunnable(struct ptext *t)
{
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

/* Whether any text of u still needs a run, by what it holds now. */
static int needs_runs(const struct lt_patches_opts *o, const struct unit *u)
{
    if (u->ref && !u->ref_json)
        return 1;
    for (size_t i = 0; i < u->n_texts; i++) {
        const struct ptext *t = u->texts[i];
        if (t->is_cand) {
            if (!t->l1)
                return 1;
            if (lt__pu_l1_passed(t) &&
                ((u->ref && !t->diff) || (u->p0->held_out && !t->held) ||
                 (o->mutation && !t->mut)))
                return 1;
        }
        if (t->is_ref && o->mutation && !t->mut)
            return 1;
    }
    return 0;
}

/* Contract: see patches_internal.h. */
int lt__pu_plan(struct patches_run *r, struct unit *u)
{
    int rc = 0;
    if (u->ref)
        rc = lt__pt_load_layer(r, u, u->ref, "ref", &u->ref_json);
    for (size_t i = 0; rc == 0 && i < u->n_texts; i++) {
        struct ptext *t = u->texts[i];
        rc = load_text(r, u, t);
        if (rc == 0 && t->is_cand && !t->l1)
            judge_unrunnable(t);
    }
    if (rc < 0) {
        lt_error("%s: %s", r->o->run.db, lt_strerror(rc));
        return rc;
    }
    u->pending_work = needs_runs(r->o, u);
    return 0;
}

/*** Texts that compile alike ***/

/* Fingerprints the code of the unit's candidate texts and of its
 * reference (comments and layout left out), and points each candidate to
 * the first earlier candidate with the same code: it is never run, and
 * takes that one's results.  A text whose results are stored already
 * keeps them. */
void lt__pu_share_by_code(struct unit *u)
{
    for (size_t i = 0; i < u->n_texts; i++) {
        struct ptext *t = u->texts[i];
        if ((!t->is_cand && !t->is_ref) || t->len > LT_PATCH_MAX_TEXT ||
            memchr(t->text, '\0', t->len))
            continue;
        if (lt_code_fingerprint(u->p0->buggy, t->text, t->len, t->code) < 0)
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

