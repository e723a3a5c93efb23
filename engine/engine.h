/* The jobs litmus runs, as the command line calls them.  Each returns the
 * process exit code (enum lt_exit) after printing its own one-line
 * diagnosis.  SPDX-License-Identifier: MIT */
#ifndef LT_ENGINE_H
#define LT_ENGINE_H

#include <stddef.h>

#include "engine/core/exe.h"  /* lt_engine_set_exe */
#include "engine/core/exit.h" /* enum lt_exit: what every job returns */
#include "engine/core/shard.h" /* lt_shard_parse, for --shard */

/* The --timeout-const defaults, in seconds, one per job: the options'
 * _init() functions, the help texts and the comments below use these. */
#define LT_SCORE_TIMEOUT_CONST 0.2
#define LT_PATCHES_TIMEOUT_CONST 1.0
#define LT_DATASET_TIMEOUT_CONST 0.1

/* The --memory-mb default of every job (RLIMIT_AS of a child), and its
 * text for the help: none in sanitizer builds, whose shadow memory
 * reserves terabytes of address space. */
#ifdef LT_SANITIZED
#define LT_MEMORY_MB_DEFAULT 0
#define LT_MEMORY_MB_DEFAULT_TEXT "0"
#else
#define LT_MEMORY_MB_DEFAULT 2048
#define LT_MEMORY_MB_DEFAULT_TEXT "2048"
#endif

enum lt_format {
    LT_FORMAT_TEXT,
    LT_FORMAT_JSON,    /* litmus.score/1 */
    LT_FORMAT_STRYKER, /* mutation-testing-report-schema, version 2 */
    LT_FORMAT_JUNIT,   /* JUnit XML, one testcase per mutant */
    LT_FORMAT_SARIF,   /* SARIF 2.1.0 */
    LT_FORMAT_GITHUB,  /* GitHub workflow annotations */
};

/* "text", "json", "stryker", "junit", "sarif", "github": 0 and *f set,
 * or -1 for another name. */
int lt_format_parse(const char *name, enum lt_format *f);

/* How a JUnit report counts a verdict (mutmut 2's junitxml policies). */
enum lt_junit_policy {
    LT_JUNIT_DEFAULT = 0, /* failure for no_coverage, ignore for timeout */
    LT_JUNIT_IGNORE,      /* a passing testcase */
    LT_JUNIT_SKIPPED,
    LT_JUNIT_ERROR,
    LT_JUNIT_FAILURE,
};
/* "ignore", "skipped", "error", "failure": 0 and *p set, or -1. */
int lt_junit_policy_parse(const char *name, enum lt_junit_policy *p);

/* What reports add to the summary (docs/reports.md).  All zero: nothing
 * more, default policies. */
struct lt_report_opts {
    const char *html;           /* write the HTML report here, or NULL */
    const char *elements_js;    /* mutation-test-elements.js, or NULL to
                                   look beside the binary (build/npm),
                                   then in ../share/litmus/npm */
    const char *survivors_in;   /* --fail-on-new-survivors FILE, or NULL */
    const char *survivors_out;  /* --write-survivors FILE, or NULL */
    const char *reason;         /* reason recorded for survivors written
                                   anew (NULL: a default sentence) */
    enum lt_junit_policy junit_no_coverage;
    enum lt_junit_policy junit_timeout;
};

/* The options of every job that runs tests (score, patches, dataset),
 * parsed by one parser of the command line (engine/cli/run_opts.c); each
 * job's opts_init sets its own defaults. */
struct lt_run_opts {
    const char *db;          /* the store (dataset: NULL for none) */
    int jobs;                /* children at once; 0: as many as cores */
    double timeout_factor;   /* a run's limit: x the reference time ... */
    double timeout_const;    /* ... + this many seconds */
    unsigned long memory_mb; /* RLIMIT_AS of a child; 0 = none */
    int progress;            /* progress line: 1 on, 0 off, -1 auto */
    unsigned shard_index;    /* --shard I/N: this process's slice I ... */
    unsigned shard_count;    /* ... of N (docs/scale.md); 0: all */
};

