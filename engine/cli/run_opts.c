/* The options several commands share, parsed once: the run options of
 * score, patches and dataset, the report options of score and report.
 * SPDX-License-Identifier: MIT */
#include "engine/cli/cli.h"

#include <string.h>

#include "common/cliopt.h"

/* Contract: see cli.h. */
int lt__cli_run_option(int c, const char *arg, struct lt_run_opts *run)
{
    long long lv;
    switch (c) {
    case 'j':
        if (lt_cli_long("--jobs", arg, 1, 1024, &lv) < 0)
            return -1;
        run->jobs = (int)lv;
        return 1;
    case OPT_DB:
        run->db = arg;
        return 1;
    case OPT_TIMEOUT_FACTOR:
        return lt_cli_real("--timeout-factor", arg, 1, 1000,
                           &run->timeout_factor) < 0 ? -1 : 1;
    case OPT_TIMEOUT_CONST:
        return lt_cli_real("--timeout-const", arg, 0.01, 3600,
                           &run->timeout_const) < 0 ? -1 : 1;
    case OPT_MEMORY:
        if (lt_cli_long("--memory-mb", arg, 0, 1 << 20, &lv) < 0)
            return -1;
        run->memory_mb = (unsigned long)lv;
        return 1;
    case OPT_PROGRESS:
        run->progress = 1;
        return 1;
    case OPT_NO_PROGRESS:
        run->progress = 0;
        return 1;
    case OPT_SHARD: {
        const char *why = NULL;
        if (lt_shard_parse(arg, &run->shard_index, &run->shard_count,
                           &why) < 0) {
            lt_cli_bad_value("--shard", arg, why);
            return -1;
        }
        return 1;
    }
    default:
        return 0;
    }
}

/* Contract: see cli.h. */
int lt__cli_report_option(int c, const char *arg, struct lt_report_opts *ro)
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

/* Contract: see optable.h. */
int lt__opt_set_shard(const struct lt__opt *e, void *opts, const char *s,
                      const char **want)
{
    struct lt_run_opts *run = (void *)((char *)opts + e->offset);
    return lt_shard_parse(s, &run->shard_index, &run->shard_count, want);
}

/* Contract: see optable.h. */
int lt__opt_set_junit(const struct lt__opt *e, void *opts, const char *s,
                      const char **want)
{
    (void)want;
    return lt_junit_policy_parse(s, (void *)((char *)opts + e->offset));
}

/* Contract: see optable.h. */
int lt__opt_set_format(const struct lt__opt *e, void *opts, const char *s,
                       const char **want)
{
    (void)want;
    return lt_format_parse(s, (void *)((char *)opts + e->offset));
}

/* Contract: see optable.h. */
int lt__opt_set_text_or_json(const struct lt__opt *e, void *opts,
                             const char *s, const char **want)
{
    (void)want;
    return lt__cli_text_or_json(s, (enum lt_format *)((char *)opts +
                                                      e->offset));
}

/* Contract: see cli.h. */
int lt__cli_text_or_json(const char *s, enum lt_format *f)
{
    if (strcmp(s, "text") == 0)
        *f = LT_FORMAT_TEXT;
    else if (strcmp(s, "json") == 0)
        *f = LT_FORMAT_JSON;
    else
        return -1;
    return 0;
}
