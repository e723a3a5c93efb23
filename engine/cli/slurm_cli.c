/* `litmus slurm`: `score` as a Slurm array job of shards and a merge.
 * SPDX-License-Identifier: MIT */
#include "engine/cli/cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cliopt.h"
#include "common/xmalloc.h"

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
    "options:\n"
    "      --shards N         number of array tasks (1..100000)\n"
    "      --dir DIR          where scripts, stores and outputs go\n"
    "                         (default litmus-slurm)\n"
    "      --partition P      #SBATCH --partition\n"
    "      --time T           #SBATCH --time (e.g. 2:00:00), per job\n"
    "      --cpus-per-task C  #SBATCH --cpus-per-task for the shards; each\n"
    "                         shard runs that many runners unless\n"
    "                         SCORE_ARGS set --jobs\n"
    "      --sbatch-arg OPT   one more #SBATCH option, e.g. --mem=4G\n"
    "                         (repeatable)\n"
    "      --sbatch PROG      the sbatch program (default sbatch)\n"
    "      --no-submit        write the scripts and print the sbatch\n"
    "                         commands instead of running them\n"
    "  -h, --help             this text\n";

const struct option lt__slurm_longopts[] = {
    {"shards", required_argument, NULL, OPT_SHARDS},
    {"dir", required_argument, NULL, OPT_DIR},
    {"partition", required_argument, NULL, OPT_PARTITION},
    {"time", required_argument, NULL, OPT_TIME},
    {"cpus-per-task", required_argument, NULL, OPT_CPUS},
    {"sbatch-arg", required_argument, NULL, OPT_SBATCH_ARG},
    {"sbatch", required_argument, NULL, OPT_SBATCH},
    {"no-submit", no_argument, NULL, OPT_NO_SUBMIT},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};


/* `litmus slurm ...` with argv[0] = "slurm"; exe is this binary, which
 * the job scripts run. */
int lt__cmd_slurm(int argc, char **argv, const char *exe)
{
    struct lt_slurm_opts o;
    lt_slurm_opts_init(&o);
    o.exe = exe;
    char **extra = xcalloc((size_t)argc + 1, sizeof(char *));
    int c, code = 2;
    long long lv;
    /* "+": stop at `score`; what follows is the score command's. */
    while ((c = lt_cli_getopt(argc, argv, "+h", lt__slurm_longopts)) != -1) {
        switch (c) {
        case OPT_SHARDS:
            if (lt_cli_long("--shards", optarg, 1, LT_SHARD_MAX, &lv) < 0) {
                code = 2;
                goto out;
            }
            o.shards = (unsigned)lv;
            break;
        case OPT_DIR:
            o.dir = optarg;
            break;
        case OPT_PARTITION:
            o.partition = optarg;
            break;
        case OPT_TIME:
            o.time = optarg;
            break;
        case OPT_CPUS:
            if (lt_cli_long("--cpus-per-task", optarg, 1, 4096, &lv) < 0) {
                code = 2;
                goto out;
            }
            o.cpus_per_task = (unsigned)lv;
            break;
        case OPT_SBATCH_ARG:
            extra[o.n_sbatch_args++] = optarg;
            break;
        case OPT_SBATCH:
            o.sbatch = optarg;
            break;
        case OPT_NO_SUBMIT:
            o.no_submit = 1;
            break;
        case 'h':
            fputs(usage_slurm, stdout);
            code = 0;
            goto out;
        default:
            goto out;
        }
    }
    o.sbatch_args = extra;
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
    free(extra);
    return code;
}

