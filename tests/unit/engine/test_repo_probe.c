/* Unit tests of the probe layer's comparison (engine/jobs/patches/
 * repo_probe.c): summaries equal as the tests' `==` finds them (numbers
 * up to rounding, a dict and an OrderedDict alike, an object's attributes
 * where both sides keep one of the same kind, or a public setting is None
 * on one side only), a first round that finds
 * the keys both runs have and where they differ, and a second that keeps
 * a difference only where both sides repeated their records.
 * SPDX-License-Identifier: MIT */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/jobs/patches/repo_internal.h"

static json_t *parse(const char *text)
{
    json_error_t err;
    json_t *v = json_loads(text, JSON_DECODE_ANY, &err);
    assert_non_null(v);
    return v;
}

static int same(const char *a, const char *b)
{
    json_t *x = parse(a), *y = parse(b);
    int r = lt__rp_same(x, y);
    json_decref(x);
    json_decref(y);
    return r;
}

static void test_same_as_the_tests_compare(void **state)
{
    (void)state;
    assert_true(same("3", "3.0"));
    assert_true(same("0.30000000000000004", "0.3"));
    assert_false(same("3", "4"));
    assert_false(same("\"3\"", "3"));
    assert_true(same("{\"map\": \"builtins.dict\", \"len\": 1, \"items\": "
                     "[[\"a\", 1]]}",
                     "{\"map\": \"collections.OrderedDict\", \"len\": 1, "
                     "\"items\": [[\"a\", 1]]}"));
    assert_false(same("{\"seq\": \"builtins.list\", \"len\": 1, \"items\": "
                      "[1]}",
                      "{\"seq\": \"builtins.tuple\", \"len\": 1, \"items\": "
                      "[1]}"));
    /* Attributes: compared where both keep one of the same kind. */
    assert_true(same("{\"obj\": \"m.C\", \"attrs\": {\"a\": 1, \"b\": [1]}}",
                     "{\"obj\": \"m.C\", \"attrs\": {\"a\": 1, \"c\": 2}}"));
    assert_true(same("{\"obj\": \"m.C\", \"attrs\": {\"a\": 1}}",
                     "{\"obj\": \"m.C\", \"attrs\": {\"a\": \"one\"}}"));
    assert_false(same("{\"obj\": \"m.C\", \"attrs\": {\"a\": 1}}",
                      "{\"obj\": \"m.C\", \"attrs\": {\"a\": 2}}"));
    assert_false(same("{\"obj\": \"m.C\", \"attrs\": {}}",
                      "{\"obj\": \"m.D\", \"attrs\": {}}"));
    /* A public setting None on one side and a plain value on the other
     * differs (a child's subdomain set by its parent's registration);
     * a private one, or None against a container, is state a fix may
     * keep its own way. */
    assert_false(same("{\"obj\": \"m.C\", \"attrs\": {\"sub\": null}}",
                      "{\"obj\": \"m.C\", \"attrs\": {\"sub\": \"api\"}}"));
    assert_false(same("{\"obj\": \"m.C\", \"attrs\": {\"n\": 3}}",
                      "{\"obj\": \"m.C\", \"attrs\": {\"n\": null}}"));
    assert_true(same("{\"obj\": \"m.C\", \"attrs\": {\"_sub\": null}}",
                     "{\"obj\": \"m.C\", \"attrs\": {\"_sub\": \"a\"}}"));
    assert_true(same("{\"obj\": \"m.C\", \"attrs\": {\"cache\": null}}",
                     "{\"obj\": \"m.C\", \"attrs\": {\"cache\": [1]}}"));
    assert_false(same("{\"raise\": \"ValueError\"}", "{\"value\": null}"));
    /* Beyond a summary's depth or size: unknown, equal to anything. */
    assert_true(same("{\"deep\": \"m.C\"}", "[1, 2]"));
    assert_true(same("[1, {\"obj\": \"m.C\", \"attrs\": {}}]",
                     "[1, {\"deep\": \"m.C\"}]"));
}

/* A record of the test's call (v = 0, its input "in" given) or of an
 * input one change away. */