struct lt_score_opts {
    char **paths;          /* files or directories to mutate */
    size_t n_paths;
    char **tests;          /* test files or directories, given to pytest */
    size_t n_tests;
    char **pytest_args;    /* after `--` */
    size_t n_pytest_args;
    int runner;            /* enum lt_test_runner (runners/runner.h):
                              pytest (0, the default), unittest, doctest */
    int runner_given;      /* --runner or [tool.litmus] runner named it:
                              no automatic unittest runner when pytest
                              cannot collect a unittest suite */
    struct lt_run_opts run; /* --db, --jobs, limits, progress, --shard */
    const char *operators; /* set name or list */
    enum lt_format format;
    double fail_under;     /* score threshold in [0,1]; < 0: none */
    double baseline_timeout; /* seconds for the whole baseline */
    double max_time;       /* --max-time: wall seconds of the whole run,
                              from its start (0: none).  No mutant starts
                              past it; the unfinished are not_run and the
                              same command runs them (docs/scale.md) */
    int full_matrix;       /* run every covering test: a kill matrix */
    int baseline_runs;     /* baseline repetitions to find flaky tests */
    const char *python;    /* interpreter whose environment the tests run
                              in; NULL: the active venv, ./.venv, ./venv
                              or the system's (engine/core/pyenv.h) */
    int deselect_failing;  /* drop tests failing on the original code
                              (listed) instead of stopping with exit 2 */
    char **allow_read;     /* more paths the tests may read */
    size_t n_allow_read;
    char **pass_env;       /* environment variables the tests see besides
                              the default ones (runners/runner.h) */
    size_t n_pass_env;
    unsigned sandbox_uid;  /* children's uid when run as root; 0: nobody */
    unsigned scratch_mb;   /* size of the writable scratch; 0: 512 */
    int no_fs_view;        /* the tests see the host's file system
                              (through Landlock only) */
    int explain_sandbox;   /* print the sandbox's view and stop */
    int telemetry;         /* record each child's refused system calls
                              and signals (libbpf; needs root or
                              CAP_BPF+CAP_PERFMON) */
    struct lt_report_opts report; /* HTML, survivor baseline, JUnit */
    char **exclude;        /* globs of subject files never mutated */
    size_t n_exclude;
    char **exclude_ops;    /* "OP" (everywhere) or "OP:GLOB" (in files
                              matching GLOB): operators switched off */
    size_t n_exclude_ops;
    const char *since;     /* git revision: mutate only lines changed
                              since it (docs/incremental.md); NULL: all */
    int rerun_survivors;   /* --rerun survivors: reuse every earlier
                              verdict but survived and no_coverage */
    int fresh_baseline;    /* run every test of the baseline, reusing
                              none of a stored one */
    int debug;
};

/* What each job keeps in a shard store: its meta keys and its own
 * tables (engine/core/store.h; defined beside each job's tables). */
struct lt_shard_store;
extern const struct lt_shard_store lt_score_shard_store;
extern const struct lt_shard_store lt_dataset_shard_store;
extern const struct lt_shard_store lt_patches_shard_store;

/* `litmus merge OUT IN...`: writes the union of the shard stores IN
 * (every shard 0..N-1 of one plan, each complete) to OUT, from which every
 * report reads as from a single run.  Which job made them is asked of
 * jobs[0..n_jobs), in that order, by their meta keys; a job's own tables
 * are copied as it lists them.  Refuses with exit 2 and a one-line error
 * when the inputs are not the shards of one plan, overlap, miss a shard
 * or are unfinished; force replaces an existing OUT. */
int lt_merge(const char *out, char **inputs, size_t n_inputs, int force,
             const struct lt_shard_store *const *jobs, size_t n_jobs);

/* `litmus slurm score ...` (docs/scale.md): a Slurm array job of score
 * shards and a merge job after it, written to dir and submitted. */
struct lt_slurm_opts {
    unsigned shards;         /* N: array tasks 0..N-1 */
    const char *dir;         /* scripts, shard stores, outputs, merged.db */
    const char *partition;   /* #SBATCH --partition, or NULL */
    const char *time;        /* #SBATCH --time, or NULL */
    unsigned cpus_per_task;  /* #SBATCH --cpus-per-task (0: Slurm's) */
    char **sbatch_args;      /* more #SBATCH options, e.g. "--mem=4G" */
    size_t n_sbatch_args;
    const char *sbatch;      /* the sbatch program ("sbatch") */
    const char *exe;         /* absolute path of litmus for the scripts */
    char **score_args;       /* `litmus score` arguments (no --db/--shard) */
    size_t n_score_args;
    int has_jobs;            /* score_args set --jobs; else the shard uses
                                $SLURM_CPUS_PER_TASK */
    int no_submit;           /* write the scripts, print the commands */
};

/* Fills defaults: dir "litmus-slurm", sbatch "sbatch". */
void lt_slurm_opts_init(struct lt_slurm_opts *o);

/* Writes dir/shards.sbatch and dir/merge.sbatch and submits with
 * `sbatch --parsable` the shards whose store in dir is not complete
 * (an array job) and the merge (afterok on it).  Exit 0, 2 for bad
 * options or a store of another run in dir, 3 when sbatch fails. */
int lt_slurm(const struct lt_slurm_opts *o);

