/* `litmus dataset MODE ...`: the options and help of the dataset modes.
 * SPDX-License-Identifier: MIT */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cliopt.h"
#include "common/log.h"
#include "engine/cli/cli.h"
#include "engine/engine.h"
#include "lt_py_constants.h" /* generated: FAULT_KINDS */

static const char usage_dataset[] =
    "usage: litmus dataset MODE [INPUT...] [options]\n"
    "\n"
    "Builds datasets of mutated programs for evaluating LLMs; every item is\n"
    "verified by running it in the sandbox (docs/datasets.md).  Reads JSON\n"
    "Lines records (the INPUT files, or stdin) and writes JSON Lines.\n"
    "\n"
    "modes:\n"
    "  select   Algorithm 1: for each record {id, function_name, code,\n"
    "           input, output}, the mutant that runs cleanly, gives another\n"
    "           output, and executes the lines most like the original's\n"
    "  typed    statement, value and decision mutants in the first, middle\n"
    "           and last third of each program, each shown to change\n"
    "           behaviour\n"
    "  faults   one-line faults (OffByOne, MisplacedReturn, BooleanLogic,\n"
    "           OperatorSwap) in a chosen quarter, each shown to change\n"
    "           behaviour\n"
    "  rewrite  semantic-preserving rewrites (dead code, misleading\n"
    "           comments and names, function reordering), each shown to\n"
    "           keep behaviour; a fault line is carried and checked\n"
    "\n"
    "`litmus dataset MODE --help` lists the options of a mode.\n"
    "exit codes: 0 ok, 2 usage or input error, 3 engine error.\n";

static const char usage_select[] =
    "usage: litmus dataset select [RECORDS.jsonl...] [options]\n"
    "\n"
    "Algorithm 1 (shared/SEEDS.md section 3).  Each record is {id,\n"
    "function_name, code, input, output}, `input` a call expression such as\n"
    "\"f(1, 2)\" (or the arguments of function_name).  Every single-change\n"
    "mutant runs on the input with line tracing; of those that finish\n"
    "without error and whose output differs from the original's (repr or\n"
    "exact type), the one whose executed lines are most like the\n"
    "original's (Jaccard; ties: earlier in the code, then mutant id) is\n"
    "written after the original record, with is_mutated, original_id and\n"
    "mutation_info {mutation_id, coverage_similarity}.\n"
    "\n"
    "options:\n";

static const char usage_typed[] =
    "usage: litmus dataset typed [PROGRAMS...] [options]\n"
    "\n"
    "Mutants labelled statement (delete, duplicate, swap), value\n"
    "(constants, indices) and decision (operator swaps), in the first,\n"
    "middle or last third of each program (shared/SEEDS.md section 1).\n"
    "For each (type, third) cell, K distinct mutants in a seeded order, each\n"
    "shown to change behaviour on the tests or inputs (the witness is\n"
    "recorded), written with the original code and a unified diff.\n"
    "\n"
    "options:\n";

static const char usage_faults[] =
    "usage: litmus dataset faults [PROGRAMS...] [options]\n"
    "\n"
    "One-line faults (shared/SEEDS.md section 4): OffByOne,\n"
    "MisplacedReturn, BooleanLogic, OperatorSwap, in a chosen quarter of\n"
    "each program, each shown to change behaviour (a test fails, or an\n"
    "output differs).  Records carry the fault line, the faulty and the\n"
    "original code, and the witness; `litmus dataset rewrite` reads them.\n"
    "\n"
    "options:\n";

static const char usage_rewrite[] =
    "usage: litmus dataset rewrite [PROGRAMS...] [options]\n"
    "\n"
    "Semantic-preserving rewrites (shared/SEEDS.md section 4): d dead code,\n"
    "c misleading comments, v misleading renames, r function reordering,\n"
    "composed like functions (c,v,d = c(v(d(P)))).  Every variant is run:\n"
    "it must behave exactly like its input (every test outcome, or every\n"
    "output, the same); others are dropped and counted.  A record from\n"
    "`litmus dataset faults` carries fault_line and original_code: the\n"
    "fault line is tracked through the rewrites and checked against the\n"
    "same rewrites of the original code (they must differ on that line\n"
    "alone).\n"
    "\n"
    "options:\n";

enum {
    O_NO_DB = OPT_OWN, O_SUMMARY, O_SEED, O_TIMEOUT, O_FLOOR, O_OPERATORS,
    O_ALL, O_DETAILS, O_PER_CELL, O_PER_PROGRAM, O_QUARTER, O_KINDS, O_OPS,
    O_STRENGTH, O_VARIANTS, O_VOCAB, O_NO_VERIFY, O_LANG,
};

static int set_seed(const struct lt__opt *e, void *opts, const char *s,
                    const char **want)
{
    (void)e, (void)want;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s || *end || s[0] == '-')
        return -1;
    ((struct lt_dataset_opts *)opts)->seed = v;
    return 0;
}

