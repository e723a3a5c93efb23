/* Unit tests of mutant sampling under `litmus patches --mutation-budget`
 * (engine/jobs/patches/patches_sample.c): the grid of sample sizes, the
 * seeded order, the first sample and its extension, the Wilson interval
 * and the score of a sample; and the verdict rule that a sampled score
 * blames a patch only with 95% confidence (patches_eval.c).
 * SPDX-License-Identifier: MIT */
#include <setjmp.h>
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
#define SHA_B "a993ca7e1b2c3d4e5f60718293a4b5c6d7e8f90123456789abcdef0123456789"

static void expect_near(double got, double want, const char *what)
{
    if (!(got > want - 1e-3 && got < want + 1e-3))
        fail_msg("%s = %.6f, expected %.6f", what, got, want);
}

/*** Sizes ***/

static void test_grid(void **state)
{
    (void)state;
    static const struct {
        double x;
        size_t want;
    } cases[] = {{0, 0},   {0.99, 0}, {1, 1},    {2.9, 2},  {3, 3},
                 {5.9, 4}, {6, 6},    {7.99, 6}, {8, 8},    {11.9, 8},
                 {12, 12}, {16, 16},  {23, 16},  {24, 24},  {100, 96},
                 {-4, 0}};
    for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
        size_t got = lt__ps_grid_floor(cases[i].x);
        if (got != cases[i].want)
            fail_msg("grid_floor(%g) = %zu, expected %zu", cases[i].x, got,
                     cases[i].want);
    }
}

static void test_shuffle(void **state)
{
    (void)state;
    enum { N = 40 };
    size_t a[N], b[N], c[N];
    for (size_t i = 0; i < N; i++)
        a[i] = b[i] = c[i] = i;
    lt__ps_shuffle(SHA_A, a, N);
    lt__ps_shuffle(SHA_A, b, N);
    lt__ps_shuffle(SHA_B, c, N);
    /* The same text, the same order; a permutation; another text,
     * another order. */
    assert_memory_equal(a, b, sizeof(a));
    unsigned char seen[N] = {0};
    size_t moved = 0, same_as_c = 0;
    for (size_t i = 0; i < N; i++) {
        assert_true(a[i] < N);
        assert_false(seen[a[i]]);
        seen[a[i]] = 1;
        moved += a[i] != i;
        same_as_c += a[i] == c[i];
    }
    assert_true(moved > N / 2);
    assert_true(same_as_c < N / 2);
    /* Small inputs and no digest do not crash. */
    lt__ps_shuffle("", a, 1);
    lt__ps_shuffle(NULL, a, 0);
}

static void test_first(void **state)
{
    (void)state;
    double cost[20];
    for (size_t i = 0; i < 20; i++)
        cost[i] = 1.0;
    /* 5 fit: the grid says 4. */
    assert_int_equal(lt__ps_first(cost, 20, 5.5), 4);
    assert_int_equal(lt__ps_first(cost, 20, 13), 12);
    /* All fit: all. */
    assert_int_equal(lt__ps_first(cost, 20, 20), 20);
    /* Nothing fits: the least sample still runs. */
    assert_int_equal(lt__ps_first(cost, 20, 0.5), LT_PS_MIN_SAMPLE);
    assert_int_equal(lt__ps_first(cost, 3, 0.5), 3);
    /* A member sharing an earlier member's run costs nothing. */
    for (size_t i = 0; i < 20; i += 2)
        cost[i] = 0;
    assert_int_equal(lt__ps_first(cost, 20, 6.5), 12);
}

static void test_extend(void **state)
{
    (void)state;
    /* 4 members estimated at 10 s each cost 0.1 s each: one more member
     * at the estimate makes (0.4 + 10) / 5 = 2.08 s a member, and the
     * 29.6 s left buy 14 more: 18, which the grid makes 16. */
    assert_int_equal(lt__ps_extend(4, 40, 0.4, 40, 30), 16);
    /* More than every member: all of them. */
    assert_int_equal(lt__ps_extend(4, 10, 0.4, 40, 30), 10);
    /* Nothing left: no more. */
    assert_int_equal(lt__ps_extend(4, 40, 31, 40, 30), 4);
    /* Never below the first sample. */
    assert_int_equal(lt__ps_extend(12, 40, 29, 120, 30), 12);
    assert_int_equal(lt__ps_extend(40, 40, 1, 40, 30), 40);
}

/*** Scores ***/

static void test_wilson(void **state)
{
    (void)state;
    double lo, hi;
    lt__ps_wilson(15, 16, &lo, &hi);
    expect_near(lo, 0.7167, "wilson(15/16) low");
    expect_near(hi, 0.9889, "wilson(15/16) high");
    lt__ps_wilson(0, 10, &lo, &hi);
    expect_near(lo, 0, "wilson(0/10) low");
    expect_near(hi, 0.2775, "wilson(0/10) high");
    lt__ps_wilson(10, 10, &lo, &hi);
    expect_near(lo, 0.7225, "wilson(10/10) low");
    expect_near(hi, 1, "wilson(10/10) high");
    lt__ps_wilson(0, 0, &lo, &hi);
    expect_near(lo, 0, "wilson(0/0) low");
    expect_near(hi, 1, "wilson(0/0) high");
}