#define DIFFERING_MAX_SEEN 64 /* repo_probe.c's DIFFERING_MAX */
#define REC(t, c, v, out)                                                    \
    "{\"t\": " #t ", \"f\": \"C.m\", \"c\": " #c ", \"v\": " #v              \
    ", \"what\": \"argument 1 = 2\", \"out\": " out "}"
#define GIVEN(t, c, in)                                                      \
    "{\"t\": " #t ", \"f\": \"C.m\", \"c\": " #c ", \"v\": 0"              \
    ", \"what\": \"as the test called it\", \"out\": {\"value\": 0, "        \
    "\"args\": [], \"in\": " in "}}"

static void test_rounds(void **state)
{
    (void)state;
    /* Test 0's call: the same input on both sides, then one change
     * away; test 1's call: another input on each side (not compared);
     * a variant both sides refuse, with different exceptions: agreement. */
    json_t *ref = parse("[" GIVEN(0, 0, "[1]") ","
                        REC(0, 0, 1, "{\"value\": 2, \"args\": []}") ","
                        REC(0, 0, 2, "{\"raise\": \"KeyError\"}") ","
                        GIVEN(1, 0, "[1]") ","
                        REC(1, 0, 1, "{\"value\": 5, \"args\": []}") "]");
    json_t *cand = parse("[" GIVEN(0, 0, "[1.0]") ","
                         REC(0, 0, 1, "{\"value\": 3, \"args\": []}") ","
                         REC(0, 0, 2, "{\"raise\": \"TypeError\"}") ","
                         GIVEN(1, 0, "[2]") ","
                         REC(1, 0, 1, "{\"value\": 9, \"args\": []}") "]");
    json_t *first = lt__rp_compare(ref, cand);
    assert_string_equal(json_string_value(json_object_get(first, "status")),
                        "differs");
    assert_int_equal(json_integer_value(json_object_get(first, "compared")),
                     3);
    assert_int_equal(
        json_integer_value(json_object_get(first, "other_input")), 2);
    assert_int_equal(json_array_size(json_object_get(first, "differing")), 1);
    char *tests[] = {"t::a", "t::b", "t::c"};
    /* Both sides repeat themselves: a witness, with its test and input. */
    json_t *got = lt__rp_confirm(first, ref, cand, ref, cand, tests, 3);
    assert_string_equal(json_string_value(json_object_get(got, "status")),
                        "witness");
    const char *detail = json_string_value(json_object_get(got, "detail"));
    assert_non_null(strstr(detail, "C.m, called by t::a (its call 1) "
                                   "with argument 1 = 2"));
    assert_non_null(strstr(detail, "reference 2, patch 3"));
    json_decref(got);
    /* The reference's record changes from run to run: no witness. */
    json_t *ref1 = parse("[" GIVEN(0, 0, "[1]") ","
                         REC(0, 0, 1, "{\"value\": 4, \"args\": []}") "]");
    got = lt__rp_confirm(first, ref, cand, ref1, cand, tests, 3);
    assert_string_equal(json_string_value(json_object_get(got, "status")),
                        "same");
    assert_int_equal(json_integer_value(json_object_get(got, "unstable")), 1);
    json_decref(got);
    json_decref(ref1);
    json_decref(first);
    /* A variant on which the two sides raise the program's own
     * exceptions, and not the same one, differs. */
    json_t *r2 = parse("[" GIVEN(0, 0, "[1]") ","
                       REC(0, 0, 1, "{\"raise\": \"web.Redirect\"}") ","
                       REC(0, 0, 2, "{\"raise\": \"web.Redirect\"}") "]");
    json_t *c2 = parse("[" GIVEN(0, 0, "[1]") ","
                       REC(0, 0, 1, "{\"raise\": \"web.FormDataError\"}") ","
                       REC(0, 0, 2, "{\"raise\": \"builtins.KeyError\"}") "]");
    json_t *second = lt__rp_compare(r2, c2);
    assert_int_equal(json_array_size(json_object_get(second, "differing")), 1);
    json_decref(second);
    json_decref(r2);
    json_decref(c2);
    /* Built-in exceptions that both sides' own raise statements raise,
     * and not the same one, differ; one raised by Python's operation on
     * either side is a refusal; on the test's own input, where it was
     * raised does not count. */
    r2 = parse("[" GIVEN(0, 0, "[1]") ","
               REC(0, 0, 1, "{\"raise\": \"builtins.TypeError\", "
                            "\"raised_here\": true}") ","
               REC(0, 0, 2, "{\"raise\": \"builtins.TypeError\", "
                            "\"raised_here\": true}") ","
               REC(0, 1, 0, "{\"raise\": \"builtins.KeyError\", "
                            "\"raised_here\": true, \"in\": [2]}") "]");
    c2 = parse("[" GIVEN(0, 0, "[1]") ","
               REC(0, 0, 1, "{\"raise\": \"builtins.ValueError\", "
                            "\"raised_here\": true}") ","
               REC(0, 0, 2, "{\"raise\": \"builtins.ValueError\"}") ","
               REC(0, 1, 0, "{\"raise\": \"builtins.KeyError\", "
                            "\"in\": [2]}") "]");
    second = lt__rp_compare(r2, c2);
    json_t *differing = json_object_get(second, "differing");
    assert_int_equal(json_integer_value(json_object_get(second, "compared")),
                     4);
    assert_int_equal(json_array_size(differing), 1);
    assert_string_equal(json_string_value(json_array_get(differing, 0)),
                        "0|C.m|0|1");
    json_decref(second);
    json_decref(r2);
    json_decref(c2);
    /* Equal records, and runs with no key in common. */
    first = lt__rp_compare(ref, ref);
    assert_string_equal(json_string_value(json_object_get(first, "status")),
                        "same");
    json_decref(first);
    json_t *none = parse("[]");
    first = lt__rp_compare(ref, none);
    assert_string_equal(json_string_value(json_object_get(first, "status")),
                        "inconclusive");
    json_decref(first);
    json_decref(none);
    json_decref(ref);
    json_decref(cand);
}