/* Fills defaults: operators "mutmut", jobs = cores, db ".litmus.db",
 * text, no threshold, factor 5, constant LT_SCORE_TIMEOUT_CONST, baseline
 * 300 s, no --max-time, 2048 MB (0 in sanitizer builds), progress auto,
 * no kill matrix, 2 baseline runs. */
void lt_score_opts_init(struct lt_score_opts *o);

/* "pytest", "unittest", "doctest": 0 and *runner set (enum
 * lt_test_runner), or -1 for another name. */
int lt_test_runner_parse(const char *name, int *runner);

/* The largest --max-time, in seconds (a week). */
#define LT_MAX_TIME_MAX (7.0 * 86400)

/* One value of the [tool.litmus] table, as TOML typed it. */
enum lt_setting_type {
    LT_SETTING_STRING,
    LT_SETTING_INTEGER,
    LT_SETTING_REAL,
    LT_SETTING_BOOL,
    LT_SETTING_LIST,  /* an array of strings */
    LT_SETTING_OTHER, /* a table, or an array of anything else */
};
struct lt_setting {
    enum lt_setting_type type;
    const char *string;       /* STRING */
    long long integer;        /* INTEGER */
    double number;            /* INTEGER and REAL */
    int boolean;              /* BOOL */
    const char *const *list;  /* LIST: n_list strings */
    size_t n_list;
};

/* Calls apply(ctx, key, value, err) for each key of the [tool.litmus]
 * table of the pyproject file PATH, in the file's order; the value's
 * strings live only during the call.  apply returns 0, or -1 with a
 * one-line *err, which stops the walk.  0, or a negative code with a
 * one-line *err (caller frees) for unreadable TOML or apply's -1.  The
 * meaning of each key is the command line's (engine/cli/score_cli.c). */
int lt_pyproject_settings(const char *path,
                          int (*apply)(void *ctx, const char *key,
                                       const struct lt_setting *value,
                                       char **err),
                          void *ctx, char **err);

/* Whether ENTRY of [tool.litmus] exclude-operators is "OP" or "OP:GLOB"
 * with OP an operator's name: 0, or -1. */
int lt_score_exclusion_check(const char *entry);

/* `litmus score`: plan, run and report a mutation run; resumes from the
 * database when it already holds part of the same run. */
int lt_score(const struct lt_score_opts *o);

/* `litmus show ID`: the mutant's diff, verdict and killing test. */
int lt_show(const char *db, const char *id, enum lt_format format);

/* `litmus report`: the run stored in db in the given format; ro (or
 * NULL) adds the HTML report and the survivor baseline.  Exit 1 when a
 * survivor is missing from ro->survivors_in. */
int lt_report(const char *db, enum lt_format format,
              const struct lt_report_opts *ro);

/* `litmus patches`: triage of candidate patches (docs/patches.md). */
struct lt_patches_opts {
    const char *buggy;       /* single program: the buggy file */
    const char **tests;      /* ... its tests (file or directory); in the
                                CI form, tests that decide too (files,
                                folders or node ids) */
    size_t n_tests;
    const char *reference;   /* ... the reference fix, or NULL */
    const char *held_out;    /* ... held-out tests, or NULL */
    const char *inputs;      /* ... extra inputs (JSONL or .json), or NULL */
    const char *precondition; /* ... a Python file defining
                                 litmus_precondition(*args), or NULL */
    const char *manifest;    /* many programs: JSON manifest, or NULL */
    const char *patches;     /* directory or JSONL of candidates */
    const char *csv;         /* write the CSV report here, or NULL */
    struct lt_run_opts run; /* --db, --jobs, limits, progress, --shard */
    enum lt_format format;
    double threshold;        /* mutation score threshold (0.60) */
    double sim_threshold;    /* similarity threshold (0.95) */
    double timeout;          /* per run without a reference (15 s) */
    double diff_budget;      /* CPU seconds of generated and derived
                                inputs per differential run (10) */
    double slower_factor;    /* a patch this many times slower than the
                                reference is overfitting (0: a note) */
    int mutation;            /* layer 2 mutation scores (1) */
    int probes;              /* repository candidates' probe layer (1) */
    int mutation_gate;       /* with a reference: a patch scoring below
                                the threshold where the reference does
                                not is overfitting (1; 0: only a note) */
    double mutation_budget;  /* estimated CPU seconds of mutant runs per
                                text (30); over it, a sample; 0: all */
    char **pytest_args;      /* after `--` */
    size_t n_pytest_args;
    int debug;
    /* Repository candidates (docs/patches.md, "Repository candidates"):
     * SWE-bench instances and predictions, or the CI form on one repo. */
    const char *instances;   /* JSON Lines or a JSON array of instances */
    const char *predictions; /* JSON Lines or a JSON array of predictions */
    const char *repos;       /* folder of clones: owner__name or owner/name */
    const char *env;         /* {repo: {version|"*": python or venv}} */
    const char *repo;        /* CI form: the repository at hand */
    const char *base;        /* ... the base revision */
    const char **candidates; /* ... candidate revisions or diff files */
    size_t n_candidates;
    const char *worktrees;   /* where worktrees are kept (default: the
                                database's name + ".trees") */
    const char *harness_report; /* folder for SWE-bench-style reports */
    const char *python;      /* the interpreter when --env names none */
    double wider_budget;     /* CPU seconds of the reference's run of the
                                wider suite each candidate repeats (20) */
};

