/* Unit tests of the differential layer's evidence and rules in
 * `litmus patches` (engine/jobs/patches/patches_eval.c): the records a
 * differential child sends are hostile input, validated or refused
 * (lt__pe_diff); a slower patch is a note or, with
 * --slower-is-overfitting, a verdict; a difference outside the tests'
 * contract, or equal to the reference's result in all but its type, is
 * a note, never a witness; the mutation gap decides only
 * where differential testing is thin (lt__pe_decide).
 * SPDX-License-Identifier: MIT */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/engine.h"
#include "engine/jobs/patches/patches_internal.h"
#include "patch_verdicts.h"

#define SHA_A "3e927b0c5d1f44a6b8e2a9f0c1d2e3f40123456789abcdef0123456789abcdef"

#define SUMMARY                                                              \
    "{\"type\": \"summary\", \"compared\": 40, \"skipped\": 2, "             \
    "\"outside_contract\": 3, \"by_origin\": {\"test\": 5, \"derived\": "    \
    "20, \"generated\": 15, \"bogus\": 9}, \"cpu_s\": 1.5, "                 \
    "\"given_cpu_s\": 0.2, \"budget_s\": 10, \"contracts\": {\"f\": "        \
    "[\"argument 1 >= 0\"]}, \"generator\": \"hypothesis 6.67.1\"}"

#define WITNESS                                                              \
    "{\"type\": \"witness\", \"origin\": \"objects\", \"function\": \"f\", " \
    "\"input\": null, \"input_repr\": \"(#1, #2) where ...\", "              \
    "\"reference\": {\"value\": false, \"repr\": \"False\", \"type\": "      \
    "\"bool\"}, \"candidate\": {\"value\": true, \"repr\": \"True\", "       \
    "\"type\": \"bool\"}, \"shrunk\": true, \"contract\": [\"the objects "   \
    "form no cycle\", 7]}"

/* The evidence of a differential child that ended cleanly after sending
 * the records given (NULL-terminated).  Caller frees. */
static json_t *diff_of(const char *const *records)
{
    struct lt_run_report j;
    memset(&j, 0, sizeof(j));
    size_t n = 0;
    while (records[n])
        n++;
    j.records = calloc(n + 1, sizeof(char *));
    for (size_t i = 0; i < n; i++)
        j.records[i] = strdup(records[i]);
    j.n_records = n;
    j.sandboxed = 1;
    j.ended = 1;
    j.probe_index = -1;
    json_t *ev = lt__pe_diff(&j, 0);
    for (size_t i = 0; i < n; i++)
        free(j.records[i]);
    free(j.records);
    return ev;
}

static void expect_status(const json_t *ev, const char *status)
{
    const char *s = json_string_value(json_object_get(ev, "status"));
    if (!s || strcmp(s, status) != 0) {
        char *dump = json_dumps(ev, 0);
        fail_msg("status %s, expected %s: %s", s ? s : "(none)", status,
                 dump);
    }
}

static void test_witness_kept_with_its_contract(void **state)
{
    (void)state;
    const char *recs[] = {WITNESS, SUMMARY, NULL};
    json_t *ev = diff_of(recs);
    expect_status(ev, "witness");
    const json_t *w = json_object_get(ev, "witness");
    /* The contract's strings are kept, anything else in it dropped. */
    assert_int_equal(json_array_size(json_object_get(w, "contract")), 1);
    assert_true(json_is_true(json_object_get(w, "shrunk")));
    assert_non_null(strstr(json_string_value(json_object_get(w, "text")),
                           "(objects input): reference False (bool), patch "
                           "True (bool)"));
    /* Per-origin counts: only the known origins. */
    const json_t *by = json_object_get(ev, "by_origin");
    assert_int_equal(json_integer_value(json_object_get(by, "generated")), 15);
    assert_null(json_object_get(by, "bogus"));
    assert_int_equal(json_integer_value(json_object_get(ev,
                                                        "outside_contract")),
                     3);
    json_decref(ev);
}

/* A child killed by SIGSEGV while the patch ran on probe phase: a witness
 * on an input of the tests' (1), not on one litmus derived (3, a limit of
 * the child's) nor on a larger one (2). */
static void test_crash_is_a_witness_on_given_inputs_only(void **state)
{
    (void)state;
    static const struct {
        int phase;
        const char *status;
    } cases[] = {{1, "witness"}, {3, "inconclusive"}, {2, "inconclusive"}};
    for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
        struct lt_run_report j;
        memset(&j, 0, sizeof(j));
        j.sandboxed = 1;
        j.wait_status = SIGSEGV; /* WIFSIGNALED, WTERMSIG == SIGSEGV */
        j.probe_index = 7;
        j.probe_phase = cases[i].phase;
        json_t *ev = lt__pe_diff(&j, 0);
        expect_status(ev, cases[i].status);
        assert_non_null(strstr(json_string_value(json_object_get(ev,
                                                                 "detail")),
                               "#7"));
        json_decref(ev);
    }
}

