/* The probe layer of repository candidates (docs/patches.md, "Repository
 * candidates"): the instance's tests run once with the reference's files
 * and once with the candidate's, each observing the functions either diff
 * changes where the tests call them (runners/probe.py).  This file
 * compares the two runs' records key by key: a key both runs have, whose
 * records differ, is a difference; a difference is a witness only when a
 * second pair of runs repeats both records (a clock, a random token or a
 * hash order in a value makes a record change from run to run, and says
 * nothing of the patch).  repo.c runs the probes.  SPDX-License-Identifier:
 * MIT */
#include "engine/jobs/patches/repo_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "common/xmalloc.h"

#define SHOWN_MAX 240       /* characters of a value in the detail text */
#define PRINTED_BEFORE 40   /* characters of output shown before a difference */
#define DIFFERING_MAX 64    /* differing keys carried to the second round */

/* The kind of a summary node: its JSON type, or an object's tag. */
static const char *node_kind(const json_t *v)
{
    static const char *const tags[] = {"obj", "seq", "map", "set", "text",
                                       "bytes", "exception", "ref", "cycle",
                                       "deep", "other", "int", "float",
                                       "iterator"};
    if (json_is_number(v))
        return "number";
    if (json_is_string(v))
        return "string";
    if (json_is_boolean(v))
        return "bool";
    if (json_is_null(v))
        return "null";
    if (json_is_array(v))
        return "array";
    for (size_t i = 0; i < sizeof(tags) / sizeof(*tags); i++)
        if (json_object_get(v, tags[i]))
            return tags[i];
    return "object";
}

static int same_number(double a, double b)
{
    if (a == b)
        return 1;
    double m = fmax(fabs(a), fabs(b));
    return fabs(a - b) <= 1e-9 * m;
}

/* Whether a summary is a plain value: a text, a number, a flag. */
static int plain(const json_t *v)
{
    return json_is_string(v) || json_is_number(v) || json_is_boolean(v);
}

/* Whether a public attribute that one side leaves None holds a plain
 * value on the other: a setting a caller reads (a child blueprint's
 * subdomain, set by its parent's registration), not state a fix keeps
 * its own way (those are private, or of another kind than None). */
static int setting_differs(const char *name, const json_t *x, const json_t *y)
{
    return name[0] != '_' && ((json_is_null(x) && plain(y)) ||
                              (json_is_null(y) && plain(x)));
}

/* Whether an attribute both sides' objects have differs: compared where
 * both keep one of the same kind (a fix may keep its state otherwise),
 * and a public one that is None on one side only where the other holds
 * a plain value. */
static int attribute_differs(const char *name, const json_t *x,
                             const json_t *y)
{
    return strcmp(node_kind(x), node_kind(y)) == 0 ? !lt__rp_same(x, y)
                                                   : setting_differs(name, x, y);
}

/* Whether two summaries are equal as the tests' `==` would find them: an
 * object's attributes compared as attribute_differs says; a mapping's
 * type is not compared (a dict equals an OrderedDict); a node beyond
 * the summary's depth or size ("deep") equals anything. */
int lt__rp_same(const json_t *a, const json_t *b)
{
    /* Beyond what a summary holds: unknown, so no difference. */
    if ((json_is_object(a) && json_object_get(a, "deep")) ||
        (json_is_object(b) && json_object_get(b, "deep")))
        return 1;
    if (json_is_number(a) && json_is_number(b))
        return same_number(json_number_value(a), json_number_value(b));
    if (json_typeof(a) != json_typeof(b))
        return 0;
    if (json_is_string(a))
        return strcmp(json_string_value(a), json_string_value(b)) == 0;
    if (json_is_array(a)) {
        if (json_array_size(a) != json_array_size(b))
            return 0;
        for (size_t i = 0; i < json_array_size(a); i++)
            if (!lt__rp_same(json_array_get(a, i), json_array_get(b, i)))
                return 0;
        return 1;
    }
    if (!json_is_object(a))
        return 1; /* null, true, false: their type says it all */
    const char *ka = node_kind(a), *kb = node_kind(b);
    if (strcmp(ka, kb) != 0)
        return 0;
    const char *key;
    json_t *x;
    if (strcmp(ka, "obj") == 0) {
        if (!lt__rp_same(json_object_get(a, "obj"), json_object_get(b, "obj")))
            return 0;
        const json_t *ab = json_object_get(b, "attrs");
        json_object_foreach(json_object_get(a, "attrs"), key, x) {
            const json_t *y = json_object_get(ab, key);
            if (y && attribute_differs(key, x, y))
                return 0;
        }
        return 1;
    }
    if (json_object_size(a) != json_object_size(b))
        return 0;
    json_object_foreach((json_t *)a, key, x) {
        if (strcmp(ka, "map") == 0 && strcmp(key, "map") == 0)
            continue;
        const json_t *y = json_object_get(b, key);
        if (!y || !lt__rp_same(x, y))
            return 0;
    }
    return 1;
}

