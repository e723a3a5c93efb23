/* What the files of `litmus dataset` share, below all of them: text
 * helpers (line counts, seeded hashes and shuffles, unified diffs), JSON
 * output with shortest floats, the bridge to the generators, the
 * comparison of a run with its reference, the summary's counts, the
 * writing of each program's items in input order, and the run's scratch
 * directory.  Calls no other dataset_*.c file.
 * SPDX-License-Identifier: MIT */
#include "engine/jobs/dataset/dataset_internal.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "operators/operators.h"
#include "sandbox/sandbox.h"

/*** Text and JSON ***/

int lt__ds_count_lines(const char *s, size_t len)
{
    if (len == 0)
        return 0;
    int n = 0;
    for (size_t i = 0; i < len; i++)
        n += s[i] == '\n';
    return s[len - 1] == '\n' ? n : n + 1;
}

char *lt__ds_id_text(const json_t *id)
{
    if (json_is_string(id))
        return xstrdup(json_string_value(id));
    if (json_is_integer(id))
        return xasprintf("%" JSON_INTEGER_FORMAT, json_integer_value(id));
    return xstrdup("?");
}

/* FNV-1a: a stable hash of a text, for seeds. */
uint64_t lt__ds_hash(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 1099511628211ull;
    }
    return h;
}

/* splitmix64's finaliser. */
uint64_t lt__ds_mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* Fisher-Yates with splitmix64 draws: the same permutation for the same
 * seed on every platform. */
void lt__ds_shuffle(size_t *v, size_t n, uint64_t seed)
{
    uint64_t s = seed;
    for (size_t i = n; i > 1; i--) {
        s = lt__ds_mix(s);
        size_t k = (size_t)(s % i);
        size_t tmp = v[i - 1];
        v[i - 1] = v[k];
        v[k] = tmp;
    }
}

/* Shortest text that reads back as the same double, with a '.' or an
 * exponent so that it stays a float (Python's repr does the same). */
void lt__ds_dump_real(double d, struct lt_buf *b)
{
    char s[40];
    for (int p = 15; p <= 17; p++) {
        snprintf(s, sizeof(s), "%.*g", p, d);
        if (strtod(s, NULL) == d)
            break;
    }
    lt_buf_puts(b, s);
    if (!strpbrk(s, ".eEn"))
        lt_buf_puts(b, ".0");
}

void lt__ds_dump_str(const char *s, size_t n, struct lt_buf *b)
{
    lt_buf_append(b, "\"", 1);
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c != '"' && c != '\\')
            continue;
        lt_buf_append(b, s + run, i - run);
        run = i + 1;
        switch (c) {
        case '"': lt_buf_puts(b, "\\\""); break;
        case '\\': lt_buf_puts(b, "\\\\"); break;
        case '\n': lt_buf_puts(b, "\\n"); break;
        case '\r': lt_buf_puts(b, "\\r"); break;
        case '\t': lt_buf_puts(b, "\\t"); break;
        case '\b': lt_buf_puts(b, "\\b"); break;
        case '\f': lt_buf_puts(b, "\\f"); break;
        default: lt_buf_printf(b, "\\u%04x", c); break;
        }
    }
    lt_buf_append(b, s + run, n - run);
    lt_buf_append(b, "\"", 1);
}

/* Compact JSON in insertion order, floats as short as they round-trip
 * (jansson prints 0.1 as 0.10000000000000001). */