/* --quarter: 1..4, or (faults) "all". */
static int set_quarter(const struct lt__opt *e, void *opts, const char *s,
                       const char **want)
{
    (void)e, (void)want;
    struct lt_dataset_opts *o = opts;
    char *end;
    if (strcmp(s, "all") == 0 && o->mode == LT_DS_FAULTS) {
        o->quarter = -1;
        return 0;
    }
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < 1 || v > 4)
        return -1;
    o->quarter = (int)v;
    return 0;
}

static int set_lang(const struct lt__opt *e, void *opts, const char *s,
                    const char **want)
{
    (void)e, (void)want;
    struct lt_dataset_opts *o = opts;
    if (strcmp(s, "python") == 0)
        o->lang = LT_LANG_PYTHON;
    else if (strcmp(s, "java") == 0)
        o->lang = LT_LANG_JAVA;
    else
        return -1;
    return 0;
}

static int check_kinds(const char *list);
static int check_ops(const char *list);

/* --kinds and --ops: checks that print their own usage error. */
static int checked_kinds(const struct lt__opt *e, void *opts, const char *s,
                         const char **want)
{
    (void)e, (void)opts, (void)want;
    return check_kinds(s);
}

static int checked_ops(const struct lt__opt *e, void *opts, const char *s,
                       const char **want)
{
    (void)e, (void)opts, (void)want;
    return check_ops(s);
}

#define D struct lt_dataset_opts
#define SELECT (1u << LT_DS_SELECT)
#define TYPED (1u << LT_DS_TYPED)
#define FAULTS (1u << LT_DS_FAULTS)
#define REWRITE (1u << LT_DS_REWRITE)
/* The options of every mode, in the order of the modes' help: each
 * mode's own, the programs' (not select), the common ones. */