/* Where two summaries first differ, as lt__rp_same finds them: the path
 * appended to *path ("" at the top; ".name" an attribute, "[i]" an item)
 * and the two nodes there. */
static void first_difference(const json_t *a, const json_t *b, char **path,
                             const json_t **at_a, const json_t **at_b)
{
    *at_a = a;
    *at_b = b;
    if (!json_is_object(a) || !json_is_object(b) ||
        strcmp(node_kind(a), node_kind(b)) != 0)
        return;
    const char *kind = node_kind(a);
    const json_t *ia = NULL, *ib = NULL;
    if (strcmp(kind, "obj") == 0) {
        if (!lt__rp_same(json_object_get(a, "obj"), json_object_get(b, "obj")))
            return;
        const json_t *ab = json_object_get(b, "attrs");
        const char *key;
        json_t *x;
        json_object_foreach(json_object_get(a, "attrs"), key, x) {
            const json_t *y = json_object_get(ab, key);
            if (y && attribute_differs(key, x, y)) {
                char *p = xasprintf("%s.%s", *path, key);
                free(*path);
                *path = p;
                first_difference(x, y, path, at_a, at_b);
                return;
            }
        }
        return;
    }
    if (strcmp(kind, "seq") == 0 || strcmp(kind, "set") == 0 ||
        strcmp(kind, "map") == 0) {
        if (!lt__rp_same(json_object_get(a, "len"), json_object_get(b, "len")))
            return;
        ia = json_object_get(a, "items");
        ib = json_object_get(b, "items");
    }
    if (!ia || json_array_size(ia) != json_array_size(ib))
        return;
    for (size_t i = 0; i < json_array_size(ia); i++) {
        const json_t *x = json_array_get(ia, i), *y = json_array_get(ib, i);
        if (lt__rp_same(x, y))
            continue;
        if (strcmp(kind, "map") == 0 && json_array_size(x) == 2 &&
            lt__rp_same(json_array_get(x, 0), json_array_get(y, 0))) {
            char *k = json_dumps(json_array_get(x, 0),
                                 JSON_COMPACT | JSON_ENCODE_ANY);
            char *p = xasprintf("%s[%s]", *path, k ? k : "?");
            free(k);
            free(*path);
            *path = p;
            first_difference(json_array_get(x, 1), json_array_get(y, 1), path,
                             at_a, at_b);
            return;
        }
        if (strcmp(kind, "seq") == 0) {
            char *p = xasprintf("%s[%zu]", *path, i);
            free(*path);
            *path = p;
            first_difference(x, y, path, at_a, at_b);
        }
        return;
    }
}

/* The key of a record's call with input v: test, function, call, v. */
static char *call_key(const json_t *rec, json_int_t v)
{
    const char *f = json_string_value(json_object_get(rec, "f"));
    return xasprintf("%lld|%s|%lld|%lld",
                     (long long)json_integer_value(json_object_get(rec, "t")),
                     f ? f : "?",
                     (long long)json_integer_value(json_object_get(rec, "c")),
                     (long long)v);
}


