/* `litmus score`: its options, its help and the settings of
 * [tool.litmus] that come before them.
 * SPDX-License-Identifier: MIT */
#include "engine/cli/cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/cliopt.h"
#include "common/log.h"
#include "common/xmalloc.h"

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
    "                         doctests of the mutated modules (and of T).\n"
    "                         Without it, a suite pytest cannot collect\n"
    "                         that looks like unittest's runs with unittest\n"
    "                         (a note says so); --runner pytest keeps pytest\n"
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
    "      --max-time T       time budget of the whole run (90, 90s, 15m,\n"
    "                         2h, 1h30m): when the mutants would pass it,\n"
    "                         the expected time is said first and the\n"
    "                         cheapest and most informative run first; at\n"
    "                         T no mutant starts, the rest are reported as\n"
    "                         not_run and the same command runs them (the\n"
    "                         limit of one mutant is --timeout-factor's)\n"
    "      --baseline-runs N  unmutated runs; tests whose outcome changes\n"
    "                         are flaky and left out (default 2)\n"
    "      --full-matrix      run every covering test of each mutant, not\n"
    "                         just up to the first failure\n"
    "      --python PY        interpreter (or venv directory) that runs the\n"
    "                         tests, with its packages: any CPython 3.9-3.13\n"
    "                         with a shared libpython (default: the active\n"
    "                         venv, else ./.venv or ./venv, else\n"
    "                         /usr/bin/python3)\n"
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
    "      --fresh-baseline   run every test of the baseline again instead\n"
    "                         of reusing the stored results of tests whose\n"
    "                         files did not change (docs/incremental.md)\n"
    "      --memory-mb N      address-space limit of a child (default "
    LT_MEMORY_MB_DEFAULT_TEXT ",\n"
    "                         0 for none)\n"
    "      --progress / --no-progress  progress on stderr with the time\n"
    "                         left: the mutants, and the compilation, the\n"
    "                         collection and the baseline's tests when they\n"
    "                         last (default: a live line on a terminal, a\n"
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
    "baseline-timeout, max-time, baseline-runs, memory-mb, full-matrix,\n"
    "pytest-args, runner, python, deselect-failing, allow-read, pass-env,\n"
    "sandbox-uid, scratch-mb); the command line overrides them.\n"
    "\n"
    "The tests run as `python -m pytest` would run them in this directory:\n"
    "with that interpreter's packages, PYTHONPATH, this directory first on\n"
    "the import path, and pytest's own settings (docs/environment.md).\n";

enum {
    OPT_OPERATORS = OPT_OWN, OPT_FAIL_UNDER, OPT_BASELINE_TIMEOUT,
    OPT_FULL_MATRIX, OPT_BASELINE_RUNS, OPT_CONFIG, OPT_NO_CONFIG,
    OPT_PYTHON, OPT_RUNNER, OPT_DESELECT_FAILING, OPT_ALLOW_READ,
    OPT_PASS_ENV, OPT_SANDBOX_UID, OPT_SCRATCH_MB, OPT_NO_FS_VIEW,
    OPT_TELEMETRY, OPT_EXPLAIN_SANDBOX, OPT_SINCE, OPT_RERUN,
    OPT_FRESH_BASELINE, OPT_MAX_TIME,
};

const struct option lt__score_longopts[] = {
    {"tests", required_argument, NULL, 't'},
    {"operators", required_argument, NULL, OPT_OPERATORS},
    {"format", required_argument, NULL, 'f'},
    {"fail-under", required_argument, NULL, OPT_FAIL_UNDER},
    {"baseline-timeout", required_argument, NULL, OPT_BASELINE_TIMEOUT},
    {"max-time", required_argument, NULL, OPT_MAX_TIME},
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
    {"since", required_argument, NULL, OPT_SINCE},
    {"rerun", required_argument, NULL, OPT_RERUN},
    {"fresh-baseline", no_argument, NULL, OPT_FRESH_BASELINE},
    {"config", required_argument, NULL, OPT_CONFIG},
    {"no-config", no_argument, NULL, OPT_NO_CONFIG},
    RUN_LONGOPTS,
    REPORT_LONGOPTS,
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};


/* The settings of [tool.litmus] in the --config file (default
 * pyproject.toml, when it exists), unless --no-config: a first pass over
 * the options looks for those two only.  0, or -1 after printing why. */
static int read_config(int argc, char **argv, struct lt_score_opts *o)
{
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
    if (!use_config || (!explicit_config && access(config, F_OK) != 0))
        return 0;
    char *err = NULL;
    if (lt_score_opts_from_pyproject(config, o, &err) < 0) {
        lt_error("%s", err ? err : "cannot read the settings");
        free(err);
        return -1;
    }
    return 0;
}

/* --fail-under: a fraction 0..1, or a percentage "80%".  0, or -1. */
static int parse_fail_under(const char *arg, double *out)
{
    char buf[64];
    snprintf(buf, sizeof(buf), "%s", arg);
    size_t n = strlen(buf);
    int percent = n > 0 && buf[n - 1] == '%';
    if (percent)
        buf[n - 1] = '\0';
    char *end;
    errno = 0;
    double v = strtod(buf, &end);
    if (errno || end == buf || *end || !(v >= 0) || v > (percent ? 100 : 1))
        return -1;
    *out = percent ? v / 100.0 : v;
    return 0;
}

/* `litmus score ...` with argv[0] = "score". */
int lt__cmd_score(int argc, char **argv)
{
    struct lt_score_opts o;
    lt_score_opts_init(&o);
    /* Everything after `--` belongs to pytest; getopt sees only what
     * comes before it, and may permute options and PATHS freely there. */
    int split = lt_cli_split(argc, argv);
    int full_argc = argc;
    argc = split;
    char **tests = xcalloc((size_t)full_argc + 1, sizeof(char *));
    size_t n_tests = 0;
    char **cli_allow = NULL; /* --allow-read replaces the config's list */
    char **cli_env = NULL;   /* --pass-env likewise */

    /* Settings from [tool.litmus] come first; options override them. */
    if (read_config(argc, argv, &o) < 0) {
        free(tests);
        return 2;
    }
    int config_tests = o.n_tests > 0;
    int c;
    long long lv;
    int code = 0;
    while ((c = lt_cli_getopt(argc, argv, "t:j:f:h", lt__score_longopts)) !=
           -1) {
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
        case OPT_FRESH_BASELINE:
            o.fresh_baseline = 1;
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
        case OPT_FAIL_UNDER:
            if (parse_fail_under(optarg, &o.fail_under) < 0) {
                code = lt_cli_bad_value("--fail-under", optarg,
                                        "a fraction 0..1 or a percentage");
                goto out;
            }
            break;
        case OPT_BASELINE_TIMEOUT:
            if (lt_cli_real("--baseline-timeout", optarg, 1, 86400, &o.baseline_timeout) < 0) {
                code = 2;
                goto out;
            }
            break;
        case OPT_MAX_TIME:
            if (lt_cli_duration("--max-time", optarg, LT_MAX_TIME_MAX,
                                &o.max_time) < 0) {
                code = 2;
                goto out;
            }
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
            o.runner_given = 1;
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
        case 'h':
            fputs(usage_score, stdout);
            goto out;
        default:
            if (lt__cli_run_option(c, optarg, &o.run) > 0 ||
                lt__cli_report_option(c, optarg, &o.report) > 0)
                break;
            code = 2;
            goto out;
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

