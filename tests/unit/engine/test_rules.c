/* Unit tests of rules that used to be reachable only through a
 * sandboxed pytest run: test selection (lt__select_tests), markdown
 * fence stripping of patch texts (lt__strip_fence), --shard values, and
 * the time budget's order and estimate (lt__budget_order,
 * lt__budget_fit).
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
#include "engine/core/budget.h"
#include "engine/core/select.h"

/*** Selection ***/

/* A file of 6 lines and 5 tests: line l is executed by the tests in
 * cov[l] (terminated by UINT32_MAX). */
static const uint32_t cov[7][6] = {
    [1] = {0, 1, UINT32_MAX},
    [2] = {2, UINT32_MAX},
    [3] = {1, 3, UINT32_MAX},
    [4] = {UINT32_MAX},
    [5] = {4, 0, UINT32_MAX},
    [6] = {3, UINT32_MAX},
};

static size_t fake_cover(const void *ctx, long line, const uint32_t **tests)
{
    (void)ctx;
    if (line < 1 || line > 6)
        return 0;
    size_t n = 0;
    while (cov[line][n] != UINT32_MAX)
        n++;
    *tests = cov[line];
    return n;
}

/* Work per test: test 3 is cheapest, 1 and 4 tie. */
static const double work[5] = {50, 20, 90, 5, 20};
static const unsigned char all_runnable[5] = {1, 1, 1, 1, 1};

static void expect_sel(long line, long end, int structural,
                       const unsigned char *runnable, const uint32_t *want,
                       size_t n_want)
{
    struct lt__selection s = {5, runnable, work, fake_cover, NULL, NULL};
    uint32_t *got = NULL;
    size_t n = lt__select_tests(&s, line, end, structural, &got);
    assert_non_null(got);
    char gs[128] = "", ws[128] = "";
    for (size_t i = 0; i < n; i++)
        snprintf(gs + strlen(gs), sizeof(gs) - strlen(gs), " %u", got[i]);
    for (size_t i = 0; i < n_want; i++)
        snprintf(ws + strlen(ws), sizeof(ws) - strlen(ws), " %u", want[i]);
    if (n != n_want ||
        (n && want && memcmp(got, want, n * sizeof(*got)) != 0))
        fail_msg("lines %ld-%ld%s: selected [%s ], expected [%s ]", line,
                 end, structural ? " structural" : "", gs, ws);
    free(got);
}

static void test_select_one_line(void **state)
{
    (void)state;
    expect_sel(1, 1, 0, all_runnable, (const uint32_t[]){1, 0}, 2);
    expect_sel(2, 2, 0, all_runnable, (const uint32_t[]){2}, 1);
}

static void test_select_span_dedupes_and_orders(void **state)
{
    (void)state;
    /* Lines 1-3: tests 0, 1, 2, 3 (1 covers two lines, counted once). */
    expect_sel(1, 3, 0, all_runnable, (const uint32_t[]){3, 1, 0, 2}, 4);
    /* Lines 3-5: 1 and 4 tie on work: collection order. */
    expect_sel(3, 5, 0, all_runnable, (const uint32_t[]){3, 1, 4, 0}, 4);
}

static void test_select_uncovered(void **state)
{
    (void)state;
    expect_sel(4, 4, 0, all_runnable, NULL, 0);
    /* Lines outside the file select nothing, and do not crash. */
    expect_sel(-3, 0, 0, all_runnable, NULL, 0);
    expect_sel(7, 40, 0, all_runnable, NULL, 0);
}

static void test_select_skips_unrunnable(void **state)
{
    (void)state;
    /* A test that failed or was flaky in the baseline never runs. */
    static const unsigned char runnable[5] = {1, 0, 1, 1, 0};
    expect_sel(1, 3, 0, runnable, (const uint32_t[]){3, 0, 2}, 3);
    expect_sel(5, 5, 0, runnable, (const uint32_t[]){0}, 1);
}

static void test_select_structural(void **state)
{
    (void)state;
    /* Module or class-body code: every runnable test, whatever the
     * lines say. */
    expect_sel(4, 4, 1, all_runnable, (const uint32_t[]){3, 1, 4, 0, 2}, 5);
    static const unsigned char runnable[5] = {0, 1, 1, 0, 1};
    expect_sel(1, 1, 1, runnable, (const uint32_t[]){1, 4, 2}, 3);
}

/*** Fences ***/

