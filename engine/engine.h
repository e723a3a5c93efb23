/* The jobs litmus runs, as the command line calls them.  Each returns the
 * process exit code: 0 ok, 1 gate failed, 2 usage or input error, 3 engine
 * error, after printing its own one-line diagnosis.
 * SPDX-License-Identifier: MIT */
#ifndef LT_ENGINE_H
#define LT_ENGINE_H

#include <stddef.h>

enum lt_format { LT_FORMAT_TEXT, LT_FORMAT_JSON };

struct lt_score_opts {
    char **paths;          /* files or directories to mutate */
    size_t n_paths;
    char **tests;          /* test files or directories, given to pytest */
    size_t n_tests;
    char **pytest_args;    /* after `--` */
    size_t n_pytest_args;
    const char *db;        /* database path */
    const char *operators; /* set name or list */
    int jobs;              /* parallel zygotes */
    enum lt_format format;
    double fail_under;     /* score threshold in [0,1]; < 0: none */
    double timeout_factor; /* x baseline time of the tests run */
    double timeout_const;  /* + this many seconds */
    double baseline_timeout; /* seconds for the whole baseline */
    unsigned long memory_mb; /* RLIMIT_AS of a child; 0 = none */
    int progress;          /* live progress line: 1 on, 0 off, -1 auto */
    int full_matrix;       /* run every covering test: a kill matrix */
    int baseline_runs;     /* baseline repetitions to find flaky tests */
    int debug;
};

/* Fills defaults: operators "mutmut", jobs = cores, db ".litmus.db",
 * text, no threshold, factor 5, constant 0.5 s, baseline 300 s, 2048 MB
 * (0 in sanitizer builds), progress auto, no kill matrix, 2 baseline
 * runs. */
void lt_score_opts_init(struct lt_score_opts *o);

/* Fills *o from the [tool.litmus] table of a pyproject.toml (keys as the
 * long options: paths, tests, jobs, db, operators, format, fail-under,
 * timeout-factor, timeout-const, baseline-timeout, baseline-runs,
 * memory-mb, full-matrix, pytest-args).  0, or a negative code with a
 * one-line *err (caller frees) for unreadable TOML or a bad key or value. */
int lt_score_opts_from_pyproject(const char *path, struct lt_score_opts *o,
                                 char **err);

/* `litmus score`: plan, run and report a mutation run; resumes from the
 * database when it already holds part of the same run. */
int lt_score(const struct lt_score_opts *o);

/* `litmus show ID`: the mutant's diff, verdict and killing test. */
int lt_show(const char *db, const char *id, enum lt_format format);

/* `litmus report`: the summary of the run stored in db. */
int lt_report(const char *db, enum lt_format format);

/* Resolves the litmus binary for re-execution as a zygote. */
void lt_engine_set_exe(const char *path);

#endif
