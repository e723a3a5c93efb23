/* What the report writers share: one load of a stored run (mutants,
 * results, sources, tests, run figures) that every format renders, and
 * the helpers for locations, paths and text, all in report_data.c, the
 * bottom file of the folder; report.c (the dispatcher, text and JSON,
 * `litmus show`) calls report_stryker.c and report_ci.c, and all three
 * call report_data.c.  Internal to engine/.
 * SPDX-License-Identifier: MIT */
#ifndef LT_ENGINE_REPORT_INTERNAL_H
#define LT_ENGINE_REPORT_INTERNAL_H

#include <stdio.h>

#include "common/buf.h"
#include "engine/engine.h"
#include "engine/core/store.h"
#include "engine/core/verdict.h"
#include "operators/operators.h"

/* A location for reports: 1-based lines, 1-based columns counted in
 * UTF-16 code units (what Stryker's elements and SARIF's default
 * columnKind count); the end is exclusive. */
struct lt__loc {
    int line, col, end_line, end_col;
};

/* One line of a subject file that one test runs. */
struct lt__cov {
    long line;
    size_t test; /* index into lt__rdata.tests */
};

struct lt__rfile {
    char *path;          /* as stored (absolute) */
    const char *display; /* relative to the working directory when below */
    char *repo_path;     /* relative to the repository root, or NULL */
    char *source;        /* stored source, or NULL */
    size_t len;
    struct lt__cov *cov; /* the tests' coverage of it, sorted by line */
    size_t n_cov;
};

struct lt__rmutant {
    struct lt_mutant m;  /* heap copies */
    struct lt_result r;  /* heap copies; without a result, verdict
                            PENDING, or NOT_RUN when --max-time stopped
                            the run */
    int has_result;
    size_t file;         /* index into lt__rdata.files */
    struct lt__loc loc;
};

struct lt__rtest {
    char *nodeid;
    double baseline_ms;
    char *outcome;
    char *coverage; /* "FILE:1-4,9\n..." or NULL */
};

/* One stored run, in (file, start, id) order. */
struct lt__rdata {
    struct lt__rmutant *mutants;
    size_t n_mutants;
    struct lt__rfile *files;
    size_t n_files;
    struct lt__rtest *tests;
    size_t n_tests;
    struct lt_summary sum;
    int duplicates;     /* mutants that shared another's run */
    char *cwd;
    char *repo_root;    /* the git work tree holding cwd, else cwd */
    double setup_s, baseline_s, mutants_s; /* -1 when not recorded */
    char *settings;     /* the run's settings (meta), or NULL */
    int any_coverage;   /* some test has coverage recorded */
    int budget_stopped; /* --max-time stopped the run: the mutants without
                           a result are not_run */
};

/* Reads everything a report needs from the store into d (freed with
 * lt__rdata_free).  0 or a negative code. */
int lt__rdata_load(struct lt_store *st, struct lt__rdata *d);
void lt__rdata_free(struct lt__rdata *d);

/* Counts as surviving for the gate and the lists: survived, no_coverage. */
int lt__is_survivor(enum lt_verdict v);

/* The unified diff of mutant i with three lines of context (caller
 * frees). */
char *lt__rmutant_diff(const struct lt__rdata *d, size_t i);
/* The same for mutant m of source src (len bytes), its file shown as
 * name (caller frees). */
char *lt__mutant_diff(const struct lt_mutant *m, const char *src, size_t len,
                      const char *name);
/* A number the run stored under meta key, or -1. */
double lt__meta_seconds(struct lt_store *st, const char *key);
/* path relative to cwd when it lies below it. */
const char *lt__display_path(const char *path, const char *cwd);

/* Indexes of the tests whose stored coverage reaches a line of mutant i
 * (caller frees *idx); -1 when no test has coverage recorded. */
long lt__covering_tests(const struct lt__rdata *d, size_t i, size_t **idx);

/* s with bytes that are not valid UTF-8 replaced by U+FFFD (caller
 * frees); jansson and XML both refuse them. */
char *lt__utf8_clean(const char *s);

/* A JSON string of s made valid UTF-8 first (new reference). */
struct json_t *lt__jstr(const char *s);
/* s on one line: newlines and tabs escaped, cut near max bytes with
 * "..." (caller frees). */
char *lt__one_line(const char *s, size_t max);

/* The text writers (report_stryker.c, report_ci.c).  0 or a negative
 * code after printing why. */
struct json_t;
/* The Stryker report (schema version 2) as a new JSON object. */
struct json_t *lt__stryker_json(const struct lt__rdata *d, double fail_under);
int lt__write_stryker(const struct lt__rdata *d, double fail_under, FILE *out);
int lt__write_html(const struct lt__rdata *d, double fail_under,
                   const struct lt_report_opts *ro);
int lt__write_junit(const struct lt__rdata *d, const struct lt_report_opts *ro,
                    FILE *out);
int lt__write_sarif(const struct lt__rdata *d, FILE *out);
int lt__write_github(const struct lt__rdata *d, FILE *out);

/* The survivor baseline (--fail-on-new-survivors, --write-survivors):
 * 0 when every survivor is accepted, 1 when some are new (listed on
 * stderr), 2 for an unreadable baseline. */
int lt__survivors_gate(const struct lt__rdata *d, const char *path);
/* Writes the current survivors to path, keeping the reasons of those
 * already in it.  0, or 2 after printing why. */
int lt__survivors_write(const struct lt__rdata *d, const char *path,
                        const char *reason);

#endif