const struct lt__opt lt__dataset_options[] = {
    {.name = "operators", .code = O_OPERATORS, .kind = LT__OPT_STRING,
     .flags = LT__OPT_DEFAULT, .arg = "SET", LT__FIELD(D, operators),
     .modes = SELECT,
     .help = "algo1 (default), mutmut, or a comma list of\n"
             "operator names"},
    {.name = "all", .code = O_ALL, .kind = LT__OPT_FLAG, .lo = 1,
     LT__FIELD(D, all), .modes = SELECT,
     .help = "every valid mutant, most similar first"},
    {.name = "details", .code = O_DETAILS, .kind = LT__OPT_FLAG, .lo = 1,
     LT__FIELD(D, details), .modes = SELECT,
     .help = "add operator, category, line, original and\n"
             "replacement to mutation_info"},
    {.name = "tests", .code = 't', .kind = LT__OPT_STRING, .arg = "T",
     LT__FIELD(D, tests), .modes = TYPED | FAULTS | REWRITE,
     .help = "tests of programs whose record names none"},
    {.name = "per-cell", .code = O_PER_CELL, .kind = LT__OPT_INT, .arg = "K",
     .flags = LT__OPT_DEFAULT, .lo = 1, .hi = 10000,
     LT__FIELD(D, per_cell), .modes = TYPED,
     .help = "mutants per (type, third) (default 1)"},
    {.name = "quarter", .code = O_QUARTER, .kind = LT__OPT_CUSTOM,
     .arg = "Q", .set = set_quarter, .want = "1..4", .modes = FAULTS,
     .help = "1..4, or all (N faults in each quarter);\n"
             "default: anywhere"},
    {.name = "per-program", .code = O_PER_PROGRAM, .kind = LT__OPT_INT,
     .flags = LT__OPT_DEFAULT, .arg = "N", .lo = 1, .hi = 10000,
     LT__FIELD(D, per_program),
     .modes = FAULTS,
     .help = "faults per program (and quarter) (default 1)"},
    {.name = "kinds", .code = O_KINDS, .kind = LT__OPT_STRING,
     .flags = LT__OPT_SAYS_WHY, .arg = "LIST", .set = checked_kinds,
     LT__FIELD(D, kinds),
     .modes = FAULTS,
     .help = "comma list of fault kinds (default: all four)"},
    {.name = "ops", .code = O_OPS, .kind = LT__OPT_STRING,
     .flags = LT__OPT_SAYS_WHY | LT__OPT_DEFAULT, .arg = "LIST",
     .set = checked_ops, LT__FIELD(D, ops),
     .modes = REWRITE, .help = "composition of d, c, v, r (default c,v,d)"},
    {.name = "strength", .code = O_STRENGTH, .kind = LT__OPT_INT, .arg = "N",
     .flags = LT__OPT_DEFAULT, .lo = 1, .hi = 8, LT__FIELD(D, strength), .modes = REWRITE,
     .help = "applications of each op, 1..8 (default 1)"},
    {.name = "quarter", .code = O_QUARTER, .kind = LT__OPT_CUSTOM,
     .arg = "Q", .set = set_quarter, .want = "1..4", .modes = REWRITE,
     .help = "make every change in quarter 1..4"},
    {.name = "variants", .code = O_VARIANTS, .kind = LT__OPT_INT, .arg = "N",
     .flags = LT__OPT_DEFAULT, .lo = 1, .hi = 10000000, LT__FIELD(D, variants), .modes = REWRITE,
     .help = "variants per program (default 1)"},
    {.name = "vocab", .code = O_VOCAB, .kind = LT__OPT_STRING, .arg = "F",
     LT__FIELD(D, vocab), .modes = REWRITE,
     .help = "JSON {\"names\": [...], \"comments\": [...],\n"
             "\"dead_code\": [...]} (e.g. written by an LLM)\n"
             "instead of the built-in texts"},
    {.name = "no-verify", .code = O_NO_VERIFY, .kind = LT__OPT_FLAG,
     .lo = 0, LT__FIELD(D, verify), .modes = REWRITE,
     .help = "generate only (no runs; for benchmarks)"},
    {.name = "lang", .code = O_LANG, .kind = LT__OPT_CUSTOM, .arg = "L",
     .set = set_lang, .want = "python or java",
     .modes = TYPED | FAULTS | REWRITE,
     .section =
        "\n"
        "Records are programs: {\"id\", \"code\" or \"path\", \"tests\",\n"
        "\"inputs\"}.  \"path\" is the program file (relative paths are\n"
        "relative to the JSON Lines file), \"tests\" a test file or folder for\n"
        "pytest (needs \"path\": the module the tests import), \"inputs\" call\n"
        "expressions such as \"f(1, 2)\".  A .py INPUT is one program with the\n"
        "tests of --tests.\n"
        "\n",
     .help = "python or java (default: java when the INPUT\n"
             "or the first record's path ends in .java).\n"
             "Java (faults, rewrite): a .java program and\n"
             "JUnit 4 tests (a test file or source root),\n"
             "or inputs such as \"Foo.bar(3, new int[]{1})\",\n"
             "or neither (verified by compiling only);\n"
             "compiled and run by warm JVMs in the sandbox"},
    {.name = "out", .code = 'o', .kind = LT__OPT_STRING, .arg = "F",
     LT__FIELD(D, out), .section = "\ncommon options:\n",
     .help = "output JSON Lines (default: stdout)"},
    {.name = "seed", .code = O_SEED, .kind = LT__OPT_CUSTOM, .arg = "N",
     .flags = LT__OPT_DEFAULT, LT__FIELD(D, seed), .set = set_seed, .want = "a non-negative integer",
     .help = "seed of every random choice (default 0)"},
    {LT__RUN_JOBS(D), .help = "parallel runners (default: number of cores)"},
    {LT__RUN_DB(D), .flags = LT__OPT_DEFAULT, .arg = "F",
     .help = "store of finished runs: the same command again\n"
             "resumes an interrupted run (default\n"
             ".litmus-dataset.db)"},
    {.name = "no-db", .code = O_NO_DB, .kind = LT__OPT_COMMAND,
     .help = "keep nothing"},
    {LT__RUN_SHARD(D),
     .help = "only the programs dealt to slice I of N (by\n"
             "id); merge the shards' stores with `litmus\n"
             "merge`, then run the command without --shard\n"
             "on the merged store (docs/scale.md)"},
    {.name = "summary", .code = O_SUMMARY, .kind = LT__OPT_STRING,
     .arg = "F", LT__FIELD(D, summary),
     .help = "write the JSON summary (counts per operator,\n"
             "category and location, drops, throughput) to\n"
             "F; a short summary always goes to stderr"},
    {.name = "timeout", .code = O_TIMEOUT, .kind = LT__OPT_REAL, .arg = "S",
     .flags = LT__OPT_DEFAULT, .lo = 0.01, .hi = 86400, LT__FIELD(D, timeout),
     .help = "limit per call of an original program\n"
             "(default 5)"},
    {LT__RUN_TIMEOUT_FACTOR(D), .flags = LT__OPT_DEFAULT, .arg = "X",
     .help = "a variant's limit: X x the original's time\n"
             "(default 5) ..."},
    {LT__RUN_TIMEOUT_CONST(D), .flags = LT__OPT_DEFAULT,
     .help = "... plus S seconds (default " STR(LT_DATASET_TIMEOUT_CONST)
             ")"},
    {LT__RUN_MEMORY(D), .flags = LT__OPT_DEFAULT,
     .help = "address-space limit of a child (default "
             LT_MEMORY_MB_DEFAULT_TEXT ")"},
    {.name = "floor", .code = O_FLOOR, .kind = LT__OPT_FLAG, .lo = 1,
     LT__FIELD(D, floor),
     .help = "after the run, measure the runners' floor for\n"
             "the same work (benchmarks)"},
    {LT__RUN_PROGRESS(D),
     .help = LT__RUN_PROGRESS_HELP},
    {LT__RUN_NO_PROGRESS(D)},
    {LT__HELP_ROW},
    {.name = NULL},
};
#undef SELECT
#undef TYPED
#undef FAULTS
#undef REWRITE
#undef D