void lt__ds_dump(const json_t *v, struct lt_buf *b)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: {
        const char *k;
        json_t *x;
        int first = 1;
        lt_buf_append(b, "{", 1);
        json_object_foreach((json_t *)v, k, x) {
            if (!first)
                lt_buf_append(b, ", ", 2);
            first = 0;
            lt__ds_dump_str(k, strlen(k), b);
            lt_buf_append(b, ": ", 2);
            lt__ds_dump(x, b);
        }
        lt_buf_append(b, "}", 1);
        break;
    }
    case JSON_ARRAY: {
        lt_buf_append(b, "[", 1);
        for (size_t i = 0; i < json_array_size(v); i++) {
            if (i)
                lt_buf_append(b, ", ", 2);
            lt__ds_dump(json_array_get(v, i), b);
        }
        lt_buf_append(b, "]", 1);
        break;
    }
    case JSON_STRING:
        lt__ds_dump_str(json_string_value(v), json_string_length(v), b);
        break;
    case JSON_INTEGER:
        lt_buf_printf(b, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
        break;
    case JSON_REAL:
        lt__ds_dump_real(json_real_value(v), b);
        break;
    case JSON_TRUE:
        lt_buf_puts(b, "true");
        break;
    case JSON_FALSE:
        lt_buf_puts(b, "false");
        break;
    case JSON_NULL:
    default:
        lt_buf_puts(b, "null");
        break;
    }
}

struct line {
    const char *p;
    size_t n; /* with its newline, if any */
};

static struct line *split_lines(const char *s, size_t *n_out)
{
    size_t len = strlen(s), n = 0, cap = 16;
    struct line *v = xmalloc(cap * sizeof(*v));
    size_t i = 0;
    while (i < len) {
        const char *nl = memchr(s + i, '\n', len - i);
        size_t end = nl ? (size_t)(nl - s) + 1 : len;
        if (n == cap) {
            cap *= 2;
            v = xrealloc(v, cap * sizeof(*v));
        }
        v[n++] = (struct line){s + i, end - i};
        i = end;
    }
    *n_out = n;
    return v;
}

static int line_eq(const struct line *a, const struct line *b)
{
    return a->n == b->n && memcmp(a->p, b->p, a->n) == 0;
}

static void diff_line(struct lt_buf *d, char tag, const struct line *l)
{
    lt_buf_append(d, &tag, 1);
    lt_buf_append(d, l->p, l->n);
    if (l->n == 0 || l->p[l->n - 1] != '\n')
        lt_buf_puts(d, "\n\\ No newline at end of file\n");
}

/* A unified diff (3 lines of context) of a and b as one hunk around the
 * lines that differ; "" when they are equal.  Caller frees. */
char *lt__ds_udiff(const char *a, const char *b, const char *name)
{
    size_t na, nb;
    struct line *la = split_lines(a, &na), *lb = split_lines(b, &nb);
    size_t p = 0;
    while (p < na && p < nb && line_eq(&la[p], &lb[p]))
        p++;
    size_t s = 0;
    while (s < na - p && s < nb - p &&
           line_eq(&la[na - 1 - s], &lb[nb - 1 - s]))
        s++;
    struct lt_buf d = LT_BUF_INIT;
    if (p == na && p == nb) {
        free(la);
        free(lb);
        return xstrdup("");
    }
    size_t start = p > 3 ? p - 3 : 0;
    size_t ea = na - s + 3 < na ? na - s + 3 : na;
    size_t eb = nb - s + 3 < nb ? nb - s + 3 : nb;
    lt_buf_printf(&d, "--- a/%s\n+++ b/%s\n", name, name);
    size_t ca = ea - start, cb = eb - start;
    lt_buf_printf(&d, "@@ -%zu,%zu +%zu,%zu @@\n", ca ? start + 1 : start,
                  ca, cb ? start + 1 : start, cb);
    for (size_t i = start; i < p; i++)
        diff_line(&d, ' ', &la[i]);
    for (size_t i = p; i < na - s; i++)
        diff_line(&d, '-', &la[i]);
    for (size_t i = p; i < nb - s; i++)
        diff_line(&d, '+', &lb[i]);
    for (size_t i = na - s; i < ea; i++)
        diff_line(&d, ' ', &la[i]);
    free(la);
    free(lb);
    return lt_buf_steal(&d);
}

/*** The generators ***/

