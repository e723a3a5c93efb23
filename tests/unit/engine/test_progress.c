/* Unit tests of the progress line's text (lt__progress_format): counts,
 * the job's figures, the elapsed time and the estimate of the time left;
 * and of when lines are written (lt__progress_show): held phases, which
 * write nothing when they are short, and a log never silent longer than
 * the interval across phases.
 * SPDX-License-Identifier: MIT */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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

/*** When lines are written: stderr goes to a file meanwhile ***/

static FILE *captured;
static int saved_stderr = -1;

static void capture_start(void)
{
    fflush(stderr);
    captured = tmpfile();
    assert_non_null(captured);
    saved_stderr = dup(2);
    assert_true(saved_stderr >= 0);
    assert_true(dup2(fileno(captured), 2) == 2);
}

/* Stops capturing; what was written, in buf. */
static void capture_stop(char *buf, size_t n)
{
    fflush(stderr);
    dup2(saved_stderr, 2);
    close(saved_stderr);
    saved_stderr = -1;
    rewind(captured);
    size_t k = fread(buf, 1, n - 1, captured);
    buf[k] = '\0';
    fclose(captured);
    captured = NULL;
}

static void sleep_s(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    while (nanosleep(&ts, &ts) < 0)
        ;
}

#define HOLD_S 1.0 /* the log interval of these tests */

/* In a log (stderr a file), a held phase writes nothing before one
 * interval has passed since the last line any phase wrote, then lines
 * as usual; one over before that writes nothing, even at its end. */
static void held_log(void **state)
{
    (void)state;
    char out[2048];
    capture_start();
    struct lt_progress a, b, c;
    lt__progress_init(&a, -1, "baseline tests");
    assert_int_equal(a.mode, LT_PROGRESS_LOG);
    a.interval = HOLD_S;
    lt__progress_hold(&a, 0);
    lt__progress_show(&a, 0, 1, 10, NULL);          /* held: nothing */
    sleep_s(HOLD_S + 0.1);
    lt__progress_show(&a, 0, 2, 10, NULL);          /* due: a line */
    lt__progress_show(&a, 0, 3, 10, NULL);          /* within the interval */
    /* A phase that starts now: a line was just written, so its own is
     * due an interval after that one, and it ends before: nothing. */
    lt__progress_init(&b, -1, "collecting the tests");
    b.interval = HOLD_S;
    lt__progress_hold(&b, 1);
    lt__progress_show(&b, 0, 0, 0, NULL);
    lt__progress_show(&b, 1, 0, 0, NULL);
    /* One that starts later than the last line: due an interval after
     * that line, not after its own start. */
    sleep_s(HOLD_S * 0.7);
    lt__progress_init(&c, -1, "collecting the tests");
    c.interval = HOLD_S;
    lt__progress_hold(&c, 1);
    lt__progress_show(&c, 0, 0, 0, NULL);           /* not yet */
    sleep_s(HOLD_S * 0.4);
    lt__progress_show(&c, 0, 0, 0, NULL);           /* due: a line */
    lt__progress_show(&c, 1, 0, 0, NULL);           /* nothing new */
    capture_stop(out, sizeof(out));
    assert_string_equal(out,
                        "litmus: 2/10 baseline tests; 1s elapsed, "
                        "estimating\n"
                        "litmus: collecting the tests; 0s elapsed\n");
}

/* A held phase's last line (force) comes only when a line was written:
 * then it ends the phase with the final count. */
static void held_force(void **state)
{
    (void)state;
    char out[2048];
    capture_start();
    struct lt_progress a, b;
    lt__progress_init(&a, -1, "baseline test runs");
    a.interval = HOLD_S;
    lt__progress_hold(&a, 0);
    lt__progress_show(&a, 1, 24, 24, "%s", "12 tests x 2 runs");
    sleep_s(HOLD_S + 0.1);
    lt__progress_init(&b, -1, "baseline test runs");
    b.interval = HOLD_S;
    lt__progress_hold(&b, 0);
    lt__progress_show(&b, 0, 5, 24, "%s", "12 tests x 2 runs");
    lt__progress_show(&b, 1, 24, 24, "%s", "12 tests x 2 runs");
    capture_stop(out, sizeof(out));
    assert_string_equal(out,
                        "litmus: 5/24 baseline test runs, 12 tests x 2 "
                        "runs; 0s elapsed, under 5s left\n"
                        "litmus: 24/24 baseline test runs, 12 tests x 2 "
                        "runs; 0s elapsed\n");
}

/* The live line (--progress) of a held phase waits a second from the
 * phase's start, then is drawn in place, and the last call ends it;
 * --no-progress writes nothing. */
static void held_live(void **state)
{
    (void)state;
    char out[2048];
    capture_start();
    struct lt_progress a, off;
    lt__progress_init(&off, 0, "baseline tests");
    lt__progress_hold(&off, 0);
    lt__progress_init(&a, 1, "collecting the tests");
    assert_int_equal(a.mode, LT_PROGRESS_LIVE);
    lt__progress_hold(&a, 1);
    lt__progress_show(&a, 0, 0, 0, NULL);           /* held */
    sleep_s(1.1);
    lt__progress_show(&a, 0, 0, 0, NULL);
    lt__progress_show(&a, 1, 0, 0, NULL);
    lt__progress_show(&off, 0, 1, 2, NULL);
    lt__progress_show(&off, 1, 2, 2, NULL);
    capture_stop(out, sizeof(out));
    assert_string_equal(out, "\r\033[Kcollecting the tests; 1s elapsed"
                             "\r\033[Kcollecting the tests; 1s elapsed\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(format_rows),
        cmocka_unit_test(format_truncates),
        cmocka_unit_test(held_log),
        cmocka_unit_test(held_force),
        cmocka_unit_test(held_live),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
