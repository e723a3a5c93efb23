/* The checks of the options several commands share (the LT__RUN_*,
 * LT__REPORT_* and LT__FORMAT_* rows of optable.h).
 * SPDX-License-Identifier: MIT */
#include "engine/cli/cli.h"

#include <string.h>

#include "common/cliopt.h"

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

/* --format of the commands that write text or JSON only. */
static int text_or_json(const char *s, enum lt_format *f)
{
    if (strcmp(s, "text") == 0)
        *f = LT_FORMAT_TEXT;
    else if (strcmp(s, "json") == 0)
        *f = LT_FORMAT_JSON;
    else
        return -1;
    return 0;
}

/* Contract: see optable.h. */
int lt__opt_set_text_or_json(const struct lt__opt *e, void *opts,
                             const char *s, const char **want)
{
    (void)want;
    return text_or_json(s, (enum lt_format *)((char *)opts +
                                                      e->offset));
}