static void test_hostile_records_refused(void **state)
{
    (void)state;
    static const char *const bad[] = {
        /* An origin litmus never sends. */
        "{\"type\": \"witness\", \"origin\": \"made_up\", \"function\": "
        "\"f\", \"input_repr\": \"x\", \"reference\": {\"timeout\": true}, "
        "\"candidate\": {\"timeout\": true}}",
        /* A slower record with a negative ratio. */
        "{\"type\": \"slower\", \"ratio\": -3, \"input_repr\": \"(1,)\", "
        "\"reference_ms\": 1, \"candidate_ms\": 9}",
        /* ... or without its times. */
        "{\"type\": \"slower\", \"ratio\": 30, \"input_repr\": \"(1,)\"}",
        /* An outside-the-contract difference without outcomes. */
        "{\"type\": \"outside_contract\", \"input_repr\": \"(1,)\"}",
        /* Not JSON, and an integer beyond 64 bits (jansson refuses it). */
        "{\"type\": \"summary\", \"compared\": ",
        "{\"type\": \"summary\", \"compared\": 354224848179261915075}",
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
        const char *recs[] = {bad[i], SUMMARY, NULL};
        json_t *ev = diff_of(recs);
        expect_status(ev, "error");
        json_decref(ev);
    }
}

static void test_slower_and_outside_kept(void **state)
{
    (void)state;
    const char *recs[] = {
        "{\"type\": \"slower\", \"ratio\": 250.5, \"input_repr\": \"(99,)\", "
        "\"reference_ms\": 0.1, \"candidate_ms\": 25.05, \"finished\": "
        "false}",
        "{\"type\": \"outside_contract\", \"function\": \"f\", "
        "\"input_repr\": \"([1, 1],)\", \"reference\": {\"value\": 1, "
        "\"repr\": \"1\", \"type\": \"int\"}, \"candidate\": {\"value\": 2, "
        "\"repr\": \"2\", \"type\": \"int\"}, \"contract\": [\"argument 1 "
        "has distinct elements\"]}",
        SUMMARY, NULL};
    json_t *ev = diff_of(recs);
    expect_status(ev, "same");
    const json_t *slow = json_object_get(ev, "slower");
    assert_non_null(slow);
    assert_true(json_is_false(json_object_get(slow, "finished")));
    const json_t *out = json_object_get(ev, "outside_contract_difference");
    assert_non_null(strstr(json_string_value(json_object_get(out, "text")),
                           "f on ([1, 1],): reference 1 (int), patch 2 "
                           "(int)"));
    json_decref(ev);
}

#define TYPE_DIFFERENCE                                                      \
    "{\"type\": \"type_difference\", \"origin\": \"derived\", "           \
    "\"function\": \"mean\", \"input_repr\": \"([3],)\", "                \
    "\"difference\": \"int 3 vs float 3.0\", \"in_arguments\": false, "     \
    "\"reference\": {\"value\": 3, \"repr\": \"3\", \"type\": "          \
    "\"int\"}, \"candidate\": {\"value\": 3.0, \"repr\": \"3.0\", "       \
    "\"type\": \"float\"}}"

/* A result equal to the reference's under == but of another type is
 * kept as its own record (never a witness); a malformed one is refused,
 * and a witness leaves it out. */
static void test_type_difference_kept(void **state)
{
    (void)state;
    const char *recs[] = {TYPE_DIFFERENCE, SUMMARY, NULL};
    json_t *ev = diff_of(recs);
    expect_status(ev, "same");
    const json_t *td = json_object_get(ev, "type_difference");
    assert_non_null(td);
    assert_string_equal(json_string_value(json_object_get(td, "text")),
                        "int 3 vs float 3.0: mean on ([3],) (derived input)");
    json_decref(ev);
    const char *with_witness[] = {WITNESS, TYPE_DIFFERENCE, SUMMARY, NULL};
    ev = diff_of(with_witness);
    expect_status(ev, "witness");
    assert_null(json_object_get(ev, "type_difference"));
    json_decref(ev);
    static const char *const bad[] = {
        /* No difference named. */
        "{\"type\": \"type_difference\", \"origin\": \"derived\", "
        "\"input_repr\": \"(1,)\", \"reference\": {\"timeout\": true}, "
        "\"candidate\": {\"timeout\": true}}",
        /* An origin litmus never sends. */
        "{\"type\": \"type_difference\", \"origin\": \"elsewhere\", "
        "\"difference\": \"int 1 vs bool True\", \"input_repr\": "
        "\"(1,)\", \"reference\": {\"timeout\": true}, \"candidate\": "
        "{\"timeout\": true}}",
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
        const char *r[] = {bad[i], SUMMARY, NULL};
        ev = diff_of(r);
        expect_status(ev, "error");
        json_decref(ev);
    }
}

/*** Verdicts ***/

