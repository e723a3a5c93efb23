/* The progress report of a long job on stderr: a line redrawn in place on
 * a terminal, a plain line every 30 s in a log.  The jobs (score,
 * patches, dataset) say what they count, phase by phase (score: the
 * collection, the baseline's tests, the mutants); the layout and the
 * estimate of the time left are written here, once.
 * Internal to engine/.  SPDX-License-Identifier: MIT */
#ifndef LT_ENGINE_CORE_PROGRESS_H
#define LT_ENGINE_CORE_PROGRESS_H

#include <stddef.h>

/* Seconds between two lines of a log, unless LITMUS_PROGRESS_INTERVAL
 * says otherwise (for tests). */
#define LT_PROGRESS_LOG_INTERVAL 30.0

enum lt_progress_mode {
    LT_PROGRESS_OFF,  /* --no-progress */
    LT_PROGRESS_LIVE, /* one line redrawn in place: a terminal, --progress */
    LT_PROGRESS_LOG   /* plain lines, one per interval: a log (the default
                         when stderr is not a terminal) */
};

struct lt_progress {
    enum lt_progress_mode mode;
    const char *unit;  /* what the job counts, plural: "mutants" */
    double start;      /* when the counted work began */
    double interval;   /* least seconds between two lines */
    double last;       /* when the last line was written */
    size_t last_done;  /* its count of units done */
    int shown;         /* a line was written */
    double hold;       /* > 0 (lt__progress_hold): the first line waits
                          this long (lt__progress_hold says from when) */
    int uncounted;     /* the line names the phase and its time only
                          (lt__progress_hold) */
};

/* Starts the report of work counted in unit (a string that outlives p),
 * from now.  opt is the job's option: 1 (--progress: the live line, even
 * when stderr is not a terminal), 0 (--no-progress: nothing), -1 (the
 * live line on a terminal, log lines otherwise). */
void lt__progress_init(struct lt_progress *p, int opt, const char *unit);

/* A phase that is often over in a moment (score's collection and
 * baseline): its first line waits a second on a terminal, and in a log
 * until one interval has passed since the last line any report wrote (or
 * since the first report began), so that a log is never silent longer
 * than that across phases either; when none was written by its end the
 * phase leaves nothing behind.  uncounted: nothing is counted, the line is
 * the unit (here a phase's name, "collecting the tests") and the time
 * ("collecting the tests; 45s elapsed"). */
void lt__progress_hold(struct lt_progress *p, int uncounted);

/* Writes a line when one is due: at the first call (after the hold, if
 * any), then at most once per interval; force (the job's last call)
 * writes the final one, which ends the live line, and is left out when
 * nothing was done and no line was written (under a hold: when no line
 * was written), or in a log when it would repeat the last line's count.
 * done of total units are finished (total 0: not known); fmt and what
 * follows are the job's own figures ("80 killed, 30 survived"), or fmt
 * is NULL for none. */
void lt__progress_show(struct lt_progress *p, int force, size_t done,
                       size_t total, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* The text of a progress line, without the live line's control
 * characters or the log's "litmus: " prefix: "120/520 mutants, 80 killed,
 * 30 survived, 10 other; 3m12s elapsed, about 7m left".  details (or
 * NULL) are the job's figures.  The estimate is the elapsed time scaled
 * by the fraction left; before a few units are done it reads
 * "estimating", and there is none once all are done or when total is 0
 * (not known: only done is shown).  Writes at most n bytes into buf,
 * always terminated. */
void lt__progress_format(char *buf, size_t n, const char *unit, size_t done,
                         size_t total, const char *details, double elapsed);

#endif
