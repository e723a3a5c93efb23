/* `litmus patches`: its options and its help.
 * SPDX-License-Identifier: MIT */
#include "engine/cli/cli.h"

#include <stdio.h>
#include <string.h>

#include "common/cliopt.h"
#include "common/log.h"

static const char usage_patches[] =
    "usage: litmus patches --buggy F --tests T --patches P [options]\n"
    "                      [-- PYTEST_ARGS]\n"
    "       litmus patches --manifest M --patches P [options]\n"
    "\n"
    "Sorts candidate patches of a buggy program into correct, overfitting,\n"
    "memorized and invalid, with the evidence behind each verdict\n"
    "(docs/patches.md):\n"
    "  0  syntax: the patch must compile;\n"
    "  1  tests: the suite runs on the patch in a sandboxed child with\n"
    "     guards against patches that fake a pass;\n"
    "  2  differential testing against the reference fix on captured,\n"
    "     given and derived inputs; held-out tests; mutation score of the\n"
    "     suite on the patch and on the reference;\n"
    "  3  token and AST similarity to the reference fix.\n"
    "Run the same command again to resume an interrupted triage.\n"
    "\n"
    "inputs:\n"
    "      --buggy F          the buggy file the patches replace\n"
    "      --tests T          its tests (file or directory)\n"
    "      --reference F      the reference fix (enables differential\n"
    "                         testing and similarity)\n"
    "      --held-out T       tests not shown to the repair tool\n"
    "      --inputs F         extra inputs for differential testing: JSON\n"
    "                         Lines (an array of arguments or {\"function\",\n"
    "                         \"args\", \"kwargs\"} a line), or a .json array\n"
    "      --precondition F   a Python file defining litmus_precondition(\n"
    "                         *args, **kwargs) (or litmus_precondition_<fn>):\n"
    "                         true for the inputs the program is meant for;\n"
    "                         replaces the contract inferred from the tests\n"
    "      --manifest M       many programs: {program: {\"buggy\", \"tests\",\n"
    "                         \"reference\", \"held_out\", \"inputs\",\n"
    "                         \"function\", \"precondition\"}}, paths\n"
    "                         relative to M\n"
    "      --patches P        a directory of <run_id>.py (with a manifest:\n"
    "                         <program>/<run_id>.py), or JSON Lines of\n"
    "                         {\"program\", \"run_id\", \"patch_text\"};\n"
    "                         markdown code fences are stripped\n"
    "\n"
    "options:\n"
    "      --threshold S      mutation score threshold (default 0.60)\n"
    "      --similarity-threshold S  token and AST similarity from which\n"
    "                         a passing patch is memorized (default 0.95)\n"
    "      --mutation-gap-note  with a reference, a patch scoring below the\n"
    "                         threshold where the reference does not is\n"
    "                         overfitting (weak_where_reference_is_not);\n"
    "                         with this option it is only a note\n"
    "      --no-mutation      skip the mutation scores\n"
    "      --mutation-budget S  CPU seconds of mutant runs per patch, and\n"
    "                         for the reference, as estimated from the\n"
    "                         tests' times (default 30); over it, a sample\n"
    "                         of the mutants runs and the score comes with\n"
    "                         a 95% interval; 0: every mutant runs\n"
    "      --diff-budget S    CPU seconds per patch for derived and generated\n"
    "                         differential inputs (default 10; the tests'\n"
    "                         own inputs are always compared)\n"
    "      --slower-is-overfitting X  a patch X or more times slower than\n"
    "                         the reference on an input, with the same\n"
    "                         result, is overfitting (reason slower); by\n"
    "                         default that is a note on a correct verdict\n"
    "  -j, --jobs N           parallel runners (default: number of cores)\n"
    "      --timeout-factor X limit of a run: X x the reference's CPU time\n"
    "                         for the same tests (default 5)\n"
    "      --timeout-const S  ... plus S seconds (default "
    STR(LT_PATCHES_TIMEOUT_CONST) ")\n"
    "      --timeout S        limit of a run without a reference (default 15)\n"
    "      --memory-mb N      address-space limit of a child (default "
    LT_MEMORY_MB_DEFAULT_TEXT ")\n"
    "      --db FILE          results database (default .litmus-patches.db)\n"
    "  -f, --format FMT       text (default) or json (litmus.patches/1)\n"
    "      --csv FILE         also write one CSV row per patch to FILE\n"
    "      --progress / --no-progress  progress on stderr with the time\n"
    "                         left (default: a live line on a terminal, a\n"
    "                         plain line every 30 s otherwise; --progress:\n"
    "                         the live line anywhere)\n"
    "      --shard I/N        only the candidates dealt to slice I of N (by\n"
    "                         program and run id); merge the shards' stores\n"
    "                         with `litmus merge`, then run the command\n"
    "                         without --shard on the merged store\n"
    "                         (docs/scale.md)\n"
    "  -h, --help             this text\n"
    "\n"
    "exit codes: 0 ok, 1 a patch is overfitting (for CI gates), 2 usage or\n"
    "input error (missing file, bad JSON Lines, reference failing its\n"
    "tests), 3 engine error.\n";