/* Contract: see cli.h. */
const char *lt__dataset_mode_word(int i)
{
    _Static_assert(LT_DS_SELECT == 0, "a mode's word is its enum value");
    return i >= LT_DS_SELECT && i <= LT_DS_REWRITE
               ? lt_dataset_mode_name((enum lt_dataset_mode)i)
               : NULL;
}

/* Contract: see cli.h. */
void lt__dataset_help(FILE *f, enum lt_dataset_mode m)
{
    static const char *const texts[] = {usage_select, usage_typed,
                                        usage_faults, usage_rewrite};
    fputs(texts[m], f);
    lt__opt_help(f, lt__dataset_options, (int)m);
}

/* The fault kinds of operators/ds_common.py (FAULT_KINDS). */
static const char *const kinds[] = {LT_PY_DS_FAULT_KINDS, NULL};

static int check_kinds(const char *list)
{
    const char *s = list;
    while (*s) {
        const char *e = strchr(s, ',');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        int ok = 0;
        for (int i = 0; kinds[i] && !ok; i++)
            ok = strlen(kinds[i]) == n && strncasecmp(kinds[i], s, n) == 0;
        if (!ok) {
            char known[256] = "";
            for (int i = 0; kinds[i]; i++)
                snprintf(known + strlen(known), sizeof(known) - strlen(known),
                         "%s%s", i ? ", " : "", kinds[i]);
            lt_cli_usage_error("--kinds: unknown fault kind '%.*s' (kinds: %s)",
                               (int)n, s, known);
            return -1;
        }
        s += n + (e != NULL);
    }
    return 0;
}

static int check_ops(const char *list)
{
    int any = 0;
    for (const char *s = list; *s; s++) {
        if (*s == ',' || *s == ' ')
            continue;
        if (!strchr("dcvr", *s) || (s[1] && s[1] != ',' && s[1] != ' ' &&
                                    strchr(list, ','))) {
            lt_cli_usage_error("--ops: '%s' is not a composition of d (dead code), c "
                     "(comments), v (renames), r (reordering), e.g. c,v,d",
                     list);
            return -1;
        }
        any = 1;
    }
    if (!any) {
        lt_cli_usage_error("--ops: empty composition (e.g. c,v,d)");
        return -1;
    }
    return 0;
}

/* Contract: see cli.h. */
int lt__cli_dataset(int argc, char **argv)
{
    if (argc < 2)
        return lt_cli_usage_error("no MODE given (select, typed, faults, "
                                  "rewrite)");
    const char *mode = argv[1];
    if (strcmp(mode, "-h") == 0 || strcmp(mode, "--help") == 0 ||
        strcmp(mode, "help") == 0) {
        fputs(usage_dataset, stdout);
        return 0;
    }
    struct lt_dataset_opts o;
    lt_dataset_opts_init(&o);
    int found = 0;
    for (int m = LT_DS_SELECT; m <= LT_DS_REWRITE && !found; m++) {
        if (strcmp(mode, lt_dataset_mode_name((enum lt_dataset_mode)m)) == 0) {
            o.mode = (enum lt_dataset_mode)m;
            found = 1;
        }
    }
    if (!found) {
        return lt_cli_usage_error("unknown mode '%s' (select, typed, "
                                  "faults, rewrite)", mode);
    }
    char command[64];
    snprintf(command, sizeof(command), "dataset %s", mode);
    lt_cli_set_command(command);
    argc--;
    argv++;
    optind = 0;
    struct lt__opt_parser p;
    lt__opt_start(&p, lt__dataset_options, "", (int)o.mode, argc, argv, &o);
    int c;
    while ((c = lt__opt_next(&p)) > 0) {
        if (c == 'h') {
            lt__opt_end(&p);
            lt__dataset_help(stdout, o.mode);
            return 0;
        }
        o.run.db = NULL; /* --no-db, the other COMMAND row */
    }
    lt__opt_end(&p);
    if (c < 0)
        return 2;
    if (optind < argc) {
        o.inputs = argv + optind;
        o.n_inputs = (size_t)(argc - optind);
    }
    if (o.floor && !o.verify) {
        lt_error("--floor measures verification runs: drop --no-verify");
        return 2;
    }
    o.debug = lt_log_get_level() >= LT_LOG_DEBUG;
    return lt_dataset(&o);
}