/* key -> record, for one run's records. */
static json_t *by_key(const json_t *records)
{
    json_t *out = json_object();
    size_t i;
    json_t *rec;
    json_array_foreach(records, i, rec) {
        if (!json_is_object(json_object_get(rec, "out")))
            continue;
        char *k = call_key(rec, json_integer_value(json_object_get(rec, "v")));
        json_object_set(out, k, rec);
        free(k);
    }
    return out;
}

/* Whether an exception is Python's own (a refusal: a TypeError, a
 * KeyError), not one of the program's or a library's (which says what
 * the program decided: a redirect, a usage error). */
static int builtin_exception(const char *name)
{
    return !strchr(name, '.') || strncmp(name, "builtins.", 9) == 0;
}

/* Whether a record's exception was raised by a raise statement of a
 * changed file (the program's decision, even of a built-in type). */
static int raised_here(const json_t *out)
{
    return json_is_true(json_object_get(out, "raised_here"));
}

/* Whether Python's own operations refused a call's input for its type
 * (a TypeError or AttributeError no raise statement of the program
 * made). */
static int refused_type(const json_t *out)
{
    const char *r = json_string_value(json_object_get(out, "raise"));
    return r && !raised_here(out) &&
           (strcmp(r, "builtins.TypeError") == 0 ||
            strcmp(r, "builtins.AttributeError") == 0);
}

/* Two outcomes equal but for where their exceptions were raised: a fix
 * that raises KeyError itself agrees with one whose lookup does. */
static int same_outcome(const json_t *ao, const json_t *bo)
{
    /* Where an exception came from, and its message (compared only where
     * message_differs says: a fix words its errors its own way). */
    static const char *const notes[] = {"raised_here", "message",
                                        "message_key", "printed"};
    json_t *a = json_copy((json_t *)ao), *b = json_copy((json_t *)bo);
    for (size_t i = 0; i < sizeof(notes) / sizeof(notes[0]); i++) {
        json_object_del(a, notes[i]);
        json_object_del(b, notes[i]);
    }
    int same = lt__rp_same(a, b);
    json_decref(a);
    json_decref(b);
    return same;
}

/* Whether two records of one key agree.  Inputs one change away (v > 0)
 * are not checked against a contract: that both sides refuse one is
 * agreement, unless both raise the program's own exceptions and not the
 * same one (the reference lets a redirect through where the patch
 * raises a debugging error), or both sides' own raise statements raise
 * different ones (TypeError "an instance, not a class" where the patch
 * raises ValueError). */
static int same_out(const json_t *a, const json_t *b)
{
    if (!a || !b)
        return 0;
    const json_t *ao = json_object_get(a, "out"), *bo = json_object_get(b, "out");
    const char *ra = json_string_value(json_object_get(ao, "raise")),
               *rb = json_string_value(json_object_get(bo, "raise"));
    /* A variant that puts a value of another type where the test gave
     * one (None for an int): a side whose own operations refuse it
     * found it outside what the function takes, whatever the other
     * does with it. */
    if (json_integer_value(json_object_get(a, "v")) &&
        json_is_true(json_object_get(ao, "retyped")) &&
        (refused_type(ao) || refused_type(bo)))
        return 1;
    if (json_integer_value(json_object_get(a, "v")) && ra && rb)
        return strcmp(ra, rb) == 0 ||
               ((builtin_exception(ra) || builtin_exception(rb)) &&
                !(raised_here(ao) && raised_here(bo)));
    return same_outcome(ao, bo);
}

/* Whether two records of one key (an input one change away) raise one
 * exception with different messages, where the test's own call raised
 * it with the same message on both sides: the tests pin that message,
 * and the variant shows a path where the patch words it otherwise (a
 * message made from the input only for the tested type). */