static void test_score(void **state)
{
    (void)state;
    double lo, hi;
    /* 8 of 10 sampled detected, out of 40 runnable; 10 more mutants no
     * test covers: 0.8 x 40 / (40 + 10). */
    double s = lt__ps_score(8, 10, 10, 40, 0, 10, &lo, &hi);
    expect_near(s, 0.64, "score");
    double wlo, whi;
    lt__ps_wilson(8, 10, &wlo, &whi);
    expect_near(lo, wlo * 40 / 50, "score low");
    expect_near(hi, whi * 40 / 50, "score high");
    assert_true(lo < s && s < hi);
    /* Without uncovered mutants it is the sample's own proportion. */
    s = lt__ps_score(15, 16, 16, 31, 0, 0, &lo, &hi);
    expect_near(s, 15.0 / 16, "score of 15/16");
    expect_near(lo, 0.7167, "its low bound");
    /* A sampled run whose mutants all erred counts only the others. */
    s = lt__ps_score(0, 0, 4, 40, 0, 5, &lo, &hi);
    expect_near(s, 0, "score without valid sampled mutants");
    /* Nothing valid: undefined. */
    s = lt__ps_score(0, 0, 4, 40, 0, 0, &lo, &hi);
    expect_near(s, -1, "undefined score");
}

/*** The verdict rule ***/

static json_t *sampled(double score, double lo, double hi)
{
    return json_pack("{s:s, s:f, s:b, s:f, s:f, s:i, s:i}", "status", "done",
                     "score", score, "sampled", 1, "score_low", lo,
                     "score_high", hi, "mutants_run", 12, "mutants_total",
                     40);
}

static void decide(json_t *mut, json_t *ref_mut, int with_ref,
                   struct pverdict *out)
{
    struct lt_patches_opts o;
    lt_patches_opts_init(&o);
    struct unit u;
    memset(&u, 0, sizeof(u));
    struct ptext t, ref;
    memset(&t, 0, sizeof(t));
    memset(&ref, 0, sizeof(ref));
    strcpy(t.sha, SHA_A);
    strcpy(ref.sha, SHA_B);
    t.l1 = json_pack("{s:s, s:i, s:i}", "status", "pass", "tests_passed", 3,
                     "tests_total", 3);
    if (with_ref)
        t.diff = json_pack("{s:s, s:i}", "status", "same", "compared", 5);
    t.mut = mut;
    ref.mut = ref_mut;
    lt__pe_decide(&o, &u, &t, with_ref ? &ref : NULL, out);
    json_decref(t.l1);
    json_decref(t.diff);
    json_decref(t.mut);
    json_decref(ref.mut);
}

static void test_gate_needs_confidence(void **state)
{
    (void)state;
    struct pverdict v;
    json_t *ref = json_pack("{s:s, s:f}", "status", "done", "score", 0.9);
    /* 50% sampled, its interval reaching the threshold (60%): a note, not
     * a verdict. */
    decide(sampled(0.5, 0.3, 0.7), json_incref(ref), 1, &v);
    expect_verdict(&v, "correct", "passes",
                   "mutation score 50.0% (sampled 12 of 40 mutants, 95% "
                   "interval 30.0-70.0%)");
    expect_verdict(&v, "correct", "passes", "95% confidence");
    clear(&v);
    /* Its interval wholly below: the rule fires. */
    decide(sampled(0.4, 0.2, 0.55), json_incref(ref), 1, &v);
    expect_verdict(&v, "overfitting", "weak_where_reference_is_not",
                   "(sampled 12 of 40 mutants, 95% interval 20.0-55.0%)");
    clear(&v);
    /* A sampled reference must be wholly at or above the threshold. */
    decide(sampled(0.4, 0.2, 0.55), sampled(0.7, 0.5, 0.85), 1, &v);
    expect_verdict(&v, "correct", "passes", "95% confidence");
    clear(&v);
    /* Scores of every mutant decide as before. */
    decide(json_pack("{s:s, s:f}", "status", "done", "score", 0.5),
           json_incref(ref), 1, &v);
    expect_verdict(&v, "overfitting", "weak_where_reference_is_not", NULL);
    clear(&v);
    json_decref(ref);
    /* Without a reference: the research's rule, with the same care. */
    decide(sampled(0.5, 0.3, 0.7), NULL, 0, &v);
    expect_verdict(&v, "correct", "passes", "95% confidence");
    clear(&v);
    decide(sampled(0.4, 0.2, 0.55), NULL, 0, &v);
    expect_verdict(&v, "overfitting", "low_mutation_score",
                   "(sampled 12 of 40 mutants, 95% interval 20.0-55.0%)");
    clear(&v);
    /* A sampled score above the threshold is stated in the detail. */
    decide(sampled(0.9, 0.7, 0.97), NULL, 0, &v);
    expect_verdict(&v, "correct", "passes",
                   "mutation score 90.0% (sampled 12 of 40 mutants, 95% "
                   "interval 70.0-97.0%)");
    clear(&v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grid),
        cmocka_unit_test(test_shuffle),
        cmocka_unit_test(test_first),
        cmocka_unit_test(test_extend),
        cmocka_unit_test(test_wilson),
        cmocka_unit_test(test_score),
        cmocka_unit_test(test_gate_needs_confidence),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