static void expect_fence(const char *in, const char *want)
{
    size_t n = 0;
    char *got = lt__strip_fence(in, strlen(in), &n);
    assert_non_null(got);
    if (n != strlen(want) || strcmp(got, want) != 0)
        fail_msg("strip_fence(\"%s\") = \"%s\" (%zu bytes), expected \"%s\"",
                 in, got, n, want);
    free(got);
}

static void test_fence_none(void **state)
{
    (void)state;
    expect_fence("def f():\n    return 1\n", "def f():\n    return 1\n");
    expect_fence("", "");
    /* Inline code on one line is not a fence. */
    expect_fence("```x = 1```\n", "```x = 1```\n");
    /* Two backticks are not a fence. */
    expect_fence("``\nx = 1\n``\n", "``\nx = 1\n``\n");
}

static void test_fence_plain(void **state)
{
    (void)state;
    expect_fence("```python\nx = 1\n```\n", "x = 1\n");
    expect_fence("```\nx = 1\n```", "x = 1\n");
    expect_fence("\n\n  ```py3\nx = 1\n```\n", "x = 1\n");
    /* The first non-blank line is a fence: any info string opens. */
    expect_fence("```text\nx = 1\n```\n", "x = 1\n");
}

static void test_fence_prose_and_other_languages(void **state)
{
    (void)state;
    expect_fence("Here is the fix:\n```python\nx = 2\n```\nIt works.\n",
                 "x = 2\n");
    /* After prose, a block in another language is skipped whole. */
    expect_fence("Run:\n```bash\npytest\n```\nThen:\n```\ny = 3\n```\n",
                 "y = 3\n");
    /* A fence naming another language only, after prose: no Python
     * block, the text stays as it is. */
    expect_fence("Run:\n```bash\npytest\n```\n",
                 "Run:\n```bash\npytest\n```\n");
}

static void test_fence_closing_rules(void **state)
{
    (void)state;
    /* Never closed: to the end. */
    expect_fence("```python\nx = 1\ny = 2\n", "x = 1\ny = 2\n");
    /* ``` inside a longer fence does not close it. */
    expect_fence("````python\ns = '''\n```\n'''\n````\n",
                 "s = '''\n```\n'''\n");
    /* A backtick line with an info string does not close. */
    expect_fence("```python\nx = 1\n```py\ny = 2\n```\n",
                 "x = 1\n```py\ny = 2\n");
    /* Only the first block is the patch. */
    expect_fence("```python\na = 1\n```\n```python\nb = 2\n```\n",
                 "a = 1\n");
}

/*** --shard values ***/

static void test_shard_parse(void **state)
{
    (void)state;
    unsigned i = 99, n = 99;
    const char *why = NULL;
    assert_int_equal(lt_shard_parse("0/1", &i, &n, &why), 0);
    assert_int_equal(i, 0);
    assert_int_equal(n, 1);
    assert_int_equal(lt_shard_parse("2/3", &i, &n, &why), 0);
    assert_int_equal(i, 2);
    assert_int_equal(n, 3);
    assert_int_equal(lt_shard_parse("99999/100000", &i, &n, &why), 0);
    assert_int_equal(i, 99999);
    /* Out of range: I counts from 0 and stays below N. */
    static const char *const range[] = {"3/3", "4/3"};
    for (size_t k = 0; k < 2; k++) {
        i = n = 77;
        assert_int_equal(lt_shard_parse(range[k], &i, &n, &why), -1);
        assert_non_null(strstr(why, "below N"));
        assert_int_equal(i, 77); /* untouched on failure */
    }
    static const char *const count[] = {"0/0", "0/100001"};
    for (size_t k = 0; k < 2; k++) {
        assert_int_equal(lt_shard_parse(count[k], &i, &n, &why), -1);
        assert_non_null(strstr(why, "N must be"));
    }
    static const char *const shape[] = {"", "1", "1/", "/3", "-1/3", "1/-3",
                                        "1-3", "a/3", "1/3x", " 1/3",
                                        "1/ 3", "1/3/4"};
    for (size_t k = 0; k < sizeof(shape) / sizeof(*shape); k++) {
        why = NULL;
        assert_int_equal(lt_shard_parse(shape[k], &i, &n, &why), -1);
        assert_non_null(strstr(why, "expected I/N"));
    }
    assert_int_equal(lt_shard_parse(NULL, &i, &n, &why), -1);
}

/*** The time budget's order and estimate (engine/core/budget.c) ***/