/* Calls a generator of operators/dataset.py; args is consumed.  The
 * answer, or NULL with *rc (LT_EUSAGE: the generator rejects the input)
 * and *err (caller frees). */
json_t *lt__ds_call(struct ds_run *r, const char *fn, json_t *args,
                    const char *where)
{
    (void)where;
    /* The generators of the run's language (operators/ds_java.py). */
    if (r->is_java && json_is_object(args))
        json_object_set_new(args, "lang", json_string("java"));
    char *a = json_dumps(args, JSON_COMPACT);
    json_decref(args);
    char *out = NULL, *err = NULL;
    size_t len = 0;
    int rc = a ? lt_dataset_call(fn, a, &out, &len, &err) : LT_EUSAGE;
    free(a);
    json_t *res = NULL;
    if (rc == 0) {
        json_error_t je;
        size_t jl = strlen(out);
        res = json_loadb(out, jl, JSON_DECODE_ANY, &je);
        if (!res)
            err = xasprintf("the %s generator answered bad JSON: %s", fn,
                            je.text);
        /* Texts after the JSON (see lt_dataset_call): the sources of the
         * array's items, in order. */
        const char *p = out + jl;
        for (size_t i = 0; res && p < out + len; i++) {
            const char *t = p + 1;
            const char *e = memchr(t, '\0', (size_t)(out + len - t));
            size_t n = e ? (size_t)(e - t) : (size_t)(out + len - t);
            json_t *item = json_array_get(res, i);
            if (!json_is_object(item)) {
                json_decref(res);
                res = NULL;
                err = xasprintf("the %s generator answered more texts than "
                                "items", fn);
                break;
            }
            /* Valid UTF-8: Python encoded it. */
            json_object_set_new(item, "source", json_stringn_nocheck(t, n));
            p = t + n;
        }
    }
    free(out);
    if (!res) {
        r->call_rc = rc == 0 ? LT_EPYTHON : rc;
        free(r->call_err);
        r->call_err = err ? err : xstrdup("the generator failed");
        return NULL;
    }
    free(err);
    return res;
}

/* Checks that every string of the array calls is one Python expression
 * (a call such as "f(1, 2)"), by parsing them in the generator (nothing
 * runs).  0, or an exit code after one error line naming the record: 2
 * for a bad input, 3 when the generator failed. */
int lt__ds_check_calls(struct ds_run *r, const char *where, const char *id,
                       json_t *calls)
{
    json_t *res = lt__ds_call(r, "check_calls",
                              json_pack("{s:O}", "calls", calls), where);
    if (!json_is_array(res)) {
        lt_error("%s: id %s: cannot check the inputs: %s", where, id,
                 r->call_err ? r->call_err : "no answer");
        json_decref(res);
        return LT_EXIT_ENGINE;
    }
    int code = 0;
    for (size_t i = 0; i < json_array_size(res) && !code; i++) {
        const json_t *m = json_array_get(res, i);
        if (!json_is_string(m))
            continue;
        const char *call = json_string_value(json_array_get(calls, i));
        lt_error("%s: id %s: input '%.200s%s' is not a %s expression "
                 "(a call such as %s): %s",
                 where, id, call ? call : "?",
                 call && strlen(call) > 200 ? "..." : "",
                 r->is_java ? "Java" : "Python",
                 r->is_java ? "Foo.bar(1, new int[]{2})" : "f(1, 2)",
                 json_string_value(m));
        code = LT_EXIT_USAGE;
    }
    json_decref(res);
    return code;
}

/*** Comparing runs ***/

/* The id of test idx of lane l (Java: as a worker named it), or "?". */
const char *lt__ds_test_id(const struct ds_lane *l, long idx)
{
    if (l->java)
        return idx >= 0 && (size_t)idx < l->n_java_tests
                   ? l->java_tests[idx]
                   : "?";
    const struct lt_suite *p = lt_exec_lane_suite(l->xl);
    if (idx < 0 || !p->test_ids || (size_t)idx >= p->n_tests)
        return "?";
    return p->test_ids[idx];
}

