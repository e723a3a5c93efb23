/* The progress report of a long job on stderr: see progress.h.
 * SPDX-License-Identifier: MIT */
#include "engine/core/clock.h"
#include "engine/core/progress.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>


/* The live line is redrawn at most this often (seconds). */
#define LIVE_INTERVAL 0.2
/* A held phase's live line waits this long (seconds): a phase over
 * sooner leaves no line on the terminal. */
#define LIVE_HOLD 1.0
/* Units done before the time left is estimated: the first few say little
 * about the rest (score starts the longest mutants first). */
#define ESTIMATE_MIN_DONE 3

/* When the last progress line was written, or the first report began:
 * a held phase's first line in a log is due one interval after it. */
static double quiet_since;

/* An elapsed time: "45s", "3m12s", "1h05m". */
static void fmt_elapsed(char *buf, size_t n, double s)
{
    long t = s > 0 ? (long)s : 0;
    if (t < 60)
        snprintf(buf, n, "%lds", t);
    else if (t < 3600)
        snprintf(buf, n, "%ldm%02lds", t / 60, t % 60);
    else
        snprintf(buf, n, "%ldh%02ldm", t / 3600, t / 60 % 60);
}

/* An estimate, no finer than it can be: "about 5s left" .. "about 55s
 * left" (up to the next 5 s), then whole minutes ("about 7m left",
 * "about 1h05m left"); "under 5s left" at the end. */
static void fmt_left(char *buf, size_t n, double s)
{
    if (s < 5) {
        snprintf(buf, n, "under 5s left");
        return;
    }
    long t = (long)ceil(s / 5.0) * 5;
    long m = (long)floor(s / 60.0 + 0.5);
    if (t < 60)
        snprintf(buf, n, "about %lds left", t);
    else if (m < 60)
        snprintf(buf, n, "about %ldm left", m);
    else
        snprintf(buf, n, "about %ldh%02ldm left", m / 60, m % 60);
}

/* See progress.h. */
void lt__progress_format(char *buf, size_t n, const char *unit, size_t done,
                         size_t total, const char *details, double elapsed)
{
    char el[48], left[64], est[80] = "";
    fmt_elapsed(el, sizeof(el), elapsed);
    const char *sep = details && *details ? ", " : "";
    if (!details)
        details = "";
    if (total == 0) {
        snprintf(buf, n, "%zu %s%s%s; %s elapsed", done, unit, sep, details,
                 el);
        return;
    }
    if (done < total && (done < ESTIMATE_MIN_DONE || elapsed <= 0)) {
        snprintf(est, sizeof(est), ", estimating");
    } else if (done < total) {
        fmt_left(left, sizeof(left),
                 elapsed * (double)(total - done) / (double)done);
        snprintf(est, sizeof(est), ", %s", left);
    }
    snprintf(buf, n, "%zu/%zu %s%s%s; %s elapsed%s", done, total, unit, sep,
             details, el, est);
}

/* See progress.h. */
void lt__progress_init(struct lt_progress *p, int opt, const char *unit)
{
    *p = (struct lt_progress){.unit = unit, .start = lt__now()};
    if (quiet_since == 0)
        quiet_since = p->start;
    if (opt == 0)
        p->mode = LT_PROGRESS_OFF;
    else if (opt > 0 || isatty(2))
        p->mode = LT_PROGRESS_LIVE;
    else
        p->mode = LT_PROGRESS_LOG;
    p->interval = p->mode == LT_PROGRESS_LIVE ? LIVE_INTERVAL
                                              : LT_PROGRESS_LOG_INTERVAL;
    /* A test aid: a log line every few tenths of a second instead of
     * every 30 s (tests/e2e/t0650-progress-log.sh). */
    const char *env = getenv("LITMUS_PROGRESS_INTERVAL");
    if (env && *env && p->mode == LT_PROGRESS_LOG) {
        char *end;
        double s = strtod(env, &end);
        if (*end == '\0' && s > 0 && isfinite(s))
            p->interval = s;
    }
}

/* See progress.h. */
void lt__progress_hold(struct lt_progress *p, int uncounted)
{
    p->hold = p->mode == LT_PROGRESS_LIVE ? LIVE_HOLD : p->interval;
    p->uncounted = uncounted;
}

/* See progress.h. */
void lt__progress_show(struct lt_progress *p, int force, size_t done,
                       size_t total, const char *fmt, ...)
{
    if (p->mode == LT_PROGRESS_OFF)
        return;
    double now = lt__now();
    if (force) {
        /* Nothing to add: the log's last line had this count, or no
         * line was written and nothing was done (or, for a held phase,
         * no line was written at all). */
        if (!p->shown && p->hold > 0)
            return;
        if (done == p->last_done &&
            (!p->shown || p->mode == LT_PROGRESS_LOG))
            return;
    } else if (p->shown) {
        if (now - p->last < p->interval)
            return;
    } else if (p->hold > 0) {
        /* A held phase: on a terminal from its start; in a log from the
         * last line any report wrote. */
        double from = p->mode == LT_PROGRESS_LIVE ? p->start : quiet_since;
        if (now - from < p->hold)
            return;
    }
    char details[256] = "", line[512];
    if (fmt) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(details, sizeof(details), fmt, ap);
        va_end(ap);
    }
    if (p->uncounted) {
        char el[48];
        fmt_elapsed(el, sizeof(el), now - p->start);
        snprintf(line, sizeof(line), "%s%s%s; %s elapsed", p->unit,
                 *details ? ", " : "", details, el);
    } else {
        lt__progress_format(line, sizeof(line), p->unit, done, total,
                            details, now - p->start);
    }
    if (p->mode == LT_PROGRESS_LIVE)
        fprintf(stderr, "\r\033[K%s%s", line, force ? "\n" : "");
    else
        fprintf(stderr, "litmus: %s\n", line);
    fflush(stderr);
    quiet_since = now;
    p->last = now;
    p->last_done = done;
    p->shown = 1;
}
