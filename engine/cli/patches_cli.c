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
    "       litmus patches --instances F --predictions F --repos DIR\n"
    "                      [--env F] [options] [-- PYTEST_ARGS]\n"
    "       litmus patches --repo DIR --base REV --candidate REV|DIFF\n"
    "                      [--reference REV|DIFF] [options]\n"
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
    "repository candidates (diffs; docs/patches.md, \"Repository\n"
    "candidates\"): resolved as the SWE-bench harness decides, then the\n"
    "wider suite against the reference fix, then similarity:\n"
    "      --instances F      SWE-bench instances, JSON Lines or a JSON array\n"
    "                         (instance_id, repo, base_commit, patch,\n"
    "                         test_patch, FAIL_TO_PASS, PASS_TO_PASS, version)\n"
    "      --predictions F    predictions, JSON Lines or a JSON array\n"
    "                         (instance_id, model_name_or_path, model_patch)\n"
    "      --repos DIR        one git clone per repository, named owner__name\n"
    "                         or owner/name\n"
    "      --env F            {\"owner/name\": {\"VERSION\" or \"*\": python or\n"
    "                         venv}}: the environment of each instance\n"
    "                         (default: --python, else as litmus score\n"
    "                         chooses in the worktree)\n"
    "      --python PY        the interpreter when --env names none\n"
    "      --repo DIR         CI form: the repository at hand ...\n"
    "      --base REV         ... the base revision (default HEAD)\n"
    "      --candidate X      ... a candidate: a revision or a diff file\n"
    "                         (repeatable); its test changes are left out\n"
    "      --reference X      ... the reference fix (revision or diff file);\n"
    "                         in the CI form, the tests it adds decide\n"
    "      --worktrees DIR    where worktrees are kept (default DB.trees)\n"
    "      --wider-budget S   CPU seconds of the reference's time on the\n"
    "                         wider suite (tests beyond the instance's that\n"
    "                         run the changed files) repeated per candidate\n"
    "                         (default 20)\n"
    "      --harness-report DIR  write MODEL.litmus.json per model, as the\n"
    "                         SWE-bench harness reports resolved ids\n"
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
    "      --no-probes        repository candidates: skip the probe layer\n"
    "                         (the changed functions observed in the tests)\n"
    "      --mutation-budget S  CPU seconds of mutant runs per patch, and\n"
    "                         for the reference, as estimated from the\n"
    "                         tests' times (default 30); over it, a sample\n"
    "                         of the mutants runs and the score comes with\n"
    "                         a 95% interval; 0: every mutant runs\n"
    "                         (repository candidates: mutants of the lines\n"
    "                         each diff adds, 12 at most, as a note)\n"
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
    "      --timeout S        limit of a run without a reference, and the\n"
    "                         least a repository candidate's run gets\n"
    "                         (default 15)\n"
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
    OPT_NO_MUTATION, OPT_NO_PROBES, OPT_MUTATION_BUDGET, OPT_TIMEOUT, OPT_INSTANCES,
    OPT_PREDICTIONS, OPT_REPOS, OPT_ENV, OPT_REPO, OPT_BASE, OPT_CANDIDATE,
    OPT_WORKTREES, OPT_HARNESS_REPORT, OPT_PYTHON, OPT_WIDER_BUDGET,
};

#define MAX_CANDIDATES 256

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
    {"no-probes", no_argument, NULL, OPT_NO_PROBES},
    {"mutation-budget", required_argument, NULL, OPT_MUTATION_BUDGET},
    {"timeout", required_argument, NULL, OPT_TIMEOUT},
    {"instances", required_argument, NULL, OPT_INSTANCES},
    {"predictions", required_argument, NULL, OPT_PREDICTIONS},
    {"repos", required_argument, NULL, OPT_REPOS},
    {"env", required_argument, NULL, OPT_ENV},
    {"repo", required_argument, NULL, OPT_REPO},
    {"base", required_argument, NULL, OPT_BASE},
    {"candidate", required_argument, NULL, OPT_CANDIDATE},
    {"worktrees", required_argument, NULL, OPT_WORKTREES},
    {"harness-report", required_argument, NULL, OPT_HARNESS_REPORT},
    {"python", required_argument, NULL, OPT_PYTHON},
    {"wider-budget", required_argument, NULL, OPT_WIDER_BUDGET},
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
    static const char *cands[MAX_CANDIDATES];
    while ((c = lt_cli_getopt(argc, argv, "t:j:f:h", lt__patches_longopts)) !=
           -1) {
        switch (c) {
        case OPT_INSTANCES:
            o.instances = optarg;
            break;
        case OPT_PREDICTIONS:
            o.predictions = optarg;
            break;
        case OPT_REPOS:
            o.repos = optarg;
            break;
        case OPT_ENV:
            o.env = optarg;
            break;
        case OPT_REPO:
            o.repo = optarg;
            break;
        case OPT_BASE:
            o.base = optarg;
            break;
        case OPT_CANDIDATE:
            if (o.n_candidates == MAX_CANDIDATES) {
                lt_error("--candidate: at most %d", MAX_CANDIDATES);
                return 2;
            }
            cands[o.n_candidates++] = optarg;
            o.candidates = cands;
            break;
        case OPT_WORKTREES:
            o.worktrees = optarg;
            break;
        case OPT_HARNESS_REPORT:
            o.harness_report = optarg;
            break;
        case OPT_PYTHON:
            o.python = optarg;
            break;
        case OPT_WIDER_BUDGET:
            if (lt_cli_real("--wider-budget", optarg, 0, 86400,
                            &o.wider_budget) < 0)
                return 2;
            break;
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
        case OPT_NO_PROBES:
            o.probes = 0;
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
    o.debug = lt_log_get_level() >= LT_LOG_DEBUG;
    if (o.instances || o.predictions || o.repos || o.repo) {
        if (o.patches || o.manifest || o.buggy || o.tests || o.held_out ||
            o.inputs || o.precondition) {
            lt_error("repository candidates (--instances or --repo) take "
                     "diffs: drop --patches, --manifest, --buggy, --tests, "
                     "--held-out, --inputs and --precondition");
            return 2;
        }
        if (o.repo) {
            if (o.instances || o.predictions || o.repos || o.env) {
                lt_error("--repo is the CI form: drop --instances, "
                         "--predictions, --repos and --env");
                return 2;
            }
            if (!o.n_candidates) {
                lt_error("--repo needs --candidate (a revision or a diff "
                         "file)");
                return 2;
            }
        } else if (!o.instances || !o.predictions || !o.repos) {
            lt_error("give --instances, --predictions and --repos together "
                     "(see litmus patches --help)");
            return 2;
        }
        return lt_patches_repo(&o);
    }
    if (o.base || o.n_candidates || o.env || o.worktrees ||
        o.harness_report || o.python) {
        lt_error("--base, --candidate, --env, --worktrees, --harness-report "
                 "and --python go with --repo or --instances");
        return 2;
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
    return lt_patches(&o);
}