static int message_differs(const json_t *a, const json_t *b,
                           const json_t *refs, const json_t *cands)
{
    const json_t *ao = json_object_get(a, "out"), *bo = json_object_get(b, "out");
    const char *ra = json_string_value(json_object_get(ao, "raise")),
               *rb = json_string_value(json_object_get(bo, "raise")),
               *ma = json_string_value(json_object_get(ao, "message_key")),
               *mb = json_string_value(json_object_get(bo, "message_key"));
    if (!json_integer_value(json_object_get(a, "v")) || !ra || !rb || !ma ||
        !mb || strcmp(ra, rb) != 0 || strcmp(ma, mb) == 0)
        return 0;
    char *k = call_key(a, 0);
    const json_t *a0 = json_object_get(json_object_get(refs, k), "out"),
                 *b0 = json_object_get(json_object_get(cands, k), "out");
    free(k);
    const char *r0a = json_string_value(json_object_get(a0, "raise")),
               *r0b = json_string_value(json_object_get(b0, "raise")),
               *m0a = json_string_value(json_object_get(a0, "message_key")),
               *m0b = json_string_value(json_object_get(b0, "message_key"));
    return r0a && r0b && m0a && m0b && strcmp(r0a, ra) == 0 &&
           strcmp(r0b, ra) == 0 && strcmp(m0a, m0b) == 0;
}

/* Whether two records of one key (an input one change away) print
 * different output, where the test's own call printed the same on both
 * sides: the tests' output is what they pin, and the variant shows a
 * path where the patch prints otherwise (a default shown for the tested
 * type only). */
static int printed_differs(const json_t *a, const json_t *b,
                           const json_t *refs, const json_t *cands)
{
    const json_t *pa = json_object_get(json_object_get(a, "out"), "printed"),
                 *pb = json_object_get(json_object_get(b, "out"), "printed");
    if (!json_integer_value(json_object_get(a, "v")) || !pa || !pb ||
        lt__rp_same(pa, pb))
        return 0;
    char *k = call_key(a, 0);
    const json_t *p0a = json_object_get(
                     json_object_get(json_object_get(refs, k), "out"),
                     "printed"),
                 *p0b = json_object_get(
                     json_object_get(json_object_get(cands, k), "out"),
                     "printed");
    free(k);
    if (!p0a || !p0b || !lt__rp_same(p0a, p0b))
        return 0;
    /* The first difference must fall on a line the test's own call
     * printed too (a prompt, a hint): a line only the variant prints (an
     * error message of a path the test never took) is a fix's own
     * wording. */
    static const char *const streams[] = {"out", "err"};
    for (size_t i = 0; i < 2; i++) {
        const char *ta = json_string_value(json_object_get(pa, streams[i])),
                   *tb = json_string_value(json_object_get(pb, streams[i])),
                   *t0 = json_string_value(json_object_get(p0a, streams[i]));
        if (!ta || !tb || strcmp(ta, tb) == 0)
            continue;
        size_t line = 0, lines0 = 0;
        for (size_t at = 0; ta[at] && ta[at] == tb[at]; at++)
            line += ta[at] == '\n';
        for (const char *c = t0 ? t0 : ""; *c; c++)
            lines0 += *c == '\n';
        if (t0 && *t0 && t0[strlen(t0) - 1] != '\n')
            lines0++; /* a last line without its newline (a prompt) */
        return line < lines0;
    }
    return 0;
}

/* The input a key's call got on each side (its test's call, v = 0,
 * records it as "in"), where the two sides describe the call alike (an
 * input one change away is described the same way); 0 where they do
 * not. */
static int given_inputs(const json_t *ra, const json_t *ca, const json_t *a,
                        const json_t *b, const json_t **ga, const json_t **gb)
{
    const char *wa = json_string_value(json_object_get(a, "what")),
               *wb = json_string_value(json_object_get(b, "what"));
    if (!wa || !wb || strcmp(wa, wb) != 0)
        return 0;
    char *k = call_key(a, 0);
    *ga = json_object_get(json_object_get(json_object_get(ra, k), "out"),
                          "in");
    *gb = json_object_get(json_object_get(json_object_get(ca, k), "out"),
                          "in");
    free(k);
    return *ga && *gb;
}

/* Whether a key's call got the same input on both sides. */
static int same_input(const json_t *ra, const json_t *ca, const json_t *a,
                      const json_t *b)
{
    const json_t *ga, *gb;
    return given_inputs(ra, ca, a, b, &ga, &gb) && lt__rp_same(ga, gb);
}