static void expect_order(const struct lt__budget_item *items, size_t n,
                         const size_t *want)
{
    size_t got[16];
    char gs[128] = "", ws[128] = "";
    lt__budget_order(items, n, got);
    for (size_t i = 0; i < n; i++) {
        snprintf(gs + strlen(gs), sizeof(gs) - strlen(gs), " %zu", got[i]);
        snprintf(ws + strlen(ws), sizeof(ws) - strlen(ws), " %zu", want[i]);
    }
    if (strcmp(gs, ws) != 0)
        fail_msg("order:%s; expected:%s", gs, ws);
}

/* Every line's cheapest mutant before any line's second; within a round
 * the cheapest first, ties in plan order. */
static void test_budget_order_rounds(void **state)
{
    (void)state;
    static const struct lt__budget_item items[] = {
        {5.0, 10}, /* 0: line 10, dearest of its line */
        {1.0, 10}, /* 1: line 10, cheapest */
        {2.0, 20}, /* 2: line 20, its only one */
        {0.5, 30}, /* 3: line 30, cheapest of all */
        {0.5, 30}, /* 4: line 30, the same cost: after 3 */
        {9.0, 40}, /* 5: line 40, the only one, dear */
        {1.0, 10}, /* 6: line 10, ties with 1: after it */
    };
    /* Round 0: 3 (0.5), 1 (1), 2 (2), 5 (9); round 1: 4 (0.5), 6 (1);
     * round 2: 0 (5). */
    static const size_t want[] = {3, 1, 2, 5, 4, 6, 0};
    expect_order(items, 7, want);
}

/* One group: the order is simply the cheapest first; one task per
 * group: the same; nothing to order: nothing written. */
static void test_budget_order_degenerate(void **state)
{
    (void)state;
    static const struct lt__budget_item one_group[] = {
        {3, 7}, {1, 7}, {2, 7}, {1, 7}};
    static const size_t want1[] = {1, 3, 2, 0};
    expect_order(one_group, 4, want1);
    static const struct lt__budget_item own_groups[] = {
        {3, 1}, {1, 2}, {2, 3}, {0, 4}};
    static const size_t want2[] = {3, 1, 2, 0};
    expect_order(own_groups, 4, want2);
    size_t untouched = 42;
    lt__budget_order(NULL, 0, &untouched);
    assert_int_equal(untouched, 42);
}

/* List scheduling: each child takes the next task when it is free. */
static void test_budget_fit(void **state)
{
    (void)state;
    static const double cost[] = {1, 1, 1, 1, 2, 2};
    double all = -1;
    /* One child: ends at 1, 2, 3, 4, 6, 8. */
    assert_int_equal(lt__budget_fit(cost, 6, 1, 4.0, &all), 4);
    assert_true(all == 8.0);
    assert_int_equal(lt__budget_fit(cost, 6, 1, 5.9, NULL), 4);
    assert_int_equal(lt__budget_fit(cost, 6, 1, 100, NULL), 6);
    assert_int_equal(lt__budget_fit(cost, 6, 1, 0.5, NULL), 0);
    /* Two children: 1,1 | 2,2 | then 2 and 2 end at 4 each. */
    assert_int_equal(lt__budget_fit(cost, 6, 2, 2.0, &all), 4);
    assert_true(all == 4.0);
    assert_int_equal(lt__budget_fit(cost, 6, 2, 4.0, NULL), 6);
    /* More children than tasks, and no child at all (taken as one). */
    assert_int_equal(lt__budget_fit(cost, 6, 64, 2.0, &all), 6);
    assert_true(all == 2.0);
    assert_int_equal(lt__budget_fit(cost, 6, 0, 4.0, NULL), 4);
    all = -1;
    assert_int_equal(lt__budget_fit(NULL, 0, 2, 1.0, &all), 0);
    assert_true(all == 0.0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_select_one_line),
        cmocka_unit_test(test_select_span_dedupes_and_orders),
        cmocka_unit_test(test_select_uncovered),
        cmocka_unit_test(test_select_skips_unrunnable),
        cmocka_unit_test(test_select_structural),
        cmocka_unit_test(test_fence_none),
        cmocka_unit_test(test_fence_plain),
        cmocka_unit_test(test_fence_prose_and_other_languages),
        cmocka_unit_test(test_fence_closing_rules),
        cmocka_unit_test(test_shard_parse),
        cmocka_unit_test(test_budget_order_rounds),
        cmocka_unit_test(test_budget_order_degenerate),
        cmocka_unit_test(test_budget_fit),
    };
    return cmocka_run_group_tests_name("engine_rules", tests, NULL, NULL);
}
