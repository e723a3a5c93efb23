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
#include "runners/runner.h" /* the sandbox's defaults */

/* The help before the options, and after them. */
static const char usage_score[] =
    "usage: litmus score [PATHS...] [--tests T]... [options] [-- PYTEST_ARGS]\n"
    "\n"
    "Mutates every Python file in PATHS (files or directories; test files\n"
    "are skipped), runs the tests against each mutant in a sandboxed child\n"
    "forked from a warm interpreter, and prints the mutation score.\n"
    "Run the same command again to resume an interrupted run.\n"
    "\n"
    "options:\n";

static const char usage_score_end[] =
    "The tests run as `python -m pytest` would run them in this directory:\n"
    "with that interpreter's packages, PYTHONPATH, this directory first on\n"
    "the import path, and pytest's own settings (docs/environment.md).\n";

enum {
    OPT_OPERATORS = OPT_OWN, OPT_FAIL_UNDER, OPT_BASELINE_TIMEOUT,
    OPT_FULL_MATRIX, OPT_BASELINE_RUNS, OPT_CONFIG, OPT_NO_CONFIG,
    OPT_PYTHON, OPT_RUNNER, OPT_DESELECT_FAILING, OPT_ALLOW_READ,
    OPT_PASS_ENV, OPT_SANDBOX_UID, OPT_SCRATCH_MB, OPT_NO_FS_VIEW,
    OPT_TELEMETRY, OPT_EXPLAIN_SANDBOX, OPT_SINCE, OPT_RERUN,
    OPT_FRESH_BASELINE, OPT_MAX_TIME, KEY_ONLY,
};

/* --fail-under: a fraction 0..1, or a percentage "80%". */
static int set_fail_under(const struct lt__opt *e, void *opts,
                          const char *s, const char **want)
{
    (void)e, (void)want;
    char buf[64];
    snprintf(buf, sizeof(buf), "%s", s);
    size_t n = strlen(buf);
    int percent = n > 0 && buf[n - 1] == '%';
    if (percent)
        buf[n - 1] = '\0';
    char *end;
    errno = 0;
    double v = strtod(buf, &end);
    if (errno || end == buf || *end || !(v >= 0) || v > (percent ? 100 : 1))
        return -1;
    ((struct lt_score_opts *)opts)->fail_under = percent ? v / 100.0 : v;
    return 0;
}

/* --runner: naming one turns off the automatic unittest runner. */
static int set_runner(const struct lt__opt *e, void *opts, const char *s,
                      const char **want)
{
    (void)e, (void)want;
    struct lt_score_opts *o = opts;
    if (lt_test_runner_parse(s, &o->runner) < 0)
        return -1;
    o->runner_given = 1;
    return 0;
}

static int set_rerun(const struct lt__opt *e, void *opts, const char *s,
                     const char **want)
{
    (void)e, (void)want;
    if (strcmp(s, "survivors") != 0)
        return -1;
    ((struct lt_score_opts *)opts)->rerun_survivors = 1;
    return 0;
}

/* A --pass-env item: a name; "NAME=VALUE" would pass nothing. */
static int check_env_name(const struct lt__opt *e, void *opts, const char *s,
                          const char **want)
{
    (void)e, (void)opts, (void)want;
    return *s && !strchr(s, '=') ? 0 : -1;
}

static int check_exclusion(const struct lt__opt *e, void *opts,
                           const char *s, const char **want)
{
    (void)e, (void)opts, (void)want;
    return lt_score_exclusion_check(s);
}

#define S struct lt_score_opts
/* The options of `litmus score` and the keys of [tool.litmus], in the
 * order of the help. */