enum {
    OPT_BUGGY = OPT_OWN, OPT_REFERENCE, OPT_HELD_OUT, OPT_INPUTS,
    OPT_PRECONDITION, OPT_DIFF_BUDGET, OPT_SLOWER, OPT_MANIFEST, OPT_PATCHES,
    OPT_CSV, OPT_THRESHOLD, OPT_SIM_THRESHOLD, OPT_MUTATION_GATE,
    OPT_NO_MUTATION, OPT_MUTATION_BUDGET, OPT_TIMEOUT,
};

const struct option lt__patches_longopts[] = {
    {"buggy", required_argument, NULL, OPT_BUGGY},
    {"tests", required_argument, NULL, 't'},
    {"reference", required_argument, NULL, OPT_REFERENCE},
    {"held-out", required_argument, NULL, OPT_HELD_OUT},
    {"inputs", required_argument, NULL, OPT_INPUTS},
    {"precondition", required_argument, NULL, OPT_PRECONDITION},
    {"diff-budget", required_argument, NULL, OPT_DIFF_BUDGET},
    {"slower-is-overfitting", required_argument, NULL, OPT_SLOWER},
    {"manifest", required_argument, NULL, OPT_MANIFEST},
    {"patches", required_argument, NULL, OPT_PATCHES},
    {"csv", required_argument, NULL, OPT_CSV},
    {"format", required_argument, NULL, 'f'},
    {"threshold", required_argument, NULL, OPT_THRESHOLD},
    {"similarity-threshold", required_argument, NULL, OPT_SIM_THRESHOLD},
    {"mutation-gap-note", no_argument, NULL, OPT_MUTATION_GATE},
    {"no-mutation", no_argument, NULL, OPT_NO_MUTATION},
    {"mutation-budget", required_argument, NULL, OPT_MUTATION_BUDGET},
    {"timeout", required_argument, NULL, OPT_TIMEOUT},
    RUN_LONGOPTS,
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};


/* `litmus patches ...` with argv[0] = "patches". */
int lt__cmd_patches(int argc, char **argv)
{
    struct lt_patches_opts o;
    lt_patches_opts_init(&o);
    int split = lt_cli_split(argc, argv);
    int full_argc = argc;
    argc = split;
    int c;
    while ((c = lt_cli_getopt(argc, argv, "t:j:f:h", lt__patches_longopts)) !=
           -1) {
        switch (c) {
        case OPT_BUGGY:
            o.buggy = optarg;
            break;
        case 't':
            o.tests = optarg;
            break;
        case OPT_REFERENCE:
            o.reference = optarg;
            break;
        case OPT_HELD_OUT:
            o.held_out = optarg;
            break;
        case OPT_INPUTS:
            o.inputs = optarg;
            break;
        case OPT_PRECONDITION:
            o.precondition = optarg;
            break;
        case OPT_DIFF_BUDGET:
            if (lt_cli_real("--diff-budget", optarg, 0, 86400,
                            &o.diff_budget) < 0)
                return 2;
            break;
        case OPT_SLOWER:
            if (lt_cli_real("--slower-is-overfitting", optarg, 1, 1e9,
                            &o.slower_factor) < 0)
                return 2;
            break;
        case OPT_MANIFEST:
            o.manifest = optarg;
            break;
        case OPT_PATCHES:
            o.patches = optarg;
            break;
        case OPT_CSV:
            o.csv = optarg;
            break;
        case 'f':
            if (lt__cli_text_or_json(optarg, &o.format) < 0)
                return lt_cli_bad_value("--format", optarg, "text or json");
            break;
        case OPT_THRESHOLD:
            if (lt_cli_real("--threshold", optarg, 0, 1, &o.threshold) < 0)
                return 2;
            break;
        case OPT_SIM_THRESHOLD:
            if (lt_cli_real("--similarity-threshold", optarg, 0, 1, &o.sim_threshold) < 0)
                return 2;
            break;
        case OPT_MUTATION_GATE:
            o.mutation_gate = 0;
            break;
        case OPT_NO_MUTATION:
            o.mutation = 0;
            break;
        case OPT_MUTATION_BUDGET:
            if (lt_cli_real("--mutation-budget", optarg, 0, 86400,
                            &o.mutation_budget) < 0)
                return 2;
            break;
        case OPT_TIMEOUT:
            if (lt_cli_real("--timeout", optarg, 0.1, 86400, &o.timeout) < 0)
                return 2;
            break;
        case 'h':
            fputs(usage_patches, stdout);
            return 0;
        default:
            if (lt__cli_run_option(c, optarg, &o.run) > 0)
                break;
            return 2;
        }
    }
    if (optind != argc) {
        return lt_cli_usage_error("takes no operands ('%s')", argv[optind]);
    }
    if (split < full_argc) {
        o.pytest_args = argv + split + 1;
        o.n_pytest_args = (size_t)(full_argc - split - 1);
    }
    if (!o.patches) {
        lt_error("--patches is required (see litmus patches --help)");
        return 2;
    }
    if (o.manifest) {
        if (o.buggy || o.tests || o.reference || o.held_out || o.inputs ||
            o.precondition) {
            lt_error("--manifest names every program's files: drop --buggy, "
                     "--tests, --reference, --held-out, --inputs and "
                     "--precondition");
            return 2;
        }
    } else if (!o.buggy || !o.tests) {
        lt_error("give --buggy and --tests (or --manifest for several "
                 "programs; see litmus patches --help)");
        return 2;
    }
    o.debug = lt_log_get_level() >= LT_LOG_DEBUG;
    return lt_patches(&o);
}

