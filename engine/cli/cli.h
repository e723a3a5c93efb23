/* What the files of the command line share: the option codes, the
 * options several commands take (the run options of the jobs that run
 * tests, the report options), and each command's entry point and option
 * table, for main()'s dispatch and the bash completion.  One file a
 * command: score_cli.c, patches_cli.c, dataset_cli.c, store_cli.c (show,
 * report, merge), slurm_cli.c, similarity_cli.c; main.c dispatches.
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
    /* The run options (LT__RUN_* rows, optable.h). */
    OPT_DB = 256, OPT_TIMEOUT_FACTOR, OPT_TIMEOUT_CONST, OPT_MEMORY,
    OPT_PROGRESS, OPT_NO_PROGRESS, OPT_SHARD,
    /* The report options (LT__REPORT_* rows). */
    OPT_HTML, OPT_ELEMENTS_JS, OPT_SURVIVORS_IN, OPT_SURVIVORS_OUT,
    OPT_REASON, OPT_JUNIT_NO_COVERAGE, OPT_JUNIT_TIMEOUT,
    /* A command's own codes start here. */
    OPT_OWN = 320
};

/* The commands (argv[0] is the command's name), their option tables
 * (engine/cli/optable.h) and the help each table writes. */
int lt__cmd_score(int argc, char **argv);
int lt__cmd_patches(int argc, char **argv);
int lt__cmd_show(int argc, char **argv);
int lt__cmd_report(int argc, char **argv);
int lt__cmd_merge(int argc, char **argv);
int lt__cmd_slurm(int argc, char **argv, const char *exe);
int lt__cli_dataset(int argc, char **argv);
/* The name of dataset mode i (enum lt_dataset_mode), NULL past the last:
 * the first argument of `litmus dataset`. */
const char *lt__dataset_mode_word(int i);
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
/* `dataset` has one table for its modes; each row says its modes. */
extern const struct lt__opt lt__dataset_options[];
void lt__dataset_help(FILE *f, enum lt_dataset_mode mode);
/* `similarity`, built when engine/similarity is (LT_HAVE_SIMILARITY). */
int lt__cmd_similarity(int argc, char **argv);
extern const struct lt__opt lt__similarity_options[];
void lt__similarity_help(FILE *f);

/* The commands main() dispatches to (engine/cli/commands.c), ending
 * with a NULL name: each with its option table (NULL: completion and
 * __defaults, which read their operands themselves). */
struct lt__cli_command {
    const char *name;
    int (*run)(int argc, char **argv);
    const struct lt__opt *options;
    /* The words its first argument is one of (NULL: a file, or anything):
     * first_word(i) for i = 0, 1, ... until it returns NULL.  With
     * by_mode, the word i is a mode, whose options are the table's rows
     * of mode i. */
    const char *(*first_word)(int i);
    int by_mode;
};
extern const struct lt__cli_command lt__cli_commands[];

/* The path of this binary for the Slurm job scripts; PATH must live as
 * long as the process. */
void lt__cli_set_exe(const char *path);

/* Writes the bash completion script of every command to F. */
void lt__cli_completion(FILE *f);

#endif