static json_t *case_outcome(const json_t *c)
{
    json_t *o = json_deep_copy(c);
    json_object_del(o, "lines");
    return o;
}

/* A reference case that answers: not a timeout, not a bad input. */
int lt__ds_case_usable(const json_t *c)
{
    const char *s = json_string_value(json_object_get(c, "status"));
    return s && strcmp(s, "timeout") != 0 && strcmp(s, "error") != 0;
}

static int same_case(const json_t *a, const json_t *b)
{
    const char *sa = json_string_value(json_object_get(a, "status"));
    const char *sb = json_string_value(json_object_get(b, "status"));
    if (!sa || !sb || strcmp(sa, sb) != 0)
        return 0;
    static const char *const keys[] = {"repr", "type", "exception"};
    if (strcmp(sa, "ok") == 0) {
        for (int i = 0; i < 2; i++)
            if (!json_equal(json_object_get(a, keys[i]),
                            json_object_get(b, keys[i])))
                return 0;
        return 1;
    }
    if (strcmp(sa, "raised") == 0)
        return json_equal(json_object_get(a, "exception"),
                          json_object_get(b, "exception"));
    return 1;
}

/* See dataset_internal.h. */
int lt__ds_compare(const struct ds_task *ref, const struct ds_task *t,
                   json_t **witness)
{
    *witness = NULL;
    const json_t *rr = ref->result, *tr = t->result;
    const char *st = json_string_value(json_object_get(tr, "status"));
    if (!st || strcmp(st, "error") == 0 || strcmp(st, "invalid") == 0)
        return -1;
    /* Java with neither tests nor inputs: compiling is all there is. */
    if (t->kind == TK_CASES && t->lane->java && !ref->calls)
        return strcmp(st, "ok") == 0 ? 2 : -1;
    if (t->kind == TK_CASES) {
        if (strcmp(st, "ok") != 0) {
            *witness = json_pack("{s:s}", "status", st);
            const json_t *e = json_object_get(tr, "error");
            if (e)
                json_object_set(*witness, "error", (json_t *)e);
            return 1;
        }
        const json_t *rc = json_object_get(rr, "cases");
        const json_t *tc = json_object_get(tr, "cases");
        size_t k = 0;
        for (size_t i = 0; i < json_array_size(rc); i++) {
            const json_t *a = json_array_get(rc, i);
            if (!lt__ds_case_usable(a))
                continue; /* no reference on this input: not run */
            const json_t *b = json_array_get(tc, k++);
            if (!b || !same_case(a, b)) {
                *witness = json_pack(
                    "{s:O, s:o, s:o}", "input",
                    json_array_get(ref->calls, i), "original",
                    case_outcome(a), "variant",
                    b ? case_outcome(b) : json_null());
                return 1;
            }
        }
        return 0;
    }
    const char *ro = json_string_value(json_object_get(rr, "outcomes"));
    const char *to = json_string_value(json_object_get(tr, "outcomes"));
    int ref_disk = json_is_true(json_object_get(rr, "disk"));
    if (strcmp(st, "equivalent") == 0)
        return ref_disk ? 0 : -1;
    if (strcmp(st, "passed") == 0 || strcmp(st, "failed") == 0) {
        if (!ro || !to || strlen(ro) != strlen(to))
            return -1;
        for (size_t i = 0; to[i]; i++) {
            if (to[i] == '-' || to[i] == ro[i])
                continue;
            *witness = json_pack("{s:s, s:s#, s:s#}", "test",
                                 lt__ds_test_id(t->lane, (long)i),
                                 "original", ro + i, 1, "variant", to + i, 1);
            const json_t *m = json_object_get(tr, "message");
            if (m && json_is_string(json_object_get(tr, "test")) &&
                strcmp(json_string_value(json_object_get(tr, "test")),
                       lt__ds_test_id(t->lane, (long)i)) == 0)
                json_object_set(*witness, "message", (json_t *)m);
            return 1;
        }
        return 0;
    }
    /* timeout, crashed, raised, tamper: the run went wrong where the
     * reference did not. */
    *witness = json_pack("{s:s}", "status", st);
    const json_t *x = json_object_get(tr, "test");
    if (x)
        json_object_set(*witness, "test", (json_t *)x);
    x = json_object_get(tr, "error");
    if (x)
        json_object_set(*witness, "error", (json_t *)x);
    return 1;
}

