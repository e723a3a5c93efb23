/* The commands on a stored run: `litmus show`, `litmus report` and
 * `litmus merge`.  SPDX-License-Identifier: MIT */
#include "engine/cli/cli.h"

#include <stdio.h>
#include <string.h>

#include "common/cliopt.h"

enum { OPT_FORCE = OPT_OWN };

static const char usage_show[] =
    "usage: litmus show MUTANT_ID [--db FILE] [--format text|json]\n"
    "\n"
    "Prints the unified diff of one mutant (an id or a unique prefix of at\n"
    "least 4 characters), its verdict and the test that killed it.\n";

static const char usage_report[] =
    "usage: litmus report [--db FILE] [--format FMT] [--html FILE] [options]\n"
    "\n"
    "Renders the run stored in the database (docs/reports.md).\n"
    "\n"
    "options:\n"
    "      --db FILE          results database (default: .litmus.db)\n"
    "  -f, --format FMT       text (default), json (litmus.score/2),\n"
    "                         stryker (mutation-testing-report-schema 2),\n"
    "                         junit (JUnit XML), sarif (SARIF 2.1.0) or\n"
    "                         github (workflow annotations)\n"
    "      --html FILE        also write a self-contained HTML report\n"
    "      --elements-js FILE mutation-test-elements.js to inline (default:\n"
    "                         npm/ beside the binary, which the build\n"
    "                         fetches, or ../share/litmus/npm after\n"
    "                         make install)\n"
    "      --junit-no-coverage P  how JUnit counts no_coverage: ignore,\n"
    "                         skipped, error or failure (default failure)\n"
    "      --junit-timeout P  ... and timeout (default ignore)\n"
    "      --fail-on-new-survivors FILE  exit 1 when a survivor (survived\n"
    "                         or no_coverage) is not accepted in FILE\n"
    "      --write-survivors FILE  write the survivors to FILE, keeping\n"
    "                         the reasons of those already in it\n"
    "      --reason TEXT      reason recorded for survivors written anew\n"
    "  -h, --help             this text\n"
    "\n"
    "exit codes: 0 ok, 1 a survivor is not in the baseline, 2 usage or\n"
    "input error (no database, bad baseline, HTML prerequisites missing).\n";

static const char usage_merge[] =
    "usage: litmus merge [--force] OUT.db IN.db...\n"
    "\n"
    "Merges the stores of the shards of one run (`litmus score --shard I/N`,\n"
    "one IN per shard, every shard 0..N-1, each complete) into OUT, from\n"
    "which every report reads as from a single run (docs/scale.md).\n"
    "Shards of `litmus dataset` and `litmus patches` merge the same way;\n"
    "their command run again without --shard and with --db OUT then writes\n"
    "the whole output without a run.\n"
    "Refuses, with exit 2 and the reason, inputs from different runs\n"
    "(settings, files or their contents, operators, mutants), overlapping\n"
    "or missing shards and unfinished shards.\n"
    "\n"
    "options:\n"
    "      --force            replace OUT when it exists\n"
    "  -h, --help             this text\n";

const struct option lt__show_longopts[] = {
    {"db", required_argument, NULL, OPT_DB},
    {"format", required_argument, NULL, 'f'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

const struct option lt__report_longopts[] = {
    {"db", required_argument, NULL, OPT_DB},
    {"format", required_argument, NULL, 'f'},
    REPORT_LONGOPTS,
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

const struct option lt__merge_longopts[] = {
    {"force", no_argument, NULL, OPT_FORCE},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};


/* `litmus show` (show = 1) and `litmus report`. */
static int show_or_report(int argc, char **argv, int show)
{
    const char *db = ".litmus.db";
    enum lt_format format = LT_FORMAT_TEXT;
    struct lt_report_opts ro;
    memset(&ro, 0, sizeof(ro));
    int c;
    while ((c = lt_cli_getopt(argc, argv, "f:h",
                              show ? lt__show_longopts
                                   : lt__report_longopts)) != -1) {
        switch (c) {
        case OPT_DB:
            db = optarg;
            break;
        case 'f':
            if (show ? lt__cli_text_or_json(optarg, &format) < 0
                     : lt_format_parse(optarg, &format) < 0)
                return lt_cli_bad_value("--format", optarg,
                                 show ? "text or json"
                                      : "text, json, stryker, junit, sarif "
                                        "or github");
            break;
        case 'h':
            fputs(show ? usage_show : usage_report, stdout);
            return 0;
        default: {
            int r = show ? 0 : lt__cli_report_option(c, optarg, &ro);
            if (r > 0)
                break;
            return 2;
        }
        }
    }
    if (show) {
        if (optind != argc - 1) {
            return lt_cli_usage_error("takes exactly one MUTANT_ID");
        }
        return lt_show(db, argv[optind], format);
    }
    if (optind != argc) {
        return lt_cli_usage_error("takes no operands ('%s')",
                                  argv[optind]);
    }
    return lt_report(db, format, &ro);
}


int lt__cmd_show(int argc, char **argv)
{
    return show_or_report(argc, argv, 1);
}

int lt__cmd_report(int argc, char **argv)
{
    return show_or_report(argc, argv, 0);
}

/* `litmus merge OUT.db IN.db...` with argv[0] = "merge". */
int lt__cmd_merge(int argc, char **argv)
{
    int force = 0, c;
    while ((c = lt_cli_getopt(argc, argv, "h", lt__merge_longopts)) != -1) {
        switch (c) {
        case OPT_FORCE:
            force = 1;
            break;
        case 'h':
            fputs(usage_merge, stdout);
            return 0;
        default:
            return 2;
        }
    }
    if (argc - optind < 2) {
        return lt_cli_usage_error("needs OUT.db and at least one IN.db");
    }
    /* The jobs whose shard stores merge, each asked in turn. */
    static const struct lt_shard_store *const jobs[] = {
        &lt_score_shard_store, &lt_dataset_shard_store,
        &lt_patches_shard_store};
    return lt_merge(argv[optind], argv + optind + 1,
                    (size_t)(argc - optind - 1), force, jobs,
                    sizeof(jobs) / sizeof(*jobs));
}