/* Fills defaults: thresholds 0.60 and 0.95, jobs = cores, db
 * ".litmus-patches.db", text, factor 5, constant LT_PATCHES_TIMEOUT_CONST,
 * timeout 15 s, mutation and the mutation gate on, a mutation budget of
 * 30 s, 2048 MB (0 in sanitizer builds), progress auto. */
void lt_patches_opts_init(struct lt_patches_opts *o);

/* `litmus patches`: triages every candidate patch, resuming from the
 * database; exit 0, 1 when a patch is overfitting, 2 for input errors,
 * 3 for engine errors. */
int lt_patches(const struct lt_patches_opts *o);

/* `litmus patches --instances ... | --repo ...`: judges candidate diffs
 * on repositories as the SWE-bench harness does (resolved), then against
 * the reference fix (docs/patches.md, "Repository candidates").  Exit
 * codes as lt_patches. */
int lt_patches_repo(const struct lt_patches_opts *o);

/* `litmus dataset select|typed|faults|rewrite` (docs/datasets.md):
 * execution-verified datasets of mutated programs, JSON Lines in and out. */
enum lt_dataset_mode {
    LT_DS_SELECT,  /* Algorithm 1: the mutant most like the original */
    LT_DS_TYPED,   /* statement/value/decision mutants per third */
    LT_DS_FAULTS,  /* one-line faults in a quarter */
    LT_DS_REWRITE, /* semantic-preserving rewrites */
};

/* The language of a dataset run's programs (--lang). */
enum lt_lang { LT_LANG_AUTO = 0, LT_LANG_PYTHON, LT_LANG_JAVA };

struct lt_dataset_opts {
    enum lt_dataset_mode mode;
    enum lt_lang lang;       /* AUTO: from the inputs' file names */
    char **inputs;           /* JSON Lines files ("-": stdin) or .py files */
    size_t n_inputs;         /* 0: stdin */
    const char *out;         /* output JSON Lines; NULL or "-": stdout */
    struct lt_run_opts run; /* --db, --jobs, limits, progress, --shard */
    const char *summary;     /* write the JSON summary here, or NULL */
    const char *tests;       /* tests of records that name none */
    const char *operators;   /* select: operator set ("algo1") */
    const char *kinds;       /* faults: comma list, NULL for all */
    const char *ops;         /* rewrite: composition ("c,v,d") */
    const char *vocab;       /* rewrite: JSON vocabulary file, or NULL */
    unsigned long long seed; /* every random choice derives from it */
    int all;                 /* select: every valid mutant */
    int details;             /* select: operator, line... in mutation_info */
    int per_cell;            /* typed: mutants per (type, third) */
    int per_program;         /* faults: faults per program (and quarter) */
    int quarter;             /* 0 anywhere, 1..4, -1 each quarter (faults) */
    int strength;            /* rewrite: applications of each op, 1..8 */
    int variants;            /* rewrite: variants per program */
    int verify;              /* 0: --no-verify (rewrite: generation only) */
    int floor;               /* measure the runners' floor after the run */
    double timeout;          /* s per call of a reference run */
    int debug;
};

/* Defaults: db ".litmus-dataset.db", operators "algo1", ops "c,v,d", seed
 * 0, jobs = cores, 1 per cell, 1 per program, strength 1, 1 variant,
 * verification on, timeout 5 s, factor 5, constant LT_DATASET_TIMEOUT_CONST,
 * 2048 MB, progress auto. */
void lt_dataset_opts_init(struct lt_dataset_opts *o);

/* "select", "typed", "faults" or "rewrite". */
const char *lt_dataset_mode_name(enum lt_dataset_mode m);

/* `litmus dataset MODE`: exit 0, 2 for input errors (with the record's
 * FILE:LINE), 3 for engine errors, 130 when interrupted (run the same
 * command again to resume). */
int lt_dataset(const struct lt_dataset_opts *o);

#endif