static void decide(json_t *diff, json_t *mut, json_t *ref_mut,
                   double slower_factor, struct pverdict *out)
{
    struct lt_patches_opts o;
    lt_patches_opts_init(&o);
    o.slower_factor = slower_factor;
    struct unit u;
    memset(&u, 0, sizeof(u));
    struct ptext t, ref;
    memset(&t, 0, sizeof(t));
    memset(&ref, 0, sizeof(ref));
    strcpy(t.sha, SHA_A);
    strcpy(ref.sha, SHA_A);
    t.l1 = json_pack("{s:s, s:i, s:i}", "status", "pass", "tests_passed", 3,
                     "tests_total", 3);
    t.diff = diff;
    t.mut = mut;
    ref.mut = ref_mut;
    lt__pe_decide(&o, &u, &t, &ref, out);
    json_decref(t.l1);
    json_decref(t.diff);
    json_decref(t.mut);
    json_decref(ref.mut);
}

static json_t *same_with(json_t *extra)
{
    json_t *d = json_pack("{s:s, s:i, s:{s:i, s:i}}", "status", "same",
                          "compared", 45, "by_origin", "test", 5, "derived",
                          40);
    if (extra)
        json_object_update(d, extra);
    json_decref(extra);
    return d;
}

static void test_slower_is_a_note_or_a_verdict(void **state)
{
    (void)state;
    struct pverdict v;
    json_t *slow = json_pack("{s:{s:f, s:f, s:f, s:s, s:b}}", "slower",
                             "ratio", 40.0, "reference_ms", 1.0,
                             "candidate_ms", 40.0, "input_repr", "(30,)",
                             "finished", 1);
    decide(same_with(json_incref(slow)), NULL, NULL, 0, &v);
    expect_verdict(&v, "correct", "passes",
                   "slower: the patch takes 40x the reference's CPU time on "
                   "(30,)");
    clear(&v);
    /* At the factor the user names, or above: overfitting. */
    decide(same_with(json_incref(slow)), NULL, NULL, 40, &v);
    expect_verdict(&v, "overfitting", "slower", "--slower-is-overfitting 40");
    clear(&v);
    /* Below it: still a note. */
    decide(same_with(json_incref(slow)), NULL, NULL, 41, &v);
    expect_verdict(&v, "correct", "passes", "slower:");
    clear(&v);
    json_decref(slow);
}

static void test_outside_contract_is_a_note(void **state)
{
    (void)state;
    struct pverdict v;
    decide(same_with(json_pack(
               "{s:{s:s, s:[s]}}", "outside_contract_difference", "text",
               "f on ([1, 1],): reference 1 (int), patch 2 (int)", "contract",
               "argument 1 has distinct elements")),
           NULL, NULL, 0, &v);
    expect_verdict(&v, "correct", "passes",
                   "differs from the reference only outside the contract the "
                   "tests show (argument 1 has distinct elements)");
    clear(&v);
}

static void test_type_difference_is_a_note(void **state)
{
    (void)state;
    struct pverdict v;
    decide(same_with(json_pack("{s:{s:s}}", "type_difference", "text",
                               "int 3 vs float 3.0: mean on ([3],) (derived "
                               "input)")),
           NULL, NULL, 0, &v);
    expect_verdict(&v, "correct", "passes",
                   "differs from the reference only in type: int 3 vs float "
                   "3.0: mean on ([3],)");
    clear(&v);
}

static void test_mutation_gap_needs_thin_differential(void **state)
{
    (void)state;
    struct pverdict v;
    json_t *ref = json_pack("{s:s, s:f}", "status", "done", "score", 0.9);
    /* 40 derived inputs agree: the gap is a note. */
    decide(same_with(NULL), json_pack("{s:s, s:f}", "status", "done",
                                      "score", 0.4),
           json_incref(ref), 0, &v);
    expect_verdict(&v, "correct", "passes",
                   "the suite checks this patch less well");
    clear(&v);
    /* Only the tests' own inputs compared: the gap decides. */
    decide(json_pack("{s:s, s:i, s:{s:i}}", "status", "same", "compared", 5,
                     "by_origin", "test", 5),
           json_pack("{s:s, s:f}", "status", "done", "score", 0.4),
           json_incref(ref), 0, &v);
    expect_verdict(&v, "overfitting", "weak_where_reference_is_not", NULL);
    clear(&v);
    json_decref(ref);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_witness_kept_with_its_contract),
        cmocka_unit_test(test_crash_is_a_witness_on_given_inputs_only),
        cmocka_unit_test(test_hostile_records_refused),
        cmocka_unit_test(test_slower_and_outside_kept),
        cmocka_unit_test(test_slower_is_a_note_or_a_verdict),
        cmocka_unit_test(test_outside_contract_is_a_note),
        cmocka_unit_test(test_type_difference_kept),
        cmocka_unit_test(test_type_difference_is_a_note),
        cmocka_unit_test(test_mutation_gap_needs_thin_differential),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