const struct lt__opt lt__score_options[] = {
    {.name = "paths", .code = KEY_ONLY, .kind = LT__OPT_LIST,
     .flags = LT__OPT_KEY_ONLY, LT__LIST(S, paths, n_paths)},
    {.name = "tests", .code = 't', .kind = LT__OPT_LIST, .flags = LT__OPT_KEY,
     .arg = "T", LT__LIST(S, tests, n_tests),
     .help = "test file or directory given to pytest\n"
             "(repeatable; default: pytest's own discovery)"},
    {.name = "runner", .code = OPT_RUNNER, .kind = LT__OPT_CUSTOM,
     .flags = LT__OPT_KEY, .arg = "R", .set = set_runner,
     .want = "pytest, unittest or doctest",
     .help = "pytest (default); unittest: discovery as\n"
             "`python -m unittest discover` (T is a start\n"
             "directory or a test name); doctest: the\n"
             "doctests of the mutated modules (and of T).\n"
             "Without it, a suite pytest cannot collect\n"
             "that looks like unittest's runs with unittest\n"
             "(a note says so); --runner pytest keeps pytest"},
    {LT__RUN_JOBS(S), .flags = LT__OPT_KEY,
     .help = "parallel runners (default: number of cores,\n"
             "up to 4 per core when the tests mostly wait)"},
    {LT__RUN_DB(S), .flags = LT__OPT_KEY | LT__OPT_DEFAULT, .arg = "FILE",
     .help = "results database (default: .litmus.db)"},
    {.name = "operators", .code = OPT_OPERATORS, .kind = LT__OPT_STRING,
     .flags = LT__OPT_KEY | LT__OPT_KEY_JOIN | LT__OPT_DEFAULT, .arg = "SET",
     LT__FIELD(S, operators),
     .help = "mutmut (default), algo1, or a comma list of\n"
             "operator names"},
    {LT__FORMAT_ANY(S), .flags = LT__OPT_KEY,
     .help = "text (default), json, stryker, junit, sarif\n"
             "or github (docs/reports.md)"},
    {LT__REPORT_HTML(S), .help = "also write the HTML report to FILE"},
    {LT__REPORT_SURVIVORS_IN(S),
     .help = "exit 1 when a mutant survives\n"
             "that the baseline FILE does not accept"},
    {LT__REPORT_SURVIVORS_OUT(S),
     .help = "write the survivors to the baseline\n"
             "FILE (reasons already there are kept)"},
    {.name = "fail-under", .code = OPT_FAIL_UNDER, .kind = LT__OPT_CUSTOM,
     .flags = LT__OPT_KEY | LT__OPT_KEY_NUMBER, .arg = "S",
     .set = set_fail_under, .want = "a fraction 0..1 or a percentage",
     .help = "exit 1 when the score is below S (0..1 or a\n"
             "percentage such as 80%)"},
    {LT__RUN_TIMEOUT_FACTOR(S), .flags = LT__OPT_KEY | LT__OPT_DEFAULT, .arg = "F",
     .help = "per-mutant limit: F x baseline time of the\n"
             "tests run (default 5)"},
    {LT__RUN_TIMEOUT_CONST(S), .flags = LT__OPT_KEY | LT__OPT_DEFAULT,
     .help = "... plus S seconds (default " STR(LT_SCORE_TIMEOUT_CONST) ")"},
    {.name = "baseline-timeout", .code = OPT_BASELINE_TIMEOUT,
     .kind = LT__OPT_REAL, .flags = LT__OPT_KEY | LT__OPT_DEFAULT,
     .arg = "S", .lo = 1, .hi = 86400, LT__FIELD(S, baseline_timeout),
     .help = "limit for the unmutated run (default 300)"},
    {.name = "max-time", .code = OPT_MAX_TIME, .kind = LT__OPT_DURATION,
     .flags = LT__OPT_KEY, .arg = "T", .hi = LT_MAX_TIME_MAX,
     LT__FIELD(S, max_time),
     .help = "time budget of the whole run (90, 90s, 15m,\n"
             "2h, 1h30m): when the mutants would pass it,\n"
             "the expected time is said first and the\n"
             "cheapest and most informative run first; at\n"
             "T no mutant starts, the rest are reported as\n"
             "not_run and the same command runs them (the\n"
             "limit of one mutant is --timeout-factor's)"},
    {.name = "baseline-runs", .code = OPT_BASELINE_RUNS, .kind = LT__OPT_INT,
     .flags = LT__OPT_KEY | LT__OPT_DEFAULT, .arg = "N", .lo = 1, .hi = 100,
     LT__FIELD(S, baseline_runs),
     .help = "unmutated runs; tests whose outcome changes\n"
             "are flaky and left out (default 2)"},
    {.name = "full-matrix", .code = OPT_FULL_MATRIX, .kind = LT__OPT_FLAG,
     .flags = LT__OPT_KEY, .lo = 1, LT__FIELD(S, full_matrix),
     .help = "run every covering test of each mutant, not\n"
             "just up to the first failure"},
    {.name = "python", .code = OPT_PYTHON, .kind = LT__OPT_STRING,
     .flags = LT__OPT_KEY | LT__OPT_NONEMPTY, .arg = "PY",
     .want = "an interpreter or a venv directory", LT__FIELD(S, python),
     .help = "interpreter (or venv directory) that runs the\n"
             "tests, with its packages: any CPython 3.9-3.13\n"
             "with a shared libpython (default: the active\n"
             "venv, else ./.venv or ./venv, else\n"
             "/usr/bin/python3)"},
    {.name = "deselect-failing", .code = OPT_DESELECT_FAILING,
     .kind = LT__OPT_FLAG, .flags = LT__OPT_KEY, .lo = 1,
     LT__FIELD(S, deselect_failing),
     .help = "drop tests that fail on the original code\n"
             "(they are listed) instead of stopping"},
    {.name = "allow-read", .code = OPT_ALLOW_READ, .kind = LT__OPT_LIST,
     .flags = LT__OPT_KEY, .arg = "PATH",
     LT__LIST(S, allow_read, n_allow_read),
     .help = "let the tests read PATH too (repeatable; the\n"
             "sandbox shows them only the project, the\n"
             "interpreter's paths and system libraries)"},
    {.name = "pass-env", .code = OPT_PASS_ENV, .kind = LT__OPT_LIST,
     .flags = LT__OPT_KEY, .arg = "NAME", .set = check_env_name,
     .want = "a variable's name", LT__LIST(S, pass_env, n_pass_env),
     .help = "let the tests see environment variable NAME\n"
             "(repeatable; they see only PATH, HOME, TMPDIR,\n"
             "LANG, LC_*, TZ, PYTHON* and PYTEST_* besides)"},
    {.name = "sandbox-uid", .code = OPT_SANDBOX_UID, .kind = LT__OPT_INT,
     .flags = LT__OPT_KEY | LT__OPT_DEFAULT, .arg = "N", .lo = 1,
     .hi = 4294967294.0, LT__FIELD(S, sandbox_uid),
     .zero_means = LT_RUNNER_SANDBOX_UID,
     .help = "uid of the tests when litmus runs as root\n"
             "(default 65534, nobody)"},
    {.name = "scratch-mb", .code = OPT_SCRATCH_MB, .kind = LT__OPT_INT,
     .flags = LT__OPT_KEY | LT__OPT_DEFAULT, .arg = "N", .lo = 1,
     .hi = 65536, LT__FIELD(S, scratch_mb),
     .zero_means = LT_RUNNER_SCRATCH_MB,
     .help = "size of the tests' writable scratch (default\n"
             "512)"},
    {.name = "no-fs-view", .code = OPT_NO_FS_VIEW, .kind = LT__OPT_FLAG,
     .lo = 1, LT__FIELD(S, no_fs_view),
     .help = "no private file-system view (Landlock only)"},
    {.name = "telemetry", .code = OPT_TELEMETRY, .kind = LT__OPT_FLAG,
     .lo = 1, LT__FIELD(S, telemetry),
     .help = "record what each mutant's child tried: refused\n"
             "system calls, signals (BPF; root or CAP_BPF)"},
    {.name = "explain-sandbox", .code = OPT_EXPLAIN_SANDBOX,
     .kind = LT__OPT_FLAG, .lo = 1, LT__FIELD(S, explain_sandbox),
     .help = "print what the tests can see and stop"},
    {LT__RUN_SHARD(S),
     .help = "run only slice I of N (0 <= I < N) of the\n"
             "mutants, a fixed deal by mutant id; give each\n"
             "shard its own --db, then `litmus merge`\n"
             "(docs/scale.md)"},
    {.name = "since", .code = OPT_SINCE, .kind = LT__OPT_STRING,
     .arg = "REV", LT__FIELD(S, since),
     .help = "mutate only lines changed since git revision\n"
             "REV (docs/incremental.md)"},
    {.name = "rerun", .code = OPT_RERUN, .kind = LT__OPT_CUSTOM,
     .arg = "survivors", .set = set_rerun, .want = "survivors",
     .help = "reuse every earlier verdict of this --db but\n"
             "survived and no_coverage ones"},
    {.name = "fresh-baseline", .code = OPT_FRESH_BASELINE,
     .kind = LT__OPT_FLAG, .lo = 1, LT__FIELD(S, fresh_baseline),
     .help = "run every test of the baseline again instead\n"
             "of reusing the stored results of tests whose\n"
             "files did not change (docs/incremental.md)"},
    {LT__RUN_MEMORY(S), .flags = LT__OPT_KEY | LT__OPT_DEFAULT,
     .help = "address-space limit of a child (default "
             LT_MEMORY_MB_DEFAULT_TEXT ",\n0 for none)"},
    {LT__RUN_PROGRESS(S),
     .help = "progress on stderr with the time\n"
             "left: the mutants, and the compilation, the\n"
             "collection and the baseline's tests when they\n"
             "last (default: a live line on a terminal, a\n"
             "plain line every 30 s otherwise; --progress:\n"
             "the live line anywhere)"},
    {LT__RUN_NO_PROGRESS(S)},
    {LT__REPORT_REASON(S),
     .label = "--reason TEXT, --elements-js FILE, --junit-no-coverage P,\n"
              "      --junit-timeout P",
     .help = "as for `litmus report`"},
    {LT__REPORT_ELEMENTS_JS(S)},
    {LT__REPORT_JUNIT_NO_COVERAGE(S)},
    {LT__REPORT_JUNIT_TIMEOUT(S)},
    {.name = "config", .code = OPT_CONFIG, .kind = LT__OPT_COMMAND,
     .arg = "FILE",
     .help = "read [tool.litmus] from FILE (default:\n"
             "./pyproject.toml when it exists)"},
    {.name = "no-config", .code = OPT_NO_CONFIG, .kind = LT__OPT_COMMAND,
     .help = "ignore pyproject.toml"},
    {LT__HELP_ROW},
    {.name = "pytest-args", .code = KEY_ONLY, .kind = LT__OPT_LIST,
     .flags = LT__OPT_KEY_ONLY, LT__LIST(S, pytest_args, n_pytest_args)},
    {.name = "exclude", .code = KEY_ONLY, .kind = LT__OPT_LIST,
     .flags = LT__OPT_KEY_ONLY, LT__LIST(S, exclude, n_exclude)},
    {.name = "exclude-operators", .code = KEY_ONLY, .kind = LT__OPT_LIST,
     .flags = LT__OPT_KEY_ONLY, .set = check_exclusion,
     .want = "OP or OP:GLOB, OP an operator's name",
     LT__LIST(S, exclude_ops, n_exclude_ops)},
    {.name = NULL},
};
#undef S