/* Whether two summaries have one shape: the same structure, kinds and
 * plain values but for the contents of texts and numbers (a timestamp,
 * a signed token, which differ between two runs made seconds apart). */
static int same_shape(const json_t *a, const json_t *b)
{
    if ((json_is_string(a) && json_is_string(b)) ||
        (json_is_number(a) && json_is_number(b)))
        return 1;
    if (json_typeof(a) != json_typeof(b))
        return 0;
    if (json_is_array(a)) {
        if (json_array_size(a) != json_array_size(b))
            return 0;
        for (size_t i = 0; i < json_array_size(a); i++)
            if (!same_shape(json_array_get(a, i), json_array_get(b, i)))
                return 0;
        return 1;
    }
    if (!json_is_object(a))
        return 1;
    if (json_object_size(a) != json_object_size(b))
        return 0;
    const char *key;
    json_t *x;
    json_object_foreach((json_t *)a, key, x) {
        const json_t *y = json_object_get(b, key);
        if (!y || !same_shape(x, y))
            return 0;
    }
    return 1;
}

/* Whether a key's call got inputs of one shape on both sides but not
 * the same ones: the same call where the runs' clocks differ, to be
 * compared on what each side's two rounds agree on (lt__rp_confirm). */
static int input_of_one_shape(const json_t *ra, const json_t *ca,
                              const json_t *a, const json_t *b)
{
    const json_t *ga, *gb;
    return given_inputs(ra, ca, a, b, &ga, &gb) && same_shape(ga, gb);
}

/* Whether two outcomes differ in more than the contents of texts and
 * numbers: another exception, a list one item longer, a flag.  Such a
 * key goes to the second round before those that differ only where a
 * clock or a random token may (DIFFERING_MAX). */
static int differs_in_shape(const json_t *ao, const json_t *bo)
{
    const char *ra = json_string_value(json_object_get(ao, "raise")),
               *rb = json_string_value(json_object_get(bo, "raise"));
    return !same_shape(ao, bo) || (ra && rb && strcmp(ra, rb) != 0);
}

json_t *lt__rp_compare(const json_t *ref, const json_t *cand)
{
    json_t *ra = by_key(ref), *ca = by_key(cand);
    /* The differing keys, in shape first, then in content only. */
    json_t *shaped = json_array(), *content = json_array();
    size_t compared = 0, other_input = 0;
    const char *key;
    json_t *rec;
    json_object_foreach(ra, key, rec) {
        json_t *other = json_object_get(ca, key);
        if (!other)
            continue;
        const json_t *ao = json_object_get(rec, "out"),
                     *bo = json_object_get(other, "out");
        if (!same_input(ra, ca, rec, other)) {
            other_input++;
            /* A call given inputs of one shape whose outcomes differ in
             * shape (a header list one item longer) goes to the second
             * round, which compares what stays put. */
            if (input_of_one_shape(ra, ca, rec, other) &&
                differs_in_shape(ao, bo))
                json_array_append_new(shaped, json_string(key));
            continue;
        }
        compared++;
        if (message_differs(rec, other, ra, ca) ||
            printed_differs(rec, other, ra, ca) ||
            (!same_out(rec, other) && differs_in_shape(ao, bo)))
            json_array_append_new(shaped, json_string(key));
        else if (!same_out(rec, other))
            json_array_append_new(content, json_string(key));
    }
    json_t *differing = json_array();
    json_t *lists[] = {shaped, content};
    for (size_t l = 0; l < 2; l++)
        for (size_t i = 0; i < json_array_size(lists[l]) &&
                           json_array_size(differing) < DIFFERING_MAX;
             i++)
            json_array_append(differing, json_array_get(lists[l], i));
    json_decref(shaped);
    json_decref(content);
    json_t *out = json_pack("{s:s, s:I, s:I, s:I, s:I}", "status",
                            json_array_size(differing) ? "differs"
                            : compared                 ? "same"
                                                       : "inconclusive",
                            "compared", (json_int_t)compared, "other_input",
                            (json_int_t)other_input, "reference",
                            (json_int_t)json_object_size(ra), "candidate",
                            (json_int_t)json_object_size(ca));
    if (json_array_size(differing))
        json_object_set(out, "differing", differing);
    json_decref(differing);
    json_decref(ra);
    json_decref(ca);
    return out;
}

