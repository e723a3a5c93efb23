/* Test selection of `litmus score`: which tests a mutant runs and in
 * which order.  Internal to engine/.  SPDX-License-Identifier: MIT */
#ifndef LT_ENGINE_SELECT_H
#define LT_ENGINE_SELECT_H

#include <stddef.h>
#include <stdint.h>

/* The tests that executed one line of the mutant's file in the baseline:
 * their count, the array in *tests (borrowed).  0 for a line no test
 * executed or outside the file. */
typedef size_t (*lt__line_cover_fn)(const void *ctx, long line,
                                    const uint32_t **tests);

/* What selection needs to know about the baseline. */
struct lt__selection {
    size_t n_tests;                /* collected tests */
    const unsigned char *runnable; /* per test: passed every baseline run */
    const double *work;            /* per test: its cost (line events) */
    lt__line_cover_fn cover;       /* coverage of the mutant's file */
    const void *ctx;               /* ... and its argument */
    const unsigned char *only;     /* per test, or NULL: the tests a
                                      structural change may run (those
                                      that can observe it) */
};

/* The tests a mutant on lines [line, end_line] runs: the runnable tests
 * that executed any of those lines (every runnable test when the change
 * is structural: module or class-body code; those of s->only when it is
 * set), cheapest work first, ties
 * in collection order, each once.  Returns the count; *out (never NULL)
 * is the caller's to free. */
size_t lt__select_tests(const struct lt__selection *s, long line,
                        long end_line, int structural, uint32_t **out);

#endif