const char *lt__ds_compile_error(const struct ds_task *t)
{
    if (!json_is_true(json_object_get(t->result, "compile_error")))
        return NULL;
    const char *e = json_string_value(json_object_get(t->result, "error"));
    return e ? e : "does not compile";
}

/*** Statistics ***/

static void count_in(json_t *o, const char *key, size_t n)
{
    if (!key)
        return;
    json_int_t v = json_integer_value(json_object_get(o, key));
    json_object_set_new(o, key, json_integer(v + (json_int_t)n));
}

void lt__ds_drop(struct ds_run *r, const char *reason, size_t n)
{
    count_in(r->s.dropped, reason, n);
}

void lt__ds_count(struct ds_run *r, int which, const char *key, size_t n)
{
    json_t *o = which == 0 ? r->s.by_op : which == 1 ? r->s.by_cat
                                                    : r->s.by_loc;
    if (n)
        count_in(o, key, n);
}

void lt__ds_count_item(struct ds_run *r, const char *op, const char *cat,
                       const char *loc)
{
    count_in(r->s.by_op, op, 1);
    count_in(r->s.by_cat, cat, 1);
    count_in(r->s.by_loc, loc, 1);
}

/*** Output ***/

static void emit(struct ds_run *r, struct ds_prog *p)
{
    if (p->raw.len && fwrite(p->raw.data, 1, p->raw.len, r->out) !=
                          p->raw.len && !r->ex.fatal) {
        lt_error("cannot write the output: %s", strerror(errno));
        lt_exec_fail(&r->ex, LT_EXIT_ENGINE);
    }
    p->raw.len = 0;
    struct lt_buf b = LT_BUF_INIT;
    for (size_t i = 0; i < json_array_size(p->items); i++) {
        lt__ds_dump(json_array_get(p->items, i), &b);
        lt_buf_append(&b, "\n", 1);
    }
    if (b.len && fwrite(b.data, 1, b.len, r->out) != b.len && !r->ex.fatal) {
        lt_error("cannot write the output: %s", strerror(errno));
        lt_exec_fail(&r->ex, LT_EXIT_ENGINE);
    }
    r->s.emitted += json_array_size(p->items);
    lt_buf_free(&b);
    json_decref(p->items);
    p->items = NULL;
}

/* Writes the items a program has so far when every program before it is
 * written (streaming); otherwise they wait in p->items. */
void lt__ds_emit_now(struct ds_run *r, struct ds_prog *p)
{
    if (r->next_emit == p->index)
        emit(r, p);
}

/* A program's items are final: writes them, and those of every program
 * after it that is done too, in input order. */
void lt__ds_prog_done(struct ds_run *r, struct ds_prog *p)
{
    p->done = 1;
    while (r->next_emit < r->n_progs && r->progs[r->next_emit].done)
        emit(r, &r->progs[r->next_emit++]);
}

/*** The scratch directory ***/

/* Contract: see dataset_internal.h.  Every lane's runners, zygotes or
 * Java workers, work below it. */
int lt__ds_scratch(struct ds_run *r)
{
    if (r->scratch)
        return 0;
    r->scratch = lt_sandbox_scratch_new(NULL);
    if (!r->scratch) {
        int e = errno;
        lt_error("cannot create a scratch directory: %s", strerror(e));
        return -e;
    }
    return 0;
}
