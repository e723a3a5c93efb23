/* What the files of the command line share: the option codes, the
 * options several commands take (the run options of the jobs that run
 * tests, the report options), and each command's entry point and option
 * table, for main()'s dispatch and the bash completion.  One file a
 * command: score_cli.c, patches_cli.c, dataset_cli.c, store_cli.c (show,
 * report, merge), slurm_cli.c; main.c dispatches.
 * Internal to engine/cli.  SPDX-License-Identifier: MIT */
#ifndef LT_ENGINE_CLI_H
#define LT_ENGINE_CLI_H

#include <getopt.h>
#include <stdio.h>

#include "engine/cli/optable.h"
#include "engine/engine.h"

/* A number macro as a string literal, for the defaults in help texts. */
#define STR_(x) #x
#define STR(x) STR_(x)

/* The long-only option codes of every command, in one space so that the
 * shared options keep one code everywhere. */
enum {
    /* The run options (RUN_LONGOPTS, lt__cli_run_option). */
    OPT_DB = 256, OPT_TIMEOUT_FACTOR, OPT_TIMEOUT_CONST, OPT_MEMORY,
    OPT_PROGRESS, OPT_NO_PROGRESS, OPT_SHARD,
    /* The report options (REPORT_LONGOPTS, lt__cli_report_option). */
    OPT_HTML, OPT_ELEMENTS_JS, OPT_SURVIVORS_IN, OPT_SURVIVORS_OUT,
    OPT_REASON, OPT_JUNIT_NO_COVERAGE, OPT_JUNIT_TIMEOUT,
    /* A command's own codes start here. */
    OPT_OWN = 320
};

/* The options of every job that runs tests (score, patches, dataset):
 * parallel children, the store, the limits of a run, progress, shards. */
#define RUN_LONGOPTS                                                    \
    {"jobs", required_argument, NULL, 'j'},                             \
    {"db", required_argument, NULL, OPT_DB},                            \
    {"timeout-factor", required_argument, NULL, OPT_TIMEOUT_FACTOR},    \
    {"timeout-const", required_argument, NULL, OPT_TIMEOUT_CONST},      \
    {"memory-mb", required_argument, NULL, OPT_MEMORY},                 \
    {"progress", no_argument, NULL, OPT_PROGRESS},                      \
    {"no-progress", no_argument, NULL, OPT_NO_PROGRESS},                \
    {"shard", required_argument, NULL, OPT_SHARD}

/* Handles option c when it is a run option (into the job's struct
 * lt_run_opts, engine.h), with the same ranges and messages for every
 * job: 1 handled, 0 not one, -1 bad value (printed as a usage error). */
int lt__cli_run_option(int c, const char *arg, struct lt_run_opts *run);

/* The report options `score` and `report` share. */
#define REPORT_LONGOPTS                                                    \
    {"html", required_argument, NULL, OPT_HTML},                           \
    {"elements-js", required_argument, NULL, OPT_ELEMENTS_JS},             \
    {"fail-on-new-survivors", required_argument, NULL, OPT_SURVIVORS_IN},  \
    {"write-survivors", required_argument, NULL, OPT_SURVIVORS_OUT},       \
    {"reason", required_argument, NULL, OPT_REASON},                       \
    {"junit-no-coverage", required_argument, NULL, OPT_JUNIT_NO_COVERAGE}, \
    {"junit-timeout", required_argument, NULL, OPT_JUNIT_TIMEOUT}

/* Handles option c when it is a report option: 1 handled, 0 not one, -1
 * bad value (printed). */
int lt__cli_report_option(int c, const char *arg, struct lt_report_opts *ro);

/* --format of the commands that write text or JSON only: 0, or -1. */
int lt__cli_text_or_json(const char *s, enum lt_format *f);

/* The commands (argv[0] is the command's name) and their option tables;
 * `dataset` has one table for every mode, and says which option belongs
 * to which mode. */
int lt__cmd_score(int argc, char **argv);
int lt__cmd_patches(int argc, char **argv);
int lt__cmd_show(int argc, char **argv);
int lt__cmd_report(int argc, char **argv);
int lt__cmd_merge(int argc, char **argv);
int lt__cmd_slurm(int argc, char **argv, const char *exe);
int lt__cli_dataset(int argc, char **argv);
/* The option tables (engine/cli/optable.h) and the help they write. */
extern const struct lt__opt lt__score_options[];
void lt__score_help(FILE *f);
extern const struct lt__opt lt__show_options[];
void lt__show_help(FILE *f);
extern const struct lt__opt lt__report_options[];
void lt__report_help(FILE *f);
extern const struct lt__opt lt__merge_options[];
void lt__merge_help(FILE *f);
extern const struct lt__opt lt__slurm_options[];
void lt__slurm_help(FILE *f);
extern const struct lt__opt lt__patches_options[];
void lt__patches_help(FILE *f);
extern const struct option lt__cli_dataset_longopts[];
#define LT__CLI_DATASET_SHORTOPTS "o:j:t:h"
int lt__cli_dataset_option_in_mode(int val, enum lt_dataset_mode mode);

#endif
