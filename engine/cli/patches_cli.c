/* `litmus patches`: its options and its help.
 * SPDX-License-Identifier: MIT */
#include "engine/cli/cli.h"

#include <stdio.h>

#include "common/cliopt.h"
#include "common/log.h"

static const char usage_patches[] =
    "usage: litmus patches --buggy F --tests T --patches P [options]\n"
    "                      [-- PYTEST_ARGS]\n"
    "       litmus patches --manifest M --patches P [options]\n"
    "       litmus patches --instances F --predictions F --repos DIR\n"
    "                      [--env F] [options] [-- PYTEST_ARGS]\n"
    "       litmus patches --repo DIR --base REV --candidate REV|DIFF\n"
    "                      [--reference REV|DIFF] [--tests T]... [options]\n"
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
    "inputs:\n";

static const char usage_patches_end[] =
    "\n"
    "exit codes: 0 ok, 1 a patch is overfitting (for CI gates; with --repo,\n"
    "also a candidate that is invalid), 2 usage or input error (missing\n"
    "file, bad JSON Lines, reference failing its tests), 3 engine error.\n";

enum {
    OPT_BUGGY = OPT_OWN, OPT_REFERENCE, OPT_HELD_OUT, OPT_INPUTS,
    OPT_PRECONDITION, OPT_DIFF_BUDGET, OPT_SLOWER, OPT_MANIFEST, OPT_PATCHES,
    OPT_CSV, OPT_THRESHOLD, OPT_SIM_THRESHOLD, OPT_MUTATION_GATE,
    OPT_NO_MUTATION, OPT_NO_PROBES, OPT_MUTATION_BUDGET, OPT_TIMEOUT,
    OPT_INSTANCES, OPT_PREDICTIONS, OPT_REPOS, OPT_ENV, OPT_REPO, OPT_BASE,
    OPT_CANDIDATE, OPT_WORKTREES, OPT_HARNESS_REPORT, OPT_PYTHON,
    OPT_WIDER_BUDGET,
};

#define MAX_CANDIDATES 256

#define P struct lt_patches_opts
#define FILE_ROW(n, c, a, f)                                               \
    .name = n, .code = c, .kind = LT__OPT_STRING, .arg = a, LT__FIELD(P, f)
