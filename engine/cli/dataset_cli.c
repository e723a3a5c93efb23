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

static const char usage_common[] =
    "\n"
    "common options:\n"
    "  -o, --out F            output JSON Lines (default: stdout)\n"
    "      --seed N           seed of every random choice (default 0)\n"
    "  -j, --jobs N           parallel runners (default: number of cores)\n"
    "      --db F             store of finished runs: the same command again\n"
    "                         resumes an interrupted run (default\n"
    "                         .litmus-dataset.db)\n"
    "      --no-db            keep nothing\n"
    "      --shard I/N        only the programs dealt to slice I of N (by\n"
    "                         id); merge the shards' stores with `litmus\n"
    "                         merge`, then run the command without --shard\n"
    "                         on the merged store (docs/scale.md)\n"
    "      --summary F        write the JSON summary (counts per operator,\n"
    "                         category and location, drops, throughput) to\n"
    "                         F; a short summary always goes to stderr\n"
    "      --timeout S        limit per call of an original program\n"
    "                         (default 5)\n"
    "      --timeout-factor X a variant's limit: X x the original's time\n"
    "                         (default 5) ...\n"
    "      --timeout-const S  ... plus S seconds (default "
    STR(LT_DATASET_TIMEOUT_CONST) ")\n"
    "      --memory-mb N      address-space limit of a child (default "
    LT_MEMORY_MB_DEFAULT_TEXT ")\n"
    "      --floor            after the run, measure the runners' floor for\n"
    "                         the same work (benchmarks)\n"
    "      --progress / --no-progress  progress on stderr with the time\n"
    "                         left (default: a live line on a terminal, a\n"
    "                         plain line every 30 s otherwise; --progress:\n"
    "                         the live line anywhere)\n"
    "  -h, --help             this text\n";

static const char usage_programs[] =
    "\n"
    "Records are programs: {\"id\", \"code\" or \"path\", \"tests\",\n"
    "\"inputs\"}.  \"path\" is the program file (relative paths are\n"
    "relative to the JSON Lines file), \"tests\" a test file or folder for\n"
    "pytest (needs \"path\": the module the tests import), \"inputs\" call\n"
    "expressions such as \"f(1, 2)\".  A .py INPUT is one program with the\n"
    "tests of --tests.\n"
    "\n"
    "      --lang L           python or java (default: java when the INPUT\n"
    "                         or the first record's path ends in .java).\n"
    "                         Java (faults, rewrite): a .java program and\n"
    "                         JUnit 4 tests (a test file or source root),\n"
    "                         or inputs such as \"Foo.bar(3, new int[]{1})\",\n"
    "                         or neither (verified by compiling only);\n"
    "                         compiled and run by warm JVMs in the sandbox\n";

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
    "options:\n"
    "      --operators SET    algo1 (default), mutmut, or a comma list of\n"
    "                         operator names\n"
    "      --all              every valid mutant, most similar first\n"
    "      --details          add operator, category, line, original and\n"
    "                         replacement to mutation_info\n";

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
    "options:\n"
    "  -t, --tests T          tests of programs whose record names none\n"
    "      --per-cell K       mutants per (type, third) (default 1)\n";

static const char usage_faults[] =
    "usage: litmus dataset faults [PROGRAMS...] [options]\n"
    "\n"
    "One-line faults (shared/SEEDS.md section 4): OffByOne,\n"
    "MisplacedReturn, BooleanLogic, OperatorSwap, in a chosen quarter of\n"
    "each program, each shown to change behaviour (a test fails, or an\n"
    "output differs).  Records carry the fault line, the faulty and the\n"
    "original code, and the witness; `litmus dataset rewrite` reads them.\n"
    "\n"
    "options:\n"
    "  -t, --tests T          tests of programs whose record names none\n"
    "      --quarter Q        1..4, or all (N faults in each quarter);\n"
    "                         default: anywhere\n"
    "      --per-program N    faults per program (and quarter) (default 1)\n"
    "      --kinds LIST       comma list of fault kinds (default: all four)\n";

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
    "options:\n"
    "  -t, --tests T          tests of programs whose record names none\n"
    "      --ops LIST         composition of d, c, v, r (default c,v,d)\n"
    "      --strength N       applications of each op, 1..8 (default 1)\n"
    "      --quarter Q        make every change in quarter 1..4\n"
    "      --variants N       variants per program (default 1)\n"
    "      --vocab F          JSON {\"names\": [...], \"comments\": [...],\n"
    "                         \"dead_code\": [...]} (e.g. written by an LLM)\n"
    "                         instead of the built-in texts\n"
    "      --no-verify        generate only (no runs; for benchmarks)\n";

enum {
    O_NO_DB = OPT_OWN, O_SUMMARY, O_SEED, O_TIMEOUT, O_FLOOR, O_OPERATORS,
    O_ALL, O_DETAILS, O_PER_CELL, O_PER_PROGRAM, O_QUARTER, O_KINDS, O_OPS,
    O_STRENGTH, O_VARIANTS, O_VOCAB, O_NO_VERIFY, O_LANG,
};

/* The modes an option belongs to: bit 1 << mode; 0 = every mode. */
static unsigned option_modes(int c)
{
    switch (c) {
    case O_OPERATORS:
    case O_ALL:
    case O_DETAILS:
        return 1u << LT_DS_SELECT;
    case 't':
    case O_LANG:
        return ~(1u << LT_DS_SELECT);
    case O_PER_CELL:
        return 1u << LT_DS_TYPED;
    case O_PER_PROGRAM:
    case O_KINDS:
        return 1u << LT_DS_FAULTS;
    case O_QUARTER:
        return 1u << LT_DS_FAULTS | 1u << LT_DS_REWRITE;
    case O_OPS:
    case O_STRENGTH:
    case O_VARIANTS:
    case O_VOCAB:
    case O_NO_VERIFY:
        return 1u << LT_DS_REWRITE;
    }
    return 0;
}