/* Contract: see cli.h. */
void lt__score_help(FILE *f)
{
    fputs(usage_score, f);
    lt__opt_help(f, lt__score_options, -1);
    fputs("\n"
          "Arguments after `--` go to pytest, e.g. `-- --correct -k sort`; "
          "with\n"
          "--runner unittest, to unittest's discovery (`-- discover -s "
          "tests -p\n"
          "'*_test.py'`); with --runner doctest, to doctest (`-- -o "
          "ELLIPSIS`).\n",
          f);
    lt__opt_keys(f, "[tool.litmus] keys are the long options (",
                 lt__score_options,
                 "); the command line overrides them.", 72);
    fputs("\n", f);
    fputs(usage_score_end, f);
}

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
    if (lt__opt_read_pyproject(lt__score_options, config, o, &err) < 0) {
        lt_error("%s", err ? err : "cannot read the settings");
        free(err);
        return -1;
    }
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
    struct lt__opt_parser p;
    int code = 0;

    /* Settings from [tool.litmus] come first; options override them. */
    if (read_config(argc, argv, &o) < 0)
        return 2;
    lt__opt_start(&p, lt__score_options, "", -1, argc, argv, &o);
    int c;
    while ((c = lt__opt_next(&p)) > 0) {
        if (c == 'h') {
            lt__score_help(stdout);
            goto out;
        }
        /* --config and --no-config were read above. */
    }
    if (c < 0) {
        code = 2;
        goto out;
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
    o.debug = lt_log_get_level() >= LT_LOG_DEBUG;
    code = lt_score(&o);
out:
    lt__opt_end(&p);
    return code;
}
