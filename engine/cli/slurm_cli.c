/* `litmus slurm`: `score` as a Slurm array job of shards and a merge.
 * SPDX-License-Identifier: MIT */
#include "engine/cli/cli.h"

#include <stdio.h>
#include <string.h>

#include "common/cliopt.h"

enum {
    OPT_SHARDS = OPT_OWN, OPT_DIR, OPT_PARTITION, OPT_TIME, OPT_CPUS,
    OPT_SBATCH_ARG, OPT_SBATCH, OPT_NO_SUBMIT,
};

static const char usage_slurm[] =
    "usage: litmus slurm --shards N [options] score [SCORE_ARGS...]\n"
    "                    [-- PYTEST_ARGS]\n"
    "\n"
    "Runs `litmus score SCORE_ARGS` on a Slurm cluster as an array job of N\n"
    "shards (task I runs --shard I/N, reading SLURM_ARRAY_TASK_ID) and a\n"
    "merge job that starts once every shard has succeeded\n"
    "(--dependency=afterok).  Writes DIR/shards.sbatch and DIR/merge.sbatch\n"
    "and submits them with `sbatch --parsable`.  Submitting again runs only\n"
    "the shards whose store (DIR/shard-I.db) is not complete, then the\n"
    "merge.  The result is DIR/merged.db, its text report DIR/report.txt;\n"
    "each job's output is in DIR/shard-I.out and DIR/merge.out.\n"
    "Run it from where you would run `litmus score` (docs/scale.md).\n"
    "\n"
    "options:\n";

#define S struct lt_slurm_opts
/* The options of `litmus slurm`, in the order of the help. */
const struct lt__opt lt__slurm_options[] = {
    {.name = "shards", .code = OPT_SHARDS, .kind = LT__OPT_INT, .arg = "N",
     .lo = 1, .hi = LT_SHARD_MAX, LT__FIELD(S, shards),
     .help = "number of array tasks (1..100000)"},
    {.name = "dir", .code = OPT_DIR, .kind = LT__OPT_STRING, .arg = "DIR",
     .flags = LT__OPT_DEFAULT, LT__FIELD(S, dir),
     .help = "where scripts, stores and outputs go\n"
             "(default litmus-slurm)"},
    {.name = "partition", .code = OPT_PARTITION, .kind = LT__OPT_STRING,
     .arg = "P", LT__FIELD(S, partition), .help = "#SBATCH --partition"},
    {.name = "time", .code = OPT_TIME, .kind = LT__OPT_STRING, .arg = "T",
     LT__FIELD(S, time), .help = "#SBATCH --time (e.g. 2:00:00), per job"},
    {.name = "cpus-per-task", .code = OPT_CPUS, .kind = LT__OPT_INT,
     .arg = "C", .lo = 1, .hi = 4096, LT__FIELD(S, cpus_per_task),
     .help = "#SBATCH --cpus-per-task for the shards; each\n"
             "shard runs that many runners unless\n"
             "SCORE_ARGS set --jobs"},
    {.name = "sbatch-arg", .code = OPT_SBATCH_ARG, .kind = LT__OPT_LIST,
     .arg = "OPT", LT__LIST(S, sbatch_args, n_sbatch_args),
     .help = "one more #SBATCH option, e.g. --mem=4G\n"
             "(repeatable)"},
    {.name = "sbatch", .code = OPT_SBATCH, .kind = LT__OPT_STRING,
     .flags = LT__OPT_DEFAULT, .arg = "PROG", LT__FIELD(S, sbatch),
     .help = "the sbatch program (default sbatch)"},
    {.name = "no-submit", .code = OPT_NO_SUBMIT, .kind = LT__OPT_FLAG,
     .lo = 1, LT__FIELD(S, no_submit),
     .help = "write the scripts and print the sbatch\n"
             "commands instead of running them"},
    {LT__HELP_ROW},
    {.name = NULL},
};
#undef S

/* Contract: see cli.h. */
void lt__slurm_help(FILE *f)
{
    fputs(usage_slurm, f);
    lt__opt_help(f, lt__slurm_options, -1);
}

/* `litmus slurm ...` with argv[0] = "slurm"; exe is this binary, which
 * the job scripts run. */
int lt__cmd_slurm(int argc, char **argv, const char *exe)
{
    struct lt_slurm_opts o;
    lt_slurm_opts_init(&o);
    o.exe = exe;
    struct lt__opt_parser p;
    int c, code = 2;
    /* "+": stop at `score`; what follows is the score command's. */
    lt__opt_start(&p, lt__slurm_options, "+", -1, argc, argv, &o);
    while ((c = lt__opt_next(&p)) > 0) {
        lt__slurm_help(stdout); /* only --help is the command's */
        code = 0;
        goto out;
    }
    if (c < 0)
        goto out;
    if (optind >= argc || strcmp(argv[optind], "score") != 0) {
        lt_cli_usage_error("runs `score`: litmus slurm --shards N "
                           "[options] score PATHS...");
        goto out;
    }
    if (o.shards == 0) {
        lt_cli_usage_error("--shards N is required");
        goto out;
    }
    o.score_args = argv + optind + 1;
    o.n_score_args = (size_t)(argc - optind - 1);
    for (size_t i = 0; i < o.n_score_args; i++) {
        const char *a = o.score_args[i];
        if (strcmp(a, "--") == 0)
            break;
        if (strcmp(a, "-j") == 0 || strncmp(a, "-j", 2) == 0 ||
            strcmp(a, "--jobs") == 0 || strncmp(a, "--jobs=", 7) == 0)
            o.has_jobs = 1;
    }
    code = lt_slurm(&o);
out:
    lt__opt_end(&p);
    return code;
}