/* The options of `litmus patches`, in the order of the help. */
const struct lt__opt lt__patches_options[] = {
    {FILE_ROW("buggy", OPT_BUGGY, "F", buggy),
     .help = "the buggy file the patches replace"},
    {.name = "tests", .code = 't', .kind = LT__OPT_LIST, .arg = "T",
     LT__LIST(P, tests, n_tests),
     .help = "its tests (file or directory); with --repo,\n"
             "tests that decide besides those the reference\n"
             "adds: files, folders or node ids (repeatable)"},
    {FILE_ROW("reference", OPT_REFERENCE, "F", reference),
     .help = "the reference fix (enables differential\n"
             "testing and similarity)"},
    {FILE_ROW("held-out", OPT_HELD_OUT, "T", held_out),
     .help = "tests not shown to the repair tool"},
    {FILE_ROW("inputs", OPT_INPUTS, "F", inputs),
     .help = "extra inputs for differential testing: JSON\n"
             "Lines (an array of arguments or {\"function\",\n"
             "\"args\", \"kwargs\"} a line), or a .json array"},
    {FILE_ROW("precondition", OPT_PRECONDITION, "F", precondition),
     .help = "a Python file defining litmus_precondition(\n"
             "*args, **kwargs) (or litmus_precondition_<fn>):\n"
             "true for the inputs the program is meant for;\n"
             "replaces the contract inferred from the tests"},
    {FILE_ROW("manifest", OPT_MANIFEST, "M", manifest),
     .help = "many programs: {program: {\"buggy\", \"tests\",\n"
             "\"reference\", \"held_out\", \"inputs\",\n"
             "\"function\", \"precondition\"}}, paths\n"
             "relative to M"},
    {FILE_ROW("patches", OPT_PATCHES, "P", patches),
     .help = "a directory of <run_id>.py (with a manifest:\n"
             "<program>/<run_id>.py), or JSON Lines of\n"
             "{\"program\", \"run_id\", \"patch_text\"};\n"
             "markdown code fences are stripped"},
    {FILE_ROW("instances", OPT_INSTANCES, "F", instances),
     .section = "\n"
                "repository candidates (diffs; docs/patches.md, "
                "\"Repository\n"
                "candidates\"): resolved as the SWE-bench harness decides, "
                "then the\n"
                "wider suite against the reference fix, then similarity:\n",
     .help = "SWE-bench instances, JSON Lines or a JSON array\n"
             "(instance_id, repo, base_commit, patch,\n"
             "test_patch, FAIL_TO_PASS, PASS_TO_PASS, version)"},
    {FILE_ROW("predictions", OPT_PREDICTIONS, "F", predictions),
     .help = "predictions, JSON Lines or a JSON array\n"
             "(instance_id, model_name_or_path, model_patch)"},
    {FILE_ROW("repos", OPT_REPOS, "DIR", repos),
     .help = "one git clone per repository, named owner__name\n"
             "or owner/name"},
    {FILE_ROW("env", OPT_ENV, "F", env),
     .help = "{\"owner/name\": {\"VERSION\" or \"*\": python or\n"
             "venv}}: the environment of each instance\n"
             "(default: --python, else as litmus score\n"
             "chooses in the worktree)"},
    {FILE_ROW("python", OPT_PYTHON, "PY", python),
     .help = "the interpreter when --env names none"},
    {FILE_ROW("repo", OPT_REPO, "DIR", repo),
     .help = "CI form: the repository at hand ..."},
    {FILE_ROW("base", OPT_BASE, "REV", base),
     .help = "... the base revision (default HEAD)"},
    {.name = "candidate", .code = OPT_CANDIDATE, .kind = LT__OPT_LIST,
     .arg = "X", LT__LIST(P, candidates, n_candidates),
     .help = "... a candidate: a revision or a diff file\n"
             "(repeatable); its test changes are left out"},
    {.name = "reference", .code = OPT_REFERENCE, .flags = LT__OPT_HELP_ONLY,
     .arg = "X",
     .help = "... the reference fix (revision or diff file);\n"
             "in the CI form, the tests it adds decide"},
    {FILE_ROW("worktrees", OPT_WORKTREES, "DIR", worktrees),
     .help = "where worktrees are kept (default DB.trees)"},
    {.name = "wider-budget", .code = OPT_WIDER_BUDGET, .kind = LT__OPT_REAL,
     .flags = LT__OPT_DEFAULT, .arg = "S", .lo = 0, .hi = 86400,
     LT__FIELD(P, wider_budget),
     .help = "CPU seconds of the reference's time on the\n"
             "wider suite (tests beyond the instance's that\n"
             "run the changed files) repeated per candidate\n"
             "(default 20)"},
    {FILE_ROW("harness-report", OPT_HARNESS_REPORT, "DIR", harness_report),
     .help = "write MODEL.litmus.json per model, as the\n"
             "SWE-bench harness reports resolved ids"},
    {.name = "threshold", .code = OPT_THRESHOLD, .kind = LT__OPT_REAL,
     .flags = LT__OPT_DEFAULT, .arg = "S", .lo = 0, .hi = 1,
     LT__FIELD(P, threshold),
     .section = "\noptions:\n",
     .help = "mutation score threshold (default 0.60)"},
    {.name = "similarity-threshold", .code = OPT_SIM_THRESHOLD,
     .kind = LT__OPT_REAL, .flags = LT__OPT_DEFAULT, .arg = "S", .lo = 0,
     .hi = 1, LT__FIELD(P, sim_threshold),
     .help = "token and AST similarity from which\n"
             "a passing patch is memorized (default 0.95)"},
    {.name = "mutation-gap-note", .code = OPT_MUTATION_GATE,
     .kind = LT__OPT_FLAG, .lo = 0, LT__FIELD(P, mutation_gate),
     .help = "with a reference, a patch scoring below the\n"
             "threshold where the reference does not is\n"
             "overfitting (weak_where_reference_is_not);\n"
             "with this option it is only a note"},
    {.name = "no-mutation", .code = OPT_NO_MUTATION, .kind = LT__OPT_FLAG,
     .lo = 0, LT__FIELD(P, mutation), .help = "skip the mutation scores"},
    {.name = "no-probes", .code = OPT_NO_PROBES, .kind = LT__OPT_FLAG,
     .lo = 0, LT__FIELD(P, probes),
     .help = "repository candidates: skip the probe layer\n"
             "(the changed functions observed in the tests)"},
    {.name = "mutation-budget", .code = OPT_MUTATION_BUDGET,
     .kind = LT__OPT_REAL, .flags = LT__OPT_DEFAULT, .arg = "S", .lo = 0,
     .hi = 86400, LT__FIELD(P, mutation_budget),
     .help = "CPU seconds of mutant runs per patch, and\n"
             "for the reference, as estimated from the\n"
             "tests' times (default 30); over it, a sample\n"
             "of the mutants runs and the score comes with\n"
             "a 95% interval; 0: every mutant runs\n"
             "(repository candidates: mutants of the lines\n"
             "each diff adds, 12 at most, as a note)"},
    {.name = "diff-budget", .code = OPT_DIFF_BUDGET, .kind = LT__OPT_REAL,
     .flags = LT__OPT_DEFAULT, .arg = "S", .lo = 0, .hi = 86400,
     LT__FIELD(P, diff_budget),
     .help = "CPU seconds per patch for derived and generated\n"
             "differential inputs (default 10; the tests'\n"
             "own inputs are always compared)"},
    {.name = "slower-is-overfitting", .code = OPT_SLOWER,
     .kind = LT__OPT_REAL, .arg = "X", .lo = 1, .hi = 1e9,
     LT__FIELD(P, slower_factor),
     .help = "a patch X or more times slower than\n"
             "the reference on an input, with the same\n"
             "result, is overfitting (reason slower); by\n"
             "default that is a note on a correct verdict"},
    {LT__RUN_JOBS(P), .help = "parallel runners (default: number of cores)"},
    {LT__RUN_TIMEOUT_FACTOR(P), .flags = LT__OPT_DEFAULT, .arg = "X",
     .help = "limit of a run: X x the reference's CPU time\n"
             "for the same tests (default 5)"},
    {LT__RUN_TIMEOUT_CONST(P), .flags = LT__OPT_DEFAULT,
     .help = "... plus S seconds (default " STR(LT_PATCHES_TIMEOUT_CONST)
             ")"},
    {.name = "timeout", .code = OPT_TIMEOUT, .kind = LT__OPT_REAL,
     .flags = LT__OPT_DEFAULT, .arg = "S", .lo = 0.1, .hi = 86400,
     LT__FIELD(P, timeout),
     .help = "limit of a run without a reference, and the\n"
             "least a repository candidate's run gets\n"
             "(default 15)"},
    {LT__RUN_MEMORY(P), .flags = LT__OPT_DEFAULT,
     .help = "address-space limit of a child (default "
             LT_MEMORY_MB_DEFAULT_TEXT ")"},
    {LT__RUN_DB(P), .flags = LT__OPT_DEFAULT, .arg = "FILE",
     .help = "results database (default .litmus-patches.db)"},
    {LT__FORMAT_TEXT_OR_JSON(P),
     .help = "text (default) or json (litmus.patches/1)"},
    {FILE_ROW("csv", OPT_CSV, "FILE", csv),
     .help = "also write one CSV row per patch to FILE"},
    {LT__RUN_PROGRESS(P),
     .help = LT__RUN_PROGRESS_HELP},
    {LT__RUN_NO_PROGRESS(P)},
    {LT__RUN_SHARD(P),
     .help = "only the candidates dealt to slice I of N (by\n"
             "program and run id); merge the shards' stores\n"
             "with `litmus merge`, then run the command\n"
             "without --shard on the merged store\n"
             "(docs/scale.md)"},
    {LT__HELP_ROW},
    {.name = NULL},
};
#undef FILE_ROW
#undef P