/* A summary as text for the detail, shortened. */
static char *shown(const json_t *v)
{
    char *s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_SORT_KEYS);
    if (!s)
        return xstrdup("?");
    if (strlen(s) > SHOWN_MAX)
        strcpy(s + SHOWN_MAX - 3, "...");
    return s;
}

/* What a call did, as one side's text: it raised, ran out of time, or
 * what it returned. */
static char *what_it_did(const json_t *out)
{
    if (json_is_true(json_object_get(out, "timeout")))
        return xstrdup("runs out of time");
    const json_t *raised = json_object_get(out, "raise");
    if (raised) {
        const char *m = json_string_value(json_object_get(out, "message"));
        char *mt = m ? shown(json_object_get(out, "message")) : NULL;
        char *s = xasprintf("raises %s%s%s", json_string_value(raised)
                                                 ? json_string_value(raised)
                                                 : "?",
                            mt ? " " : "", mt ? mt : "");
        free(mt);
        return s;
    }
    char *v = shown(json_object_get(out, "value"));
    char *s = xasprintf("returns %s", v);
    free(v);
    return s;
}

/* Where two calls' printed output ({"out": ..., "err": ...}) first
 * differs, as text: the stream, then each side's text from a little
 * before that point. */
static char *printed_difference(const json_t *a, const json_t *b)
{
    static const char *const streams[] = {"out", "err"};
    static const char *const names[] = {"standard output", "standard error"};
    size_t which = 0;
    for (size_t i = 0; i < 2; i++) {
        if (!lt__rp_same(json_object_get(a, streams[i]),
                         json_object_get(b, streams[i]))) {
            which = i;
            break;
        }
    }
    const char *ta = json_string_value(json_object_get(a, streams[which])),
               *tb = json_string_value(json_object_get(b, streams[which]));
    ta = ta ? ta : "";
    tb = tb ? tb : "";
    size_t at = 0;
    while (ta[at] && ta[at] == tb[at])
        at++;
    size_t from = at > PRINTED_BEFORE ? at - PRINTED_BEFORE : 0;
    while (from && ((unsigned char)ta[from] & 0xC0) == 0x80)
        from--; /* not inside a character: the prefix is common to both */
    json_t *ja = json_string(ta + from), *jb = json_string(tb + from);
    char *sa = ja ? shown(ja) : xstrdup("?"), *sb = jb ? shown(jb) : xstrdup("?");
    json_decref(ja);
    json_decref(jb);
    char *s = xasprintf("what it printed to %s%s: reference %s, patch %s",
                        names[which], from ? " (from a little before they "
                                             "differ)"
                                           : "",
                        sa, sb);
    free(sa);
    free(sb);
    return s;
}

/* Which part of two records' outcomes differs. */
enum difference { DIFF_RESULT, DIFF_ARGS, DIFF_PRINTED };

/* The difference of two records' outcomes as text: where the results
 * differ, where they agree the arguments after the call, or the output
 * the call printed. */
static char *difference_text(const json_t *ao, const json_t *bo,
                             enum difference kind)
{
    static const char *const part[] = {"value", "args", "printed"};
    const json_t *a = json_object_get(ao, part[kind]),
                 *b = json_object_get(bo, part[kind]);
    if (kind == DIFF_RESULT && (!a || !b)) {
        char *rt = what_it_did(ao), *ct = what_it_did(bo);
        char *s = xasprintf("reference %s, patch %s", rt, ct);
        free(rt);
        free(ct);
        return s;
    }
    if (kind == DIFF_PRINTED)
        return printed_difference(a, b);
    char *path = xstrdup("");
    const json_t *da, *db;
    first_difference(a, b, &path, &da, &db);
    char *sa = shown(da), *sb = shown(db);
    static const char *const said[] = {"the result",
                                       "the arguments after the call"};
    char *s = xasprintf("%s%s: reference %s, patch %s", said[kind], path, sa,
                        sb);
    free(sa);
    free(sb);
    free(path);
    return s;
}

