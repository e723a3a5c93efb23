/* The litmus command line: options, subcommands, exit codes.
 * SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/cliopt.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "engine/engine.h"
#include "runners/runner.h"

#ifdef LT_HAVE_SIMILARITY
#include "engine/similarity/similarity.h"
#endif


/* A number macro as a string literal, for the defaults in help texts. */
#define STR_(x) #x
#define STR(x) STR_(x)

/* engine/cli/dataset_cli.c */
#define LT__CLI_DATASET_SHORTOPTS "o:j:t:h"
int lt__cli_dataset(int argc, char **argv);
extern const struct option lt__cli_dataset_longopts[];
int lt__cli_dataset_option_in_mode(int val, enum lt_dataset_mode mode);

static const char usage_main[] =
    "usage: litmus <command> [options]\n"
    "\n"
    "Sandboxed mutation testing for Python test suites.\n"
    "\n"
    "commands:\n"
    "  score       mutate source files and score the test suite\n"
    "  show        print one mutant's diff, verdict and killing test\n"
    "  report      print the summary of a stored run\n"
    "  merge       merge the stores of `score --shard` runs into one\n"
    "  slurm       run `score` as a Slurm array job of shards and a merge\n"
    "  patches     triage candidate patches: correct, overfitting,\n"
    "              memorized or invalid\n"
    "  dataset     execution-verified datasets of mutated programs\n"
    "              (select, typed, faults, rewrite)\n"
#ifdef LT_HAVE_SIMILARITY
    "  similarity  code similarity metrics (CodeBLEU, METEOR, ROUGE-L...)\n"
#endif
    "\n"
    "  completion  print a bash completion script (litmus completion bash)\n"
    "\n"
    "Options may come before or after operands, up to `--`.\n"
    "`litmus <command> --help` describes a command; `litmus --version`\n"
    "prints the version.\n"
    "exit codes: 0 ok, 1 gate failed, 2 usage or input error, 3 engine "
    "error,\n130 interrupted (run the same command again to resume)\n";

static const char usage_score[] =
    "usage: litmus score [PATHS...] [--tests T]... [options] [-- PYTEST_ARGS]\n"
    "\n"
    "Mutates every Python file in PATHS (files or directories; test files\n"
    "are skipped), runs the tests against each mutant in a sandboxed child\n"
    "forked from a warm interpreter, and prints the mutation score.\n"
    "Run the same command again to resume an interrupted run.\n"
    "\n"
    "options:\n"
    "  -t, --tests T          test file or directory given to pytest\n"
    "                         (repeatable; default: pytest's own discovery)\n"
    "      --runner R         pytest (default); unittest: discovery as\n"
    "                         `python -m unittest discover` (T is a start\n"
    "                         directory or a test name); doctest: the\n"
    "                         doctests of the mutated modules (and of T)\n"
    "  -j, --jobs N           parallel runners (default: number of cores,\n"
    "                         up to 4 per core when the tests mostly wait)\n"
    "      --db FILE          results database (default: .litmus.db)\n"
    "      --operators SET    mutmut (default), algo1, or a comma list of\n"
    "                         operator names\n"
    "  -f, --format FMT       text (default), json, stryker, junit, sarif\n"
    "                         or github (docs/reports.md)\n"
    "      --html FILE        also write the HTML report to FILE\n"
    "      --fail-on-new-survivors FILE  exit 1 when a mutant survives\n"
    "                         that the baseline FILE does not accept\n"
    "      --write-survivors FILE  write the survivors to the baseline\n"
    "                         FILE (reasons already there are kept)\n"
    "      --fail-under S     exit 1 when the score is below S (0..1 or a\n"
    "                         percentage such as 80%)\n"
    "      --timeout-factor F per-mutant limit: F x baseline time of the\n"
    "                         tests run (default 5)\n"
    "      --timeout-const S  ... plus S seconds (default "
    STR(LT_SCORE_TIMEOUT_CONST) ")\n"
    "      --baseline-timeout S  limit for the unmutated run (default 300)\n"
    "      --baseline-runs N  unmutated runs; tests whose outcome changes\n"
    "                         are flaky and left out (default 2)\n"
    "      --full-matrix      run every covering test of each mutant, not\n"
    "                         just up to the first failure\n"
    "      --python PY        interpreter (or venv directory) whose packages\n"
    "                         the tests use (default: the active venv,\n"
    "                         else ./.venv or ./venv, else /usr/bin/python3)\n"
    "      --deselect-failing drop tests that fail on the original code\n"
    "                         (they are listed) instead of stopping\n"
    "      --allow-read PATH  let the tests read PATH too (repeatable; the\n"
    "                         sandbox shows them only the project, the\n"
    "                         interpreter's paths and system libraries)\n"
    "      --pass-env NAME    let the tests see environment variable NAME\n"
    "                         (repeatable; they see only PATH, HOME, TMPDIR,\n"
    "                         LANG, LC_*, TZ, PYTHON* and PYTEST_* besides)\n"
    "      --sandbox-uid N    uid of the tests when litmus runs as root\n"
    "                         (default 65534, nobody)\n"
    "      --scratch-mb N     size of the tests' writable scratch (default\n"
    "                         512)\n"
    "      --no-fs-view       no private file-system view (Landlock only)\n"
    "      --telemetry        record what each mutant's child tried: refused\n"
    "                         system calls, signals (BPF; root or CAP_BPF)\n"
    "      --explain-sandbox  print what the tests can see and stop\n"
    "      --shard I/N        run only slice I of N (0 <= I < N) of the\n"
    "                         mutants, a fixed deal by mutant id; give each\n"
    "                         shard its own --db, then `litmus merge`\n"
    "                         (docs/scale.md)\n"
    "      --since REV        mutate only lines changed since git revision\n"
    "                         REV (docs/incremental.md)\n"
    "      --rerun survivors  reuse every earlier verdict of this --db but\n"
    "                         survived and no_coverage ones\n"
    "      --memory-mb N      address-space limit of a child (default "
    LT_MEMORY_MB_DEFAULT_TEXT ",\n"
    "                         0 for none)\n"
    "      --progress / --no-progress  progress on stderr with the time\n"
    "                         left (default: a live line on a terminal, a\n"
    "                         plain line every 30 s otherwise; --progress:\n"
    "                         the live line anywhere)\n"
    "      --reason TEXT, --elements-js FILE, --junit-no-coverage P,\n"
    "      --junit-timeout P  as for `litmus report`\n"
    "      --config FILE      read [tool.litmus] from FILE (default:\n"
    "                         ./pyproject.toml when it exists)\n"
    "      --no-config        ignore pyproject.toml\n"
    "  -h, --help             this text\n"
    "\n"
    "Arguments after `--` go to pytest, e.g. `-- --correct -k sort`; with\n"
    "--runner unittest, to unittest's discovery (`-- discover -s tests -p\n"
    "'*_test.py'`); with --runner doctest, to doctest (`-- -o ELLIPSIS`).\n"
    "[tool.litmus] keys are the long options (paths, tests, jobs, db,\n"
    "operators, format, fail-under, timeout-factor, timeout-const,\n"
    "baseline-timeout, baseline-runs, memory-mb, full-matrix, pytest-args,\n"
    "runner, python, deselect-failing, allow-read, pass-env, sandbox-uid,\n"
    "scratch-mb); the command line overrides them.\n"
    "\n"
    "The tests run as `python -m pytest` would run them in this directory:\n"
    "with that interpreter's packages, PYTHONPATH, this directory first on\n"
    "the import path, and pytest's own settings (docs/environment.md).\n";

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
    "                         npm/ beside the binary: scripts/fetch-npm.sh)\n"
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