/* Contract: see cli.h. */
void lt__patches_help(FILE *f)
{
    fputs(usage_patches, f);
    lt__opt_help(f, lt__patches_options, -1);
    fputs(usage_patches_end, f);
}

static int run(struct lt_patches_opts *op, int argc, char **argv, int split,
               int full_argc);

/* `litmus patches ...` with argv[0] = "patches". */
int lt__cmd_patches(int argc, char **argv)
{
    struct lt_patches_opts o;
    lt_patches_opts_init(&o);
    int split = lt_cli_split(argc, argv);
    int full_argc = argc;
    argc = split;
    struct lt__opt_parser p;
    lt__opt_start(&p, lt__patches_options, "", -1, argc, argv, &o);
    int c = lt__opt_next(&p), code; /* only --help is a COMMAND row */
    if (c != 0) {
        if (c > 0)
            lt__patches_help(stdout);
        code = c > 0 ? 0 : 2;
        goto out;
    }
    if (o.n_candidates > MAX_CANDIDATES) {
        lt_error("--candidate: at most %d", MAX_CANDIDATES);
        code = 2;
        goto out;
    }
    code = run(&o, argc, argv, split, full_argc);
out:
    lt__opt_end(&p);
    return code;
}

/* The checks across options, then the triage. */
static int run(struct lt_patches_opts *op, int argc, char **argv, int split,
               int full_argc)
{
    struct lt_patches_opts o = *op;
    if (optind != argc) {
        return lt_cli_usage_error("takes no operands ('%s')", argv[optind]);
    }
    if (split < full_argc) {
        o.pytest_args = argv + split + 1;
        o.n_pytest_args = (size_t)(full_argc - split - 1);
    }
    o.debug = lt_log_get_level() >= LT_LOG_DEBUG;
    if (o.instances || o.predictions || o.repos || o.repo) {
        if (o.patches || o.manifest || o.buggy || o.held_out || o.inputs ||
            o.precondition) {
            lt_error("repository candidates (--instances or --repo) take "
                     "diffs: drop --patches, --manifest, --buggy, "
                     "--held-out, --inputs and --precondition");
            return 2;
        }
        if (o.n_tests && !o.repo) {
            lt_error("--tests: the instances' FAIL_TO_PASS and PASS_TO_PASS "
                     "decide; --tests goes with --repo (the CI form)");
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
        if (o.buggy || o.n_tests || o.reference || o.held_out || o.inputs ||
            o.precondition) {
            lt_error("--manifest names every program's files: drop --buggy, "
                     "--tests, --reference, --held-out, --inputs and "
                     "--precondition");
            return 2;
        }
    } else if (!o.buggy || !o.n_tests) {
        lt_error("give --buggy and --tests (or --manifest for several "
                 "programs; see litmus patches --help)");
        return 2;
    } else if (o.n_tests > 1) {
        lt_error("--tests: one file or folder with --buggy (given %zu)",
                 o.n_tests);
        return 2;
    }
    return lt_patches(&o);
}

