/* Unit tests of the progress line's text (lt__progress_format): counts,
 * the job's figures, the elapsed time and the estimate of the time left.
 * SPDX-License-Identifier: MIT */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/core/progress.h"

struct row {
    const char *name;
    size_t done, total;
    const char *details;
    double elapsed;
    const char *want;
};

static const struct row rows[] = {
    {"the first line", 0, 520, "0 killed, 0 survived, 0 other", 0.4,
     "0/520 mutants, 0 killed, 0 survived, 0 other; 0s elapsed, "
     "estimating"},
    {"too few done to estimate", 2, 520, NULL, 50,
     "2/520 mutants; 50s elapsed, estimating"},
    {"minutes left", 120, 520, "80 killed, 30 survived, 10 other", 192,
     "120/520 mutants, 80 killed, 30 survived, 10 other; 3m12s elapsed, "
     "about 11m left"},
    {"seconds left, up to the next 5", 6, 10, NULL, 12,
     "6/10 mutants; 12s elapsed, about 10s left"},
    {"the last seconds", 39, 40, NULL, 12,
     "39/40 mutants; 12s elapsed, under 5s left"},
    {"under a minute", 5, 10, "", 41,
     "5/10 mutants; 41s elapsed, about 45s left"},
    {"hours", 10, 1000, NULL, 100,
     "10/1000 mutants; 1m40s elapsed, about 2h45m left"},
    {"long elapsed", 900, 1000, NULL, 7380,
     "900/1000 mutants; 2h03m elapsed, about 14m left"},
    {"all done: no estimate", 10, 10, "7 killed", 12.5,
     "10/10 mutants, 7 killed; 12s elapsed"},
    {"total not known: no estimate, no fraction", 7, 0, "7 killed", 3,
     "7 mutants, 7 killed; 3s elapsed"},
    {"nothing at all", 0, 0, NULL, 0, "0 mutants; 0s elapsed"},
    {"no time yet", 5, 10, NULL, 0, "5/10 mutants; 0s elapsed, estimating"},
};

static void format_rows(void **state)
{
    (void)state;
    int bad = 0;
    for (size_t i = 0; i < sizeof(rows) / sizeof(*rows); i++) {
        const struct row *r = &rows[i];
        char got[256];
        lt__progress_format(got, sizeof(got), "mutants", r->done, r->total,
                            r->details, r->elapsed);
        if (strcmp(got, r->want) != 0) {
            print_error("%s:\n  got  '%s'\n  want '%s'\n", r->name, got,
                        r->want);
            bad++;
        }
    }
    assert_int_equal(bad, 0);
}

/* A short buffer gets a terminated prefix, never an overrun. */
static void format_truncates(void **state)
{
    (void)state;
    char buf[12];
    memset(buf, 'x', sizeof(buf));
    lt__progress_format(buf, 8, "mutants", 120, 520, "80 killed", 192);
    assert_string_equal(buf, "120/520");
    assert_int_equal(buf[9], 'x');
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(format_rows),
        cmocka_unit_test(format_truncates),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