static const char usage_completion[] =
    "usage: litmus completion bash\n"
    "\n"
    "Prints a bash completion script for litmus, e.g.\n"
    "  source <(litmus completion bash)\n"
    "or save it as ~/.local/share/bash-completion/completions/litmus.\n";

static int parse_format(const char *s, enum lt_format *f)
{
    if (strcmp(s, "text") == 0)
        *f = LT_FORMAT_TEXT;
    else if (strcmp(s, "json") == 0)
        *f = LT_FORMAT_JSON;
    else
        return -1;
    return 0;
}

enum {
    OPT_DB = 256, OPT_OPERATORS, OPT_FAIL_UNDER, OPT_TIMEOUT_FACTOR,
    OPT_TIMEOUT_CONST, OPT_BASELINE_TIMEOUT, OPT_MEMORY, OPT_PROGRESS,
    OPT_NO_PROGRESS, OPT_FULL_MATRIX, OPT_BASELINE_RUNS, OPT_CONFIG,
    OPT_NO_CONFIG, OPT_BUGGY, OPT_REFERENCE, OPT_HELD_OUT, OPT_INPUTS,
    OPT_MANIFEST, OPT_PATCHES, OPT_CSV, OPT_THRESHOLD, OPT_SIM_THRESHOLD,
    OPT_TIMEOUT, OPT_NO_MUTATION, OPT_MUTATION_GATE, OPT_PYTHON,
    OPT_DESELECT_FAILING, OPT_ALLOW_READ, OPT_PASS_ENV, OPT_SANDBOX_UID,
    OPT_SCRATCH_MB,
    OPT_NO_FS_VIEW, OPT_TELEMETRY, OPT_EXPLAIN_SANDBOX, OPT_HTML, OPT_ELEMENTS_JS,
    OPT_SURVIVORS_IN, OPT_SURVIVORS_OUT, OPT_REASON, OPT_JUNIT_NO_COVERAGE,
    OPT_JUNIT_TIMEOUT, OPT_SHARD, OPT_FORCE, OPT_SHARDS, OPT_DIR,
    OPT_PARTITION, OPT_TIME, OPT_CPUS, OPT_SBATCH_ARG, OPT_SBATCH,
    OPT_NO_SUBMIT, OPT_SINCE, OPT_RERUN, OPT_PRECONDITION, OPT_DIFF_BUDGET,
    OPT_SLOWER, OPT_MUTATION_BUDGET, OPT_RUNNER,
};