static void test_arguments_after_the_call(void **state)
{
    (void)state;
    json_t *ref = parse(
        "[" REC(0, 0, 0, "{\"value\": null, \"in\": 1, \"args\": {\"seq\": "
                         "\"builtins.list\", \"len\": 1, \"items\": "
                         "[{\"obj\": \"m.B\", \"attrs\": {\"sub\": \"a\"}}]}}")
        "]");
    json_t *cand = parse(
        "[" REC(0, 0, 0, "{\"value\": null, \"in\": 1, \"args\": {\"seq\": "
                         "\"builtins.list\", \"len\": 1, \"items\": "
                         "[{\"obj\": \"m.B\", \"attrs\": {\"sub\": \"a.b\"}}]}}")
        "]");
    json_t *first = lt__rp_compare(ref, cand);
    char *tests[] = {"t::a"};
    json_t *got = lt__rp_confirm(first, ref, cand, ref, cand, tests, 1);
    const char *detail = json_string_value(json_object_get(got, "detail"));
    assert_non_null(detail);
    assert_non_null(strstr(detail, "as the test called it: the arguments "
                                   "after the call[0].sub: reference \"a\", "
                                   "patch \"a.b\""));
    json_decref(got);
    json_decref(first);
    json_decref(ref);
    json_decref(cand);
    /* A variant recorded before the test's own call differs too: the
     * witness is still the test's own call. */
    ref = parse("[" REC(0, 0, 1, "{\"value\": 1, \"args\": []}") ","
                REC(0, 0, 0, "{\"value\": 1, \"in\": 1, \"args\": []}") "]");
    cand = parse("[" REC(0, 0, 1, "{\"value\": [2], \"args\": []}") ","
                 REC(0, 0, 0, "{\"value\": [2], \"in\": 1, \"args\": []}")
                 "]");
    first = lt__rp_compare(ref, cand);
    assert_int_equal(json_array_size(json_object_get(first, "differing")), 2);
    got = lt__rp_confirm(first, ref, cand, ref, cand, tests, 1);
    detail = json_string_value(json_object_get(got, "detail"));
    assert_non_null(detail);
    assert_non_null(strstr(detail, "(its call 1) as the test called it"));
    assert_int_equal(json_integer_value(json_object_get(got, "confirmed")), 2);
    json_decref(got);
    json_decref(first);
    json_decref(ref);
    json_decref(cand);
}