const struct option lt__cli_dataset_longopts[] = {
    {"out", required_argument, NULL, 'o'},
    {"tests", required_argument, NULL, 't'},
    {"no-db", no_argument, NULL, O_NO_DB},
    {"summary", required_argument, NULL, O_SUMMARY},
    {"seed", required_argument, NULL, O_SEED},
    {"timeout", required_argument, NULL, O_TIMEOUT},
    {"floor", no_argument, NULL, O_FLOOR},
    {"operators", required_argument, NULL, O_OPERATORS},
    {"all", no_argument, NULL, O_ALL},
    {"details", no_argument, NULL, O_DETAILS},
    {"per-cell", required_argument, NULL, O_PER_CELL},
    {"per-program", required_argument, NULL, O_PER_PROGRAM},
    {"quarter", required_argument, NULL, O_QUARTER},
    {"kinds", required_argument, NULL, O_KINDS},
    {"ops", required_argument, NULL, O_OPS},
    {"strength", required_argument, NULL, O_STRENGTH},
    {"variants", required_argument, NULL, O_VARIANTS},
    {"vocab", required_argument, NULL, O_VOCAB},
    {"no-verify", no_argument, NULL, O_NO_VERIFY},
    {"lang", required_argument, NULL, O_LANG},
    RUN_LONGOPTS,
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

/* Whether option VAL (from the table above) belongs to MODE. */
int lt__cli_dataset_option_in_mode(int val, enum lt_dataset_mode mode)
{
    unsigned ms = option_modes(val);
    return !ms || (ms & (1u << mode));
}

static void mode_help(enum lt_dataset_mode m, FILE *f)
{
    static const char *const texts[] = {usage_select, usage_typed,
                                        usage_faults, usage_rewrite};
    fputs(texts[m], f);
    if (m != LT_DS_SELECT)
        fputs(usage_programs, f);
    fputs(usage_common, f);
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
    int c;
    long long lv;
    char *end;
    while ((c = lt_cli_getopt(argc, argv, LT__CLI_DATASET_SHORTOPTS,
                            lt__cli_dataset_longopts)) != -1) {
        if (c == '?')
            return 2;
        if (!lt__cli_dataset_option_in_mode(c, o.mode)) {
            const char *name = "?";
            for (const struct option *lo = lt__cli_dataset_longopts;
                 lo->name; lo++)
                if (lo->val == c)
                    name = lo->name;
            return lt_cli_usage_error("--%s is not an option of this mode",
                                      name);
        }
        switch (c) {
        case 'h':
            mode_help(o.mode, stdout);
            return 0;
        case 'o':
            o.out = optarg;
            break;
        case 't':
            o.tests = optarg;
            break;
        case O_NO_DB:
            o.run.db = NULL;
            break;
        case O_SUMMARY:
            o.summary = optarg;
            break;
        case O_SEED:
            errno = 0;
            o.seed = strtoull(optarg, &end, 10);
            if (errno || end == optarg || *end || optarg[0] == '-') {
                return lt_cli_bad_value("--seed", optarg,
                                        "a non-negative integer");
            }
            break;
        case O_TIMEOUT:
            if (lt_cli_real("--timeout", optarg, 0.01, 86400, &o.timeout) < 0)
                return 2;
            break;
        case O_FLOOR:
            o.floor = 1;
            break;
        case O_OPERATORS:
            o.operators = optarg;
            break;
        case O_ALL:
            o.all = 1;
            break;
        case O_DETAILS:
            o.details = 1;
            break;
        case O_PER_CELL:
            if (lt_cli_long("--per-cell", optarg, 1, 10000, &lv) < 0)
                return 2;
            o.per_cell = (int)lv;
            break;
        case O_PER_PROGRAM:
            if (lt_cli_long("--per-program", optarg, 1, 10000, &lv) < 0)
                return 2;
            o.per_program = (int)lv;
            break;
        case O_QUARTER:
            if (strcmp(optarg, "all") == 0 && o.mode == LT_DS_FAULTS) {
                o.quarter = -1;
            } else if (lt_cli_long("--quarter", optarg, 1, 4, &lv) < 0) {
                return 2;
            } else {
                o.quarter = (int)lv;
            }
            break;
        case O_KINDS:
            if (check_kinds(optarg) < 0)
                return 2;
            o.kinds = optarg;
            break;
        case O_OPS:
            if (check_ops(optarg) < 0)
                return 2;
            o.ops = optarg;
            break;
        case O_STRENGTH:
            if (lt_cli_long("--strength", optarg, 1, 8, &lv) < 0)
                return 2;
            o.strength = (int)lv;
            break;
        case O_VARIANTS:
            if (lt_cli_long("--variants", optarg, 1, 10000000, &lv) < 0)
                return 2;
            o.variants = (int)lv;
            break;
        case O_VOCAB:
            o.vocab = optarg;
            break;
        case O_NO_VERIFY:
            o.verify = 0;
            break;
        case O_LANG:
            if (strcmp(optarg, "python") == 0)
                o.lang = LT_LANG_PYTHON;
            else if (strcmp(optarg, "java") == 0)
                o.lang = LT_LANG_JAVA;
            else
                return lt_cli_bad_value("--lang", optarg, "python or java");
            break;
        default:
            if (lt__cli_run_option(c, optarg, &o.run) < 0)
                return 2;
            break;
        }
    }
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