/* The report options `score` and `report` share. */
#define REPORT_LONGOPTS                                                    \
    {"html", required_argument, NULL, OPT_HTML},                           \
    {"elements-js", required_argument, NULL, OPT_ELEMENTS_JS},             \
    {"fail-on-new-survivors", required_argument, NULL, OPT_SURVIVORS_IN},  \
    {"write-survivors", required_argument, NULL, OPT_SURVIVORS_OUT},       \
    {"reason", required_argument, NULL, OPT_REASON},                       \
    {"junit-no-coverage", required_argument, NULL, OPT_JUNIT_NO_COVERAGE}, \
    {"junit-timeout", required_argument, NULL, OPT_JUNIT_TIMEOUT}

static const struct option score_longopts[] = {
    {"tests", required_argument, NULL, 't'},
    {"jobs", required_argument, NULL, 'j'},
    {"db", required_argument, NULL, OPT_DB},
    {"operators", required_argument, NULL, OPT_OPERATORS},
    {"format", required_argument, NULL, 'f'},
    {"fail-under", required_argument, NULL, OPT_FAIL_UNDER},
    {"timeout-factor", required_argument, NULL, OPT_TIMEOUT_FACTOR},
    {"timeout-const", required_argument, NULL, OPT_TIMEOUT_CONST},
    {"baseline-timeout", required_argument, NULL, OPT_BASELINE_TIMEOUT},
    {"memory-mb", required_argument, NULL, OPT_MEMORY},
    {"progress", no_argument, NULL, OPT_PROGRESS},
    {"no-progress", no_argument, NULL, OPT_NO_PROGRESS},
    {"full-matrix", no_argument, NULL, OPT_FULL_MATRIX},
    {"baseline-runs", required_argument, NULL, OPT_BASELINE_RUNS},
    {"python", required_argument, NULL, OPT_PYTHON},
    {"runner", required_argument, NULL, OPT_RUNNER},
    {"deselect-failing", no_argument, NULL, OPT_DESELECT_FAILING},
    {"allow-read", required_argument, NULL, OPT_ALLOW_READ},
    {"pass-env", required_argument, NULL, OPT_PASS_ENV},
    {"sandbox-uid", required_argument, NULL, OPT_SANDBOX_UID},
    {"scratch-mb", required_argument, NULL, OPT_SCRATCH_MB},
    {"no-fs-view", no_argument, NULL, OPT_NO_FS_VIEW},
    {"telemetry", no_argument, NULL, OPT_TELEMETRY},
    {"explain-sandbox", no_argument, NULL, OPT_EXPLAIN_SANDBOX},
    {"shard", required_argument, NULL, OPT_SHARD},
    {"since", required_argument, NULL, OPT_SINCE},
    {"rerun", required_argument, NULL, OPT_RERUN},
    {"config", required_argument, NULL, OPT_CONFIG},
    {"no-config", no_argument, NULL, OPT_NO_CONFIG},
    REPORT_LONGOPTS,
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

static const struct option patches_longopts[] = {
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
    {"jobs", required_argument, NULL, 'j'},
    {"timeout-factor", required_argument, NULL, OPT_TIMEOUT_FACTOR},
    {"timeout-const", required_argument, NULL, OPT_TIMEOUT_CONST},
    {"timeout", required_argument, NULL, OPT_TIMEOUT},
    {"memory-mb", required_argument, NULL, OPT_MEMORY},
    {"db", required_argument, NULL, OPT_DB},
    {"progress", no_argument, NULL, OPT_PROGRESS},
    {"no-progress", no_argument, NULL, OPT_NO_PROGRESS},
    {"shard", required_argument, NULL, OPT_SHARD},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

static const struct option show_longopts[] = {
    {"db", required_argument, NULL, OPT_DB},
    {"format", required_argument, NULL, 'f'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

static const struct option report_longopts[] = {
    {"db", required_argument, NULL, OPT_DB},
    {"format", required_argument, NULL, 'f'},
    REPORT_LONGOPTS,
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

static const struct option merge_longopts[] = {
    {"force", no_argument, NULL, OPT_FORCE},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

static const struct option slurm_longopts[] = {
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

/* Handles option c when it is a report option: 1 handled, 0 not one,
 * -1 bad value (printed). */
static int report_option(int c, const char *arg, struct lt_report_opts *ro)
{
    switch (c) {
    case OPT_HTML:
        ro->html = arg;
        return 1;
    case OPT_ELEMENTS_JS:
        ro->elements_js = arg;
        return 1;
    case OPT_SURVIVORS_IN:
        ro->survivors_in = arg;
        return 1;
    case OPT_SURVIVORS_OUT:
        ro->survivors_out = arg;
        return 1;
    case OPT_REASON:
        if (!*arg) {
            lt_cli_bad_value("--reason", arg, "a non-empty sentence");
            return -1;
        }
        ro->reason = arg;
        return 1;
    case OPT_JUNIT_NO_COVERAGE:
    case OPT_JUNIT_TIMEOUT:
        if (lt_junit_policy_parse(arg, c == OPT_JUNIT_TIMEOUT
                                           ? &ro->junit_timeout
                                           : &ro->junit_no_coverage) < 0) {
            lt_cli_bad_value(c == OPT_JUNIT_TIMEOUT ? "--junit-timeout"
                                             : "--junit-no-coverage",
                      arg, "ignore, skipped, error or failure");
            return -1;
        }
        return 1;
    default:
        return 0;
    }
}

static int cmd_score(int argc, char **argv)
{
    struct lt_score_opts o;
    lt_score_opts_init(&o);
    /* Everything after `--` belongs to pytest; getopt sees only what
     * comes before it, and may permute options and PATHS freely there. */
    int split = 1;
    while (split < argc && strcmp(argv[split], "--") != 0)
        split++;
    int full_argc = argc;
    argc = split;
    char **tests = xcalloc((size_t)full_argc + 1, sizeof(char *));
    size_t n_tests = 0;
    char **cli_allow = NULL; /* --allow-read replaces the config's list */
    char **cli_env = NULL;   /* --pass-env likewise */

    /* Settings from [tool.litmus] come first; options override them.  A
     * first pass only looks for --config and --no-config. */
    const char *config = NULL;
    int use_config = 1, explicit_config = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--no-config") == 0)
            use_config = 0;
        else if (strcmp(argv[i], "--config") == 0 && i + 1 < argc)
            config = argv[++i], explicit_config = 1;
        else if (strncmp(argv[i], "--config=", 9) == 0)
            config = argv[i] + 9, explicit_config = 1;
    }
    if (!config)
        config = "pyproject.toml";
    if (use_config && (explicit_config || access(config, F_OK) == 0)) {
        char *err = NULL;
        if (lt_score_opts_from_pyproject(config, &o, &err) < 0) {
            lt_error("%s", err ? err : "cannot read the settings");
            free(err);
            free(tests);
            return 2;
        }
    }
    int config_tests = o.n_tests > 0;
    int c;
    long long lv;
    double dv;
    int code = 0;
    while ((c = lt_cli_getopt(argc, argv, "t:j:f:h", score_longopts)) != -1) {
        switch (c) {
        case 't':
            tests[n_tests++] = optarg;
            break;
        case OPT_CONFIG:
        case OPT_NO_CONFIG:
            break; /* handled above */
        case OPT_SINCE:
            o.since = optarg;
            break;
        case OPT_RERUN:
            if (strcmp(optarg, "survivors") != 0) {
                code = lt_cli_bad_value("--rerun", optarg, "survivors");
                goto out;
            }
            o.rerun_survivors = 1;
            break;
        case 'j':
            if (lt_cli_long("--jobs", optarg, 1, 1024, &lv) < 0) {
                code = 2;
                goto out;
            }
            o.jobs = (int)lv;
            break;
        case OPT_DB:
            o.db = optarg;
            break;
        case OPT_OPERATORS:
            o.operators = optarg;
            break;
        case 'f':
            if (lt_format_parse(optarg, &o.format) < 0) {
                code = lt_cli_bad_value("--format", optarg,
                                 "text, json, stryker, junit, sarif or "
                                 "github");
                goto out;
            }
            break;
        case OPT_FAIL_UNDER: {
            char buf[64];
            snprintf(buf, sizeof(buf), "%s", optarg);
            size_t n = strlen(buf);
            int percent = n > 0 && buf[n - 1] == '%';
            if (percent)
                buf[n - 1] = '\0';
            char *end;
            errno = 0;
            dv = strtod(buf, &end);
            if (errno || end == buf || *end || !(dv >= 0) ||
                dv > (percent ? 100 : 1)) {
                code = lt_cli_bad_value("--fail-under", optarg,
                                        "a fraction 0..1 or a percentage");
                goto out;
            }
            o.fail_under = percent ? dv / 100.0 : dv;
            break;
        }
        case OPT_TIMEOUT_FACTOR:
            if (lt_cli_real("--timeout-factor", optarg, 1, 1000, &o.timeout_factor) < 0) {
                code = 2;
                goto out;
            }
            break;
        case OPT_TIMEOUT_CONST:
            if (lt_cli_real("--timeout-const", optarg, 0.01, 3600, &o.timeout_const) < 0) {
                code = 2;
                goto out;
            }
            break;
        case OPT_BASELINE_TIMEOUT:
            if (lt_cli_real("--baseline-timeout", optarg, 1, 86400, &o.baseline_timeout) < 0) {
                code = 2;
                goto out;
            }
            break;
        case OPT_MEMORY:
            if (lt_cli_long("--memory-mb", optarg, 0, 1 << 20, &lv) < 0) {
                code = 2;
                goto out;
            }
            o.memory_mb = (unsigned long)lv;
            break;
        case OPT_PROGRESS:
            o.progress = 1;
            break;
        case OPT_NO_PROGRESS:
            o.progress = 0;
            break;
        case OPT_FULL_MATRIX:
            o.full_matrix = 1;
            break;
        case OPT_BASELINE_RUNS:
            if (lt_cli_long("--baseline-runs", optarg, 1, 100, &lv) < 0) {
                code = 2;
                goto out;
            }
            o.baseline_runs = (int)lv;
            break;
        case OPT_PYTHON:
            o.python = optarg;
            break;
        case OPT_RUNNER:
            if (lt_test_runner_parse(optarg, &o.runner) < 0) {
                code = lt_cli_bad_value("--runner", optarg,
                                        "pytest, unittest or doctest");
                goto out;
            }
            break;
        case OPT_DESELECT_FAILING:
            o.deselect_failing = 1;
            break;
        case OPT_ALLOW_READ:
            if (!cli_allow) {
                cli_allow = xcalloc((size_t)full_argc + 1, sizeof(char *));
                o.allow_read = cli_allow;
                o.n_allow_read = 0;
            }
            cli_allow[o.n_allow_read++] = optarg;
            break;
        case OPT_PASS_ENV:
            if (!*optarg || strchr(optarg, '=')) {
                lt_error("--pass-env: give a variable's name, not '%s'",
                         optarg);
                code = 2;
                goto out;
            }
            if (!cli_env) {
                cli_env = xcalloc((size_t)full_argc + 1, sizeof(char *));
                o.pass_env = cli_env;
                o.n_pass_env = 0;
            }
            cli_env[o.n_pass_env++] = optarg;
            break;
        case OPT_SANDBOX_UID:
            if (lt_cli_long("--sandbox-uid", optarg, 1, 4294967294LL, &lv) < 0) {
                code = 2;
                goto out;
            }
            o.sandbox_uid = (unsigned)lv;
            break;
        case OPT_SCRATCH_MB:
            if (lt_cli_long("--scratch-mb", optarg, 1, 65536, &lv) < 0) {
                code = 2;
                goto out;
            }
            o.scratch_mb = (unsigned)lv;
            break;
        case OPT_NO_FS_VIEW:
            o.no_fs_view = 1;
            break;
        case OPT_TELEMETRY:
            o.telemetry = 1;
            break;
        case OPT_EXPLAIN_SANDBOX:
            o.explain_sandbox = 1;
            break;
        case OPT_SHARD: {
            const char *why = NULL;
            if (lt_shard_parse(optarg, &o.shard_index, &o.shard_count,
                               &why) < 0) {
                code = lt_cli_bad_value("--shard", optarg, why);
                goto out;
            }
            break;
        }
        case 'h':
            fputs(usage_score, stdout);
            goto out;
        default: {
            int r = report_option(c, optarg, &o.report);
            if (r > 0)
                break;
            code = 2;
            goto out;
        }
        }
    }
    if (argc > optind) {
        o.paths = argv + optind;
        o.n_paths = (size_t)(argc - optind);
    }
    if (split < full_argc) {
        o.pytest_args = argv + split + 1;
        o.n_pytest_args = (size_t)(full_argc - split - 1);
    }
    if (o.n_paths == 0) {
        code = lt_cli_usage_error("no PATHS given: name the files or "
                                  "directories to mutate (or set paths in "
                                  "[tool.litmus])");
        goto out;
    }
    if (n_tests > 0 || !config_tests) {
        o.tests = tests;
        o.n_tests = n_tests;
    }
    o.debug = lt_log_get_level() >= LT_LOG_DEBUG;
    code = lt_score(&o);
out:
    free(cli_allow);
    free(cli_env);
    free(tests);
    return code;
}

static int cmd_patches(int argc, char **argv)
{
    struct lt_patches_opts o;
    lt_patches_opts_init(&o);
    int split = 1;
    while (split < argc && strcmp(argv[split], "--") != 0)
        split++;
    int full_argc = argc;
    argc = split;
    int c;
    long long lv;
    while ((c = lt_cli_getopt(argc, argv, "t:j:f:h", patches_longopts)) != -1) {
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
            if (parse_format(optarg, &o.format) < 0)
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
        case 'j':
            if (lt_cli_long("--jobs", optarg, 1, 1024, &lv) < 0)
                return 2;
            o.jobs = (int)lv;
            break;
        case OPT_TIMEOUT_FACTOR:
            if (lt_cli_real("--timeout-factor", optarg, 1, 1000, &o.timeout_factor) < 0)
                return 2;
            break;
        case OPT_TIMEOUT_CONST:
            if (lt_cli_real("--timeout-const", optarg, 0.01, 3600, &o.timeout_const) < 0)
                return 2;
            break;
        case OPT_TIMEOUT:
            if (lt_cli_real("--timeout", optarg, 0.1, 86400, &o.timeout) < 0)
                return 2;
            break;
        case OPT_MEMORY:
            if (lt_cli_long("--memory-mb", optarg, 0, 1 << 20, &lv) < 0)
                return 2;
            o.memory_mb = (unsigned long)lv;
            break;
        case OPT_DB:
            o.db = optarg;
            break;
        case OPT_PROGRESS:
            o.progress = 1;
            break;
        case OPT_NO_PROGRESS:
            o.progress = 0;
            break;
        case OPT_SHARD: {
            const char *why = NULL;
            if (lt_shard_parse(optarg, &o.shard_index, &o.shard_count,
                               &why) < 0)
                return lt_cli_bad_value("--shard", optarg, why);
            break;
        }
        case 'h':
            fputs(usage_patches, stdout);
            return 0;
        default:
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

static int cmd_show_or_report(int argc, char **argv, int show)
{
    const char *db = ".litmus.db";
    enum lt_format format = LT_FORMAT_TEXT;
    struct lt_report_opts ro;
    memset(&ro, 0, sizeof(ro));
    int c;
    while ((c = lt_cli_getopt(argc, argv, "f:h",
                              show ? show_longopts : report_longopts)) != -1) {
        switch (c) {
        case OPT_DB:
            db = optarg;
            break;
        case 'f':
            if (show ? parse_format(optarg, &format) < 0
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
            int r = show ? 0 : report_option(c, optarg, &ro);
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

static int cmd_merge(int argc, char **argv)
{
    int force = 0, c;
    while ((c = lt_cli_getopt(argc, argv, "h", merge_longopts)) != -1) {
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
    return lt_merge(argv[optind], argv + optind + 1,
                    (size_t)(argc - optind - 1), force);
}

static int cmd_slurm(int argc, char **argv, const char *exe)
{
    struct lt_slurm_opts o;
    lt_slurm_opts_init(&o);
    o.exe = exe;
    char **extra = xcalloc((size_t)argc + 1, sizeof(char *));
    int c, code = 2;
    long long lv;
    /* "+": stop at `score`; what follows is the score command's. */
    while ((c = lt_cli_getopt(argc, argv, "+h", slurm_longopts)) != -1) {
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

/* Runs `litmus show` and `litmus report`. */
static int cmd_show(int argc, char **argv)
{
    return cmd_show_or_report(argc, argv, 1);
}

static int cmd_report(int argc, char **argv)
{
    return cmd_show_or_report(argc, argv, 0);
}

/* The path of this binary, for the zygotes and the Slurm scripts. */
static char self_exe[PATH_MAX];

static int cmd_slurm_self(int argc, char **argv)
{
    if (!self_exe[0]) {
        lt_error("cannot find this program's path for the job scripts");
        return 3;
    }
    return cmd_slurm(argc, argv, self_exe);
}

static int cmd_completion(int argc, char **argv);
static int cmd_defaults(int argc, char **argv);

/* The commands: name, option table (for the parser, the messages and the
 * completion) and entry point.  `dataset` has one table for its modes. */
static const struct command {
    const char *name;
    const char *shortopts;
    const struct option *longopts;
    int (*run)(int argc, char **argv);
} commands[] = {
    {"score", "t:j:f:h", score_longopts, cmd_score},
    {"show", "f:h", show_longopts, cmd_show},
    {"report", "f:h", report_longopts, cmd_report},
    {"merge", "h", merge_longopts, cmd_merge},
    {"slurm", "+h", slurm_longopts, cmd_slurm_self},
    {"patches", "t:j:f:h", patches_longopts, cmd_patches},
    {"dataset", LT__CLI_DATASET_SHORTOPTS, lt__cli_dataset_longopts,
     lt__cli_dataset},
#ifdef LT_HAVE_SIMILARITY
    {"similarity", "h", NULL, lt_similarity_main},
#endif
    {"completion", "", NULL, cmd_completion},
    {"__defaults", "", NULL, cmd_defaults},
};
#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static const struct option *command_longopts(const struct command *c)
{
#ifdef LT_HAVE_SIMILARITY
    if (strcmp(c->name, "similarity") == 0)
        return lt_similarity_longopts();
#endif
    return c->longopts;
}

/* Prints the words completing an option of table LO (and the short options
 * of SHORTOPTS), filtered by KEEP when not NULL. */
static void print_option_words(FILE *f, const char *shortopts,
                               const struct option *lo,
                               int (*keep)(int val, unsigned mode),
                               unsigned mode)
{
    const char *sep = "";
    for (; lo && lo->name; lo++) {
        if (keep && !keep(lo->val, mode))
            continue;
        fprintf(f, "%s--%s", sep, lo->name);
        sep = " ";
    }
    for (const char *p = shortopts; *p; p++)
        if (*p != '+' && *p != ':' && (!keep || keep(*p, mode)))
            fprintf(f, " -%c", *p);
}

static int dataset_keep(int val, unsigned mode)
{
    return lt__cli_dataset_option_in_mode(val, (enum lt_dataset_mode)mode);
}

/* `litmus completion bash`: a bash completion script built from the
 * option tables above. */
static int cmd_completion(int argc, char **argv)
{
    if (argc == 2 && (strcmp(argv[1], "-h") == 0 ||
                      strcmp(argv[1], "--help") == 0)) {
        fputs(usage_completion, stdout);
        return 0;
    }
    if (argc != 2 || strcmp(argv[1], "bash") != 0)
        return lt_cli_usage_error("the only shell is bash: litmus "
                                  "completion bash");
    FILE *f = stdout;
    fputs("# bash completion for litmus, written by `litmus completion "
          "bash`.\n"
          "# Load it with: source <(litmus completion bash)\n"
          "_litmus() {\n"
          "    local cur=${COMP_WORDS[COMP_CWORD]} cmd=${COMP_WORDS[1]} "
          "words= i\n"
          "    COMPREPLY=()\n"
          "    if [ \"$COMP_CWORD\" -eq 1 ]; then\n"
          "        words=\"--help --version",
          f);
    for (size_t i = 0; i < N_COMMANDS; i++)
        if (commands[i].name[0] != '_')
            fprintf(f, " %s", commands[i].name);
    fputs("\"\n"
          "        COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
          "        return\n"
          "    fi\n"
          "    for ((i = 2; i < COMP_CWORD; i++)); do\n"
          "        [ \"${COMP_WORDS[i]}\" = -- ] && return\n"
          "    done\n"
          "    case $cmd in\n",
          f);
    for (size_t i = 0; i < N_COMMANDS; i++) {
        const struct command *c = &commands[i];
        if (c->name[0] == '_')
            continue;
        if (strcmp(c->name, "dataset") == 0) {
            fputs("    dataset)\n"
                  "        if [ \"$COMP_CWORD\" -eq 2 ]; then\n"
                  "            words=\"--help",
                  f);
            for (int m = LT_DS_SELECT; m <= LT_DS_REWRITE; m++)
                fprintf(f, " %s",
                        lt_dataset_mode_name((enum lt_dataset_mode)m));
            fputs("\"\n        else\n            case ${COMP_WORDS[2]} in\n",
                  f);
            for (int m = LT_DS_SELECT; m <= LT_DS_REWRITE; m++) {
                fprintf(f, "            %s) words=\"",
                        lt_dataset_mode_name((enum lt_dataset_mode)m));
                print_option_words(f, c->shortopts, command_longopts(c),
                                   dataset_keep, (unsigned)m);
                fputs("\" ;;\n", f);
            }
            fputs("            esac\n        fi ;;\n", f);
            continue;
        }
        if (strcmp(c->name, "completion") == 0) {
            fputs("    completion) words=\"bash --help\" ;;\n", f);
            continue;
        }
        fprintf(f, "    %s) words=\"", c->name);
        print_option_words(f, c->shortopts, command_longopts(c), NULL, 0);
        fputs("\" ;;\n", f);
    }
    fputs("    esac\n"
          "    if [[ $cur == -* || $cmd == completion || "
          "($cmd == dataset && $COMP_CWORD -eq 2) ]]; then\n"
          "        COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
          "    else\n"
          "        COMPREPLY=($(compgen -f -- \"$cur\"))\n"
          "    fi\n"
          "}\n"
          "complete -o default -F _litmus litmus\n",
          f);
    return fflush(f) == 0 ? 0 : 3;
}

/* `litmus __defaults` (hidden): the defaults the engine fills in, one
 * "command option value" a line, for the test that checks the help
 * texts against them. */
static int cmd_defaults(int argc, char **argv)
{
    (void)argv;
    if (argc != 1)
        return lt_cli_usage_error("takes no arguments");
    struct lt_score_opts s;
    lt_score_opts_init(&s);
    printf("score db %s\n", s.db);
    printf("score operators %s\n", s.operators);
    printf("score timeout-factor %g\n", s.timeout_factor);
    printf("score timeout-const %g\n", s.timeout_const);
    printf("score baseline-timeout %g\n", s.baseline_timeout);
    printf("score baseline-runs %d\n", s.baseline_runs);
    printf("score memory-mb %lu\n", s.memory_mb);
    printf("score sandbox-uid %u\n", s.sandbox_uid ? s.sandbox_uid : 65534);
    printf("score scratch-mb %u\n", s.scratch_mb ? s.scratch_mb : 512);
    struct lt_patches_opts p;
    lt_patches_opts_init(&p);
    printf("patches db %s\n", p.db);
    printf("patches threshold %g\n", p.threshold);
    printf("patches similarity-threshold %g\n", p.sim_threshold);
    printf("patches timeout-factor %g\n", p.timeout_factor);
    printf("patches timeout-const %g\n", p.timeout_const);
    printf("patches timeout %g\n", p.timeout);
    printf("patches mutation-budget %g\n", p.mutation_budget);
    printf("patches memory-mb %lu\n", p.memory_mb);
    struct lt_dataset_opts d;
    lt_dataset_opts_init(&d);
    printf("dataset db %s\n", d.db);
    printf("dataset seed %llu\n", d.seed);
    printf("dataset timeout %g\n", d.timeout);
    printf("dataset timeout-factor %g\n", d.timeout_factor);
    printf("dataset timeout-const %g\n", d.timeout_const);
    printf("dataset memory-mb %lu\n", d.memory_mb);
    printf("dataset per-cell %d\n", d.per_cell);
    printf("dataset per-program %d\n", d.per_program);
    printf("dataset strength %d\n", d.strength);
    printf("dataset variants %d\n", d.variants);
    printf("dataset ops %s\n", d.ops);
    struct lt_slurm_opts u;
    lt_slurm_opts_init(&u);
    printf("slurm dir %s\n", u.dir);
    printf("slurm sbatch %s\n", u.sbatch);
    return fflush(stdout) == 0 ? 0 : 3;
}

/* At exit: waits up to a second for the processes re-parented to us
 * (they die with their zygote), then kills and reaps what is left, so no
 * defunct or stray process of the run stays on the host. */
static void reap_orphans(void)
{
    for (int round = 0; round < 100; round++) {
        pid_t r = waitpid(-1, NULL, WNOHANG);
        if (r < 0 && errno == ECHILD)
            return;
        if (r <= 0)
            usleep(10000);
    }
    DIR *d = opendir("/proc");
    struct dirent *e;
    while (d && (e = readdir(d))) {
        char path[300], buf[512];
        if (e->d_name[0] < '1' || e->d_name[0] > '9')
            continue;
        snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
        FILE *f = fopen(path, "re");
        if (!f)
            continue;
        size_t k = fread(buf, 1, sizeof(buf) - 1, f);
        fclose(f);
        buf[k] = '\0';
        char *p = strrchr(buf, ')');
        int ppid = 0;
        if (p && sscanf(p + 2, "%*c %d", &ppid) == 1 && ppid == getpid())
            kill((pid_t)atoi(e->d_name), SIGKILL);
    }
    if (d)
        closedir(d);
    while (waitpid(-1, NULL, 0) > 0 || errno == EINTR)
        ;
}

int main(int argc, char **argv)
{
    /* Closed standard fds would be reused by sockets and pipes, and a
     * stray write to "stdout" would land in a wire channel. */
    for (int fd = 0; fd <= 2; fd++)
        if (fcntl(fd, F_GETFD) < 0 && open("/dev/null", O_RDWR) != fd)
            return 3;
    if (argc >= 3 && strcmp(argv[1], "__zygote") == 0) {
        char *end;
        errno = 0;
        long fd = strtol(argv[2], &end, 10);
        if (errno || end == argv[2] || *end || fd < 3 || fd > INT_MAX)
            return 3;
        lt_zygote_main((int)fd);
    }
    if (argc < 2)
        return lt_cli_usage_error("no command given");
    const char *cmd = argv[1];
    if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0 ||
        strcmp(cmd, "help") == 0) {
        fputs(usage_main, stdout);
        return 0;
    }
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "-V") == 0) {
        printf("litmus %s\n", LT_VERSION);
        return fflush(stdout) == 0 ? 0 : 3;
    }
    /* Processes of ours that outlive their parent (a zygote's pre-import
     * server or copies, when the zygote is stopped) come back to us
     * instead of to the host's init, and are reaped before we leave. */
    if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)
        atexit(reap_orphans);
    /* The zygotes are this very binary, re-executed. */
    ssize_t n = readlink("/proc/self/exe", self_exe, sizeof(self_exe) - 1);
    if (n > 0) {
        self_exe[n] = '\0';
        lt_engine_set_exe(xstrdup(self_exe));
    } else {
        self_exe[0] = '\0';
    }
    for (size_t i = 0; i < N_COMMANDS; i++) {
        if (strcmp(cmd, commands[i].name) == 0) {
            lt_cli_set_command(commands[i].name);
            optind = 0;
            return commands[i].run(argc - 1, argv + 1);
        }
    }
    if (cmd[0] == '-')
        return lt_cli_usage_error("unknown option '%s' (options follow the "
                                  "command)", cmd);
    return lt_cli_usage_error("unknown command '%s'", cmd);
}