static int same_result(const json_t *a, const json_t *b)
{
    static const char *const keys[] = {"value", "raise", "timeout"};
    for (size_t i = 0; i < 3; i++) {
        const json_t *x = json_object_get(a, keys[i]),
                     *y = json_object_get(b, keys[i]);
        if (!x != !y || (x && !lt__rp_same(x, y)))
            return 0;
    }
    return 1;
}

/* The witness of a confirmed key (a, b: its records; sa, sb: the same
 * made steady), and its detail text in *detail.  kind: the part that
 * differs, or -1 for the steady outcomes to say (the result, or where
 * the results agree, the arguments after the call). */
static json_t *witness_of(const json_t *a, const json_t *b, const json_t *sa,
                          const json_t *sb, int kind, char *const *test_ids,
                          size_t n_tests, char **detail)
{
    const json_t *ao = json_object_get(a, "out"), *bo = json_object_get(b, "out"),
                 *sao = json_object_get(sa, "out"),
                 *sbo = json_object_get(sb, "out");
    if (kind < 0)
        kind = same_result(sao, sbo) ? DIFF_ARGS : DIFF_RESULT;
    json_int_t t = json_integer_value(json_object_get(a, "t"));
    const char *test = t >= 0 && (size_t)t < n_tests ? test_ids[t] : "?";
    const char *fname = json_string_value(json_object_get(a, "f"));
    const char *what = json_string_value(json_object_get(a, "what"));
    const char *input = json_integer_value(json_object_get(a, "v"))
                            ? (what ? what : "?")
                            : "as the test called it";
    json_int_t call = json_integer_value(json_object_get(a, "c"));
    /* Where the steady parts differ (a round's timestamp aside). */
    char *dt = kind == DIFF_PRINTED ? difference_text(ao, bo, kind)
                                    : difference_text(sao, sbo, kind);
    *detail = xasprintf("%s, called by %s (its call %lld) %s%s: %s",
                        fname ? fname : "?", test, (long long)call + 1,
                        json_integer_value(json_object_get(a, "v")) ? "with "
                                                                    : "",
                        input, dt);
    free(dt);
    return json_pack("{s:s, s:s, s:I, s:s, s:O, s:O}", "function",
                     fname ? fname : "?", "test", test, "call",
                     (json_int_t)call + 1, "input", input, "reference", ao,
                     "candidate", bo);
}

/* x with every part that differs in x1 (the same call's summary in the
 * second round) made unknown ("deep", which equals anything): a cookie's
 * timestamp, a random token.  Objects with the same keys and arrays of
 * the same length are compared part by part, so what the two rounds
 * agree on beside such a part still counts (a header list one item
 * longer). */
static json_t *steady(const json_t *x, const json_t *x1)
{
    if (lt__rp_same(x, x1))
        return json_incref((json_t *)x); /* shared, read only */
    if (json_is_array(x) && json_is_array(x1) &&
        json_array_size(x) == json_array_size(x1)) {
        json_t *out = json_array();
        for (size_t i = 0; i < json_array_size(x); i++)
            json_array_append_new(out, steady(json_array_get(x, i),
                                              json_array_get(x1, i)));
        return out;
    }
    if (json_is_object(x) && json_is_object(x1) &&
        json_object_size(x) == json_object_size(x1) &&
        strcmp(node_kind(x), node_kind(x1)) == 0) {
        json_t *out = json_object();
        const char *key;
        json_t *v;
        json_object_foreach((json_t *)x, key, v) {
            const json_t *v1 = json_object_get(x1, key);
            json_object_set_new(out, key,
                                v1 ? steady(v, v1) : json_incref(v));
        }
        return out;
    }
    return json_pack("{s:b}", "deep", 1);
}

/* Whether a key's call got the same input on both sides once the parts
 * that change between each side's two rounds are left out. */