/* The test's call of input 1 and a variant of it that did out. */
static json_t *variant_records(const char *out)
{
    char *text = NULL;
    assert_true(asprintf(&text,
                         "[" GIVEN(0, 0, "1") ", {\"t\": 0, \"f\": \"C.m\", "
                         "\"c\": 0, \"v\": 1, \"what\": \"argument 1 = "
                         "None\", \"out\": %s}]",
                         out) > 0);
    json_t *v = parse(text);
    free(text);
    return v;
}

/* A variant that puts None where the test gave an int ("retyped"): a
 * side that refuses it with Python's own TypeError found it outside what
 * the function takes; a refusal by the program's own raise statement, or
 * a variant of the same type, still differs. */
static void test_a_retyped_variant_refused_by_python_agrees(void **state)
{
    (void)state;
    static const char *const cases[][3] = {
        {"{\"raise\": \"builtins.TypeError\", \"retyped\": true}",
         "{\"value\": 1, \"retyped\": true}", "same"},
        {"{\"value\": 1, \"retyped\": true}",
         "{\"raise\": \"builtins.AttributeError\", \"retyped\": true}",
         "same"},
        {"{\"raise\": \"builtins.TypeError\", \"raised_here\": true, "
         "\"retyped\": true}",
         "{\"value\": 1, \"retyped\": true}", "differs"},
        {"{\"raise\": \"builtins.TypeError\"}", "{\"value\": 1}",
         "differs"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        json_t *ref = variant_records(cases[i][0]),
               *cand = variant_records(cases[i][1]);
        json_t *got = lt__rp_compare(ref, cand);
        assert_string_equal(json_string_value(json_object_get(got, "status")),
                            cases[i][2]);
        json_decref(got);
        json_decref(ref);
        json_decref(cand);
    }
}

/* One side's records of a test's call (v = 0) and a variant of it
 * (v = 1): each outcome is `fixed` (JSON members) and a note `key` with
 * the call's value and the variant's (a message_key, printed output). */
static json_t *call_and_variant(const char *fixed, const char *key,
                                const char *at_call, const char *at_variant)
{
    char *text = NULL;
    assert_true(asprintf(&text,
                         "[{\"t\": 0, \"f\": \"C.m\", \"c\": 0, \"v\": 0, "
                         "\"what\": \"as the test called it\", \"out\": "
                         "{%s, \"%s\": %s, \"args\": [], \"in\": 1}}, "
                         "{\"t\": 0, \"f\": \"C.m\", \"c\": 0, \"v\": 1, "
                         "\"what\": \"argument 1 = 0\", \"out\": "
                         "{%s, \"%s\": %s, \"args\": []}}]",
                         fixed, key, at_call, fixed, key, at_variant) > 0);
    json_t *records = parse(text);
    free(text);
    return records;
}

/* The test's call and a variant both raise one exception: its message
 * differs where the test's call pinned one message on both sides, and
 * not where that call's messages already differ (a fix's own wording). */
static void test_a_message_the_tests_pin_is_compared_on_variants(void **state)
{
    (void)state;
    static const char *const cases[][5] = {
        /* test's call (ref, cand), variant (ref, cand), status */
        {"\"m\"", "\"m\"", "\"m\"", "\"0\"", "differs"},
        {"\"m\"", "\"M\"", "\"m\"", "\"0\"", "same"},
        {"\"m\"", "\"m\"", "\"x\"", "\"x\"", "same"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        json_t *side[2];
        for (int s = 0; s < 2; s++)
            side[s] = call_and_variant("\"raise\": \"m.Bad\"", "message_key",
                                       cases[i][s], cases[i][2 + s]);
        json_t *got = lt__rp_compare(side[0], side[1]);
        assert_string_equal(json_string_value(json_object_get(got, "status")),
                            cases[i][4]);
        json_decref(got);
        json_decref(side[0]);
        json_decref(side[1]);
    }
}

/* A part of a record that changes from round to round (a cookie's
 * timestamp) is unknown: a difference beside it that both rounds repeat
 * (a header list one item longer) is still a witness; one only in that
 * part is not. */
static void test_a_difference_beside_a_changing_part_is_a_witness(
    void **state)
{
    (void)state;
#define HEADERS(stamp, extra)                                                 \
    "{\"value\": null, \"args\": [{\"seq\": \"list\", \"len\": 9, "           \
    "\"items\": [\"Content-Length\", \"cookie " stamp "\"" extra "]}]}"
    json_t *ref = parse("[" GIVEN(0, 0, "[1]") "," REC(0, 0, 1,
                        HEADERS("t1", "")) "]"),
           *cand = parse("[" GIVEN(0, 0, "[1]") "," REC(0, 0, 1,
                         HEADERS("t1", ", \"Vary\"")) "]"),
           *ref1 = parse("[" GIVEN(0, 0, "[1]") "," REC(0, 0, 1,
                         HEADERS("t2", "")) "]"),
           *cand1 = parse("[" GIVEN(0, 0, "[1]") "," REC(0, 0, 1,
                          HEADERS("t3", ", \"Vary\"")) "]"),
           *same1 = parse("[" GIVEN(0, 0, "[1]") "," REC(0, 0, 1,
                          HEADERS("t3", "")) "]");
    char *tests[] = {"t::a"};
    json_t *first = lt__rp_compare(ref, cand);
    json_t *got = lt__rp_confirm(first, ref, cand, ref1, cand1, tests, 1);
    assert_string_equal(json_string_value(json_object_get(got, "status")),
                        "witness");
    const char *detail = json_string_value(json_object_get(got, "detail"));
    assert_non_null(strstr(detail, "the arguments after the call"));
    json_decref(got);
    json_decref(first);
    /* Only the timestamps differ: the two rounds disagree, no witness. */
    first = lt__rp_compare(ref, same1);
    got = lt__rp_confirm(first, ref, same1, ref1, same1, tests, 1);
    assert_string_equal(json_string_value(json_object_get(got, "status")),
                        "same");
    assert_int_equal(json_integer_value(json_object_get(got, "unstable")), 1);
    json_decref(got);
    json_decref(first);
    /* The test's call got inputs that differ only where each side's
     * two rounds differ too (the runs' clocks): compared on the rest. */
    json_t *in[4];
    const char *const stamps[4] = {"[\"t1\"]", "[\"t2\"]", "[\"t3\"]",
                                   "[\"t4\"]"};
    for (int r = 0; r < 4; r++) {
        char *text = NULL;
        assert_true(asprintf(&text,
                             "[{\"t\": 0, \"f\": \"C.m\", \"c\": 0, "
                             "\"v\": 0, \"what\": \"as the test called it\", "
                             "\"out\": {\"value\": 0, \"args\": [], "
                             "\"in\": %s}}, %s]",
                             stamps[r],
                             r % 2 ? REC(0, 0, 1, HEADERS("t", ", \"Vary\""))
                                   : REC(0, 0, 1, HEADERS("t", ""))) > 0);
        in[r] = parse(text);
        free(text);
    }
    first = lt__rp_compare(in[0], in[1]);
    assert_string_equal(json_string_value(json_object_get(first, "status")),
                        "differs");
    got = lt__rp_confirm(first, in[0], in[1], in[2], in[3], tests, 1);
    assert_string_equal(json_string_value(json_object_get(got, "status")),
                        "witness");
    json_decref(got);
    /* An input that differs the same way in both rounds (a caller the
     * candidate changed) is another input: no witness. */
    got = lt__rp_confirm(first, in[0], in[1], in[0], in[1], tests, 1);
    assert_string_equal(json_string_value(json_object_get(got, "status")),
                        "same");
    json_decref(got);
    json_decref(first);
    for (int r = 0; r < 4; r++)
        json_decref(in[r]);
#undef HEADERS
    json_decref(ref);
    json_decref(cand);
    json_decref(ref1);
    json_decref(cand1);
    json_decref(same1);
}

/* More keys differ than the second round takes: those whose outcomes
 * differ in shape (a list one item longer) go first, before those that
 * differ only in a text (a timestamp). */
static void test_a_difference_in_shape_goes_to_the_second_round_first(
    void **state)
{
    (void)state;
    json_t *side[2];
    for (int s = 0; s < 2; s++) {
        json_t *recs = parse("[" GIVEN(0, 0, "[1]") "]");
        for (int v = 1; v <= 100; v++) {
            char *text = NULL;
            assert_true(
                asprintf(&text,
                         "{\"t\": 0, \"f\": \"C.m\", \"c\": 0, \"v\": %d, "
                         "\"what\": \"argument 1 = %d\", \"out\": "
                         "{\"value\": %s, \"args\": []}}",
                         v, v,
                         v < 100 ? (s ? "\"stamp b\"" : "\"stamp a\"")
                                 : (s ? "[1, 2]" : "[1]")) > 0);
            json_array_append_new(recs, parse(text));
            free(text);
        }
        side[s] = recs;
    }
    json_t *got = lt__rp_compare(side[0], side[1]);
    const json_t *differing = json_object_get(got, "differing");
    assert_int_equal(json_array_size(differing), DIFFERING_MAX_SEEN);
    assert_string_equal(json_string_value(json_array_get(differing, 0)),
                        "0|C.m|0|100");
    json_decref(got);
    json_decref(side[0]);
    json_decref(side[1]);
}

/* A variant that prints other output counts where the test's own input
 * printed the same on both sides (output the tests pin) and the first
 * difference falls on a line that input printed too, and not where that
 * input's output already differs or the difference is in a line only
 * the variant prints (a fix's own wording); the witness shows where the
 * output first differs. */
static void test_printed_output_the_tests_pin_is_compared_on_variants(
    void **state)
{
    (void)state;
    static const char *const cases[][5] = {
        /* test's call (ref, cand), variant (ref, cand), status */
#define OUT(text) "{\"out\": \"" text "\"}"
        {OUT("Name: "), OUT("Name: "), OUT("Name: "), OUT("Name [0]: "),
         "differs"},
        {OUT("Name: "), OUT("name: "), OUT("Name: "), OUT("Name [0]: "),
         "same"},
        {OUT("Name: "), OUT("Name: "), OUT("x"), OUT("x"), "same"},
        /* A line only the variant prints (its own error's wording). */
        {OUT("Name: x\\n"), OUT("Name: x\\n"), OUT("Name: x\\nError: bad\\n"),
         OUT("Name: x\\nError: wrong\\n"), "same"},
#undef OUT
    };
    char *tests[] = {"t::a"};
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        json_t *side[2];
        for (int s = 0; s < 2; s++)
            side[s] = call_and_variant("\"value\": 1", "printed",
                                       cases[i][s], cases[i][2 + s]);
        json_t *got = lt__rp_compare(side[0], side[1]);
        assert_string_equal(json_string_value(json_object_get(got, "status")),
                            cases[i][4]);
        if (i == 0) {
            json_t *w = lt__rp_confirm(got, side[0], side[1], side[0],
                                       side[1], tests, 1);
            assert_string_equal(
                json_string_value(json_object_get(w, "status")), "witness");
            const char *detail =
                json_string_value(json_object_get(w, "detail"));
            assert_non_null(strstr(detail, "what it printed to standard "
                                           "output: reference \"Name: \", "
                                           "patch \"Name [0]: \""));
            json_decref(w);
        }
        json_decref(got);
        json_decref(side[0]);
        json_decref(side[1]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_as_the_tests_compare),
        cmocka_unit_test(test_rounds),
        cmocka_unit_test(test_arguments_after_the_call),
        cmocka_unit_test(test_a_retyped_variant_refused_by_python_agrees),
        cmocka_unit_test(test_a_message_the_tests_pin_is_compared_on_variants),
        cmocka_unit_test(
            test_printed_output_the_tests_pin_is_compared_on_variants),
        cmocka_unit_test(test_a_difference_beside_a_changing_part_is_a_witness),
        cmocka_unit_test(
            test_a_difference_in_shape_goes_to_the_second_round_first),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
