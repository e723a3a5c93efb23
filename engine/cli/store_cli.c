/* The commands on a stored run: `litmus show`, `litmus report` and
 * `litmus merge`.  SPDX-License-Identifier: MIT */
#include "engine/cli/cli.h"

#include <stdio.h>
#include <string.h>

#include "common/cliopt.h"

enum { OPT_FORCE = OPT_OWN };

/* The options of the three commands, in one struct for their tables. */
struct stored_opts {
    const char *db;
    enum lt_format format;
    struct lt_report_opts report;
    int force;
};

static const char usage_show[] =
    "usage: litmus show MUTANT_ID [--db FILE] [--format text|json]\n"
    "\n"
    "Prints the unified diff of one mutant (an id or a unique prefix of at\n"
    "least 4 characters), its verdict and the test that killed it.\n"
    "\n"
    "options:\n";

static const char usage_report[] =
    "usage: litmus report [--db FILE] [--format FMT] [--html FILE] [options]\n"
    "\n"
    "Renders the run stored in the database (docs/reports.md).\n"
    "\n"
    "options:\n";

static const char usage_report_end[] =
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
    "options:\n";

#define S struct stored_opts
#define DB_ROW                                                             \
    .name = "db", .code = OPT_DB, .kind = LT__OPT_STRING, .arg = "FILE",   \
    LT__FIELD(S, db), .help = "results database (default: .litmus.db)"

/* The options of `litmus show`, in the order of the help. */
const struct lt__opt lt__show_options[] = {
    {DB_ROW},
    {LT__FORMAT_TEXT_OR_JSON(S), .help = "text (default) or json"},
    {LT__HELP_ROW},
    {.name = NULL},
};

/* The options of `litmus report`, in the order of the help. */
const struct lt__opt lt__report_options[] = {
    {DB_ROW},
    {LT__FORMAT_ANY(S),
     .help = "text (default), json (litmus.score/2),\n"
             "stryker (mutation-testing-report-schema 2),\n"
             "junit (JUnit XML), sarif (SARIF 2.1.0) or\n"
             "github (workflow annotations)"},
    {LT__REPORT_HTML(S), .help = "also write a self-contained HTML report"},
    {LT__REPORT_ELEMENTS_JS(S),
     .help = "mutation-test-elements.js to inline (default:\n"
             "npm/ beside the binary, which the build\n"
             "fetches, or ../share/litmus/npm after\n"
             "make install)"},
    {LT__REPORT_JUNIT_NO_COVERAGE(S),
     .help = "how JUnit counts no_coverage: ignore,\n"
             "skipped, error or failure (default failure)"},
    {LT__REPORT_JUNIT_TIMEOUT(S), .help = "... and timeout (default ignore)"},
    {LT__REPORT_SURVIVORS_IN(S),
     .help = "exit 1 when a survivor (survived\n"
             "or no_coverage) is not accepted in FILE"},
    {LT__REPORT_SURVIVORS_OUT(S),
     .help = "write the survivors to FILE, keeping\n"
             "the reasons of those already in it"},
    {LT__REPORT_REASON(S),
     .help = "reason recorded for survivors written anew"},
    {LT__HELP_ROW},
    {.name = NULL},
};

/* The options of `litmus merge`. */
const struct lt__opt lt__merge_options[] = {
    {.name = "force", .code = OPT_FORCE, .kind = LT__OPT_FLAG, .lo = 1,
     LT__FIELD(S, force), .help = "replace OUT when it exists"},
    {LT__HELP_ROW},
    {.name = NULL},
};
#undef DB_ROW
#undef S

/* Contract: see cli.h. */
void lt__show_help(FILE *f)
{
    fputs(usage_show, f);
    lt__opt_help(f, lt__show_options, -1);
}

/* Contract: see cli.h. */
void lt__report_help(FILE *f)
{
    fputs(usage_report, f);
    lt__opt_help(f, lt__report_options, -1);
    fputs(usage_report_end, f);
}

/* Contract: see cli.h. */
void lt__merge_help(FILE *f)
{
    fputs(usage_merge, f);
    lt__opt_help(f, lt__merge_options, -1);
}

/* The options of `litmus show`, `report` or `merge` (TABLE) into *O:
 * 0 to go on, else the exit code (after --help, 0). */
static int parse(int argc, char **argv, const struct lt__opt *table,
                 void (*help)(FILE *f), struct stored_opts *o)
{
    memset(o, 0, sizeof(*o));
    o->db = ".litmus.db";
    o->format = LT_FORMAT_TEXT;
    struct lt__opt_parser p;
    lt__opt_start(&p, table, "", -1, argc, argv, o);
    int c = lt__opt_next(&p); /* only --help is a COMMAND row */
    lt__opt_end(&p);
    if (c > 0)
        help(stdout);
    return c > 0 ? -1 : c < 0 ? 2 : 0;
}

/* `litmus show ID` with argv[0] = "show". */
int lt__cmd_show(int argc, char **argv)
{
    struct stored_opts o;
    int rc = parse(argc, argv, lt__show_options, lt__show_help, &o);
    if (rc)
        return rc < 0 ? 0 : rc;
    if (optind != argc - 1)
        return lt_cli_usage_error("takes exactly one MUTANT_ID");
    return lt_show(o.db, argv[optind], o.format);
}

/* `litmus report` with argv[0] = "report". */
int lt__cmd_report(int argc, char **argv)
{
    struct stored_opts o;
    int rc = parse(argc, argv, lt__report_options, lt__report_help, &o);
    if (rc)
        return rc < 0 ? 0 : rc;
    if (optind != argc)
        return lt_cli_usage_error("takes no operands ('%s')", argv[optind]);
    return lt_report(o.db, o.format, &o.report);
}

/* `litmus merge OUT.db IN.db...` with argv[0] = "merge". */
int lt__cmd_merge(int argc, char **argv)
{
    struct stored_opts o;
    int rc = parse(argc, argv, lt__merge_options, lt__merge_help, &o);
    if (rc)
        return rc < 0 ? 0 : rc;
    if (argc - optind < 2)
        return lt_cli_usage_error("needs OUT.db and at least one IN.db");
    /* The jobs whose shard stores merge, each asked in turn. */
    static const struct lt_shard_store *const jobs[] = {
        &lt_score_shard_store, &lt_dataset_shard_store,
        &lt_patches_shard_store};
    return lt_merge(argv[optind], argv + optind + 1,
                    (size_t)(argc - optind - 1), o.force, jobs,
                    sizeof(jobs) / sizeof(*jobs));
}