static int steady_input(const json_t *r0, const json_t *c0, const json_t *r1,
                        const json_t *c1, const json_t *a, const json_t *b,
                        const json_t *a1, const json_t *b1)
{
    const json_t *ga, *gb, *ga1, *gb1;
    if (!given_inputs(r0, c0, a, b, &ga, &gb) ||
        !given_inputs(r1, c1, a1, b1, &ga1, &gb1))
        return 0;
    json_t *sa = steady(ga, ga1), *sb = steady(gb, gb1);
    int same = lt__rp_same(sa, sb);
    json_decref(sa);
    json_decref(sb);
    return same;
}

/* A record with its outcome made steady against the second round's. */
static json_t *steady_record(const json_t *rec, const json_t *rec1)
{
    json_t *out = json_copy((json_t *)rec); /* its members shared */
    json_object_set_new(out, "out",
                        steady(json_object_get(rec, "out"),
                               json_object_get(rec1, "out")));
    return out;
}

json_t *lt__rp_confirm(const json_t *first, const json_t *ref0,
                       const json_t *cand0, const json_t *ref1,
                       const json_t *cand1, char *const *test_ids,
                       size_t n_tests)
{
    json_t *r0 = by_key(ref0), *c0 = by_key(cand0), *r1 = by_key(ref1),
           *c1 = by_key(cand1);
    json_t *out = json_deep_copy(first);
    json_object_del(out, "differing");
    size_t unstable = 0, confirmed = 0;
    size_t i;
    json_t *k;
    json_t *witness = NULL;
    const json_t *witness_rec = NULL; /* the record it was made from */
    char *detail = NULL;
    json_array_foreach(json_object_get(first, "differing"), i, k) {
        const char *key = json_string_value(k);
        const json_t *a = json_object_get(r0, key), *b = json_object_get(c0, key);
        const json_t *a1 = json_object_get(r1, key),
                     *b1 = json_object_get(c1, key);
        if (!a || !b || !a1 || !b1) {
            unstable++;
            continue;
        }
        if (!same_input(r0, c0, a, b) &&
            !steady_input(r0, c0, r1, c1, a, b, a1, b1)) {
            unstable++;
            continue; /* given another input, clocks aside */
        }
        /* A part that changes from round to round on either side is
         * unknown; a difference must remain in what both rounds agree
         * on. */
        json_t *sa = steady_record(a, a1), *sb = steady_record(b, b1);
        int stable = same_out(a, a1) && same_out(b, b1);
        int message = 0, printed = 0, differs = !same_out(sa, sb);
        if (stable || differs) {
            message = message_differs(a, b, r0, c0) &&
                      message_differs(a1, b1, r1, c1);
            printed = !message && printed_differs(a, b, r0, c0) &&
                      printed_differs(a1, b1, r1, c1);
        }
        if (!stable && !differs)
            unstable++;
        if (differs || message || printed) {
            confirmed++;
            /* The test's own call, where it differs, is the witness a
             * reviewer reads first: no input of litmus's making. */
            if (witness && !json_integer_value(json_object_get(a, "v")) &&
                json_integer_value(json_object_get(witness_rec, "v"))) {
                json_decref(witness);
                free(detail);
                witness = NULL;
                detail = NULL;
            }
            if (!witness) {
                witness_rec = a;
                witness = witness_of(a, b, sa, sb,
                                     printed   ? DIFF_PRINTED
                                     : message ? DIFF_RESULT
                                               : -1,
                                     test_ids, n_tests, &detail);
            }
        }
        json_decref(sa);
        json_decref(sb);
    }
    json_object_set_new(out, "status", json_string(witness ? "witness"
                                                           : "same"));
    json_object_set_new(out, "unstable", json_integer((json_int_t)unstable));
    json_object_set_new(out, "confirmed",
                        json_integer((json_int_t)confirmed));
    if (witness) {
        json_object_set_new(out, "witness", witness);
        json_object_set_new(out, "detail", json_string(detail));
    }
    free(detail);
    json_decref(r0);
    json_decref(c0);
    json_decref(r1);
    json_decref(c1);
    return out;
}
