/* The command-line conventions of common/cliopt.h.
 * SPDX-License-Identifier: MIT */
#include "common/cliopt.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *command = "";

void lt_cli_set_command(const char *name)
{
    command = name ? name : "";
}

int lt_cli_usage_error(const char *fmt, ...)
{
    const char *sp = *command ? " " : "";
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "litmus%s%s: ", sp, command);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\nTry 'litmus%s%s --help'.\n", sp, command);
    va_end(ap);
    return LT_CLI_USAGE;
}

int lt_cli_bad_value(const char *opt, const char *s, const char *want)
{
    return lt_cli_usage_error("%s: invalid value '%s' (%s)", opt, s, want);
}

int lt_cli_getopt(int argc, char **argv, const char *shortopts,
                  const struct option *longopts)
{
    /* A leading ':' (after '+' or '-') makes getopt quiet and tell a
     * missing value (':') from an unknown option ('?'). */
    char spec[64];
    const char *rest = shortopts;
    size_t k = 0;
    if (*rest == '+' || *rest == '-')
        spec[k++] = *rest++;
    spec[k++] = ':';
    snprintf(spec + k, sizeof(spec) - k, "%s", rest);
    opterr = 0;
    int c = getopt_long(argc, argv, spec, longopts, NULL);
    if (c != '?' && c != ':')
        return c;
    const char *arg = optind > 0 && optind <= argc ? argv[optind - 1] : "";
    int is_long = strncmp(arg, "--", 2) == 0;
    if (c == ':') {
        if (is_long)
            lt_cli_usage_error("option '%.*s' needs a value",
                               (int)strcspn(arg, "="), arg);
        else
            lt_cli_usage_error("option '-%c' needs a value", optopt);
    } else if (is_long) {
        lt_cli_usage_error("unknown option '%.*s'", (int)strcspn(arg, "="),
                           arg);
    } else if (optopt) {
        lt_cli_usage_error("unknown option '-%c'", optopt);
    } else {
        lt_cli_usage_error("unknown option '%s'", arg);
    }
    return '?';
}

int lt_parse_duration(const char *s, double *seconds)
{
    static const char units[] = "hms";
    static const double scale[] = {3600, 60, 1};
    double total = 0;
    int next_unit = 0; /* units[next_unit..] may still come */
    if (!s || !*s)
        return -1;
    while (*s) {
        /* Digits, then an optional fraction: no sign, no exponent. */
        const char *p = s;
        double v = 0;
        while (*p >= '0' && *p <= '9')
            v = v * 10 + (*p++ - '0');
        if (p == s)
            return -1;
        if (*p == '.') {
            double f = 0.1;
            const char *q = ++p;
            while (*p >= '0' && *p <= '9') {
                v += (*p++ - '0') * f;
                f /= 10;
            }
            if (p == q)
                return -1;
        }
        if (!*p) {
            /* A bare number is seconds, but only alone: "1h30" could mean
             * thirty minutes or thirty seconds. */
            if (next_unit > 0)
                return -1;
            total = v;
            break;
        }
        const char *u = strchr(units + next_unit, *p);
        if (!u)
            return -1;
        next_unit = (int)(u - units) + 1;
        total += v * scale[u - units];
        s = p + 1;
    }
    *seconds = total;
    return 0;
}

int lt_cli_duration(const char *opt, const char *s, double hi, double *out)
{
    double v = 0;
    if (lt_parse_duration(s, &v) < 0 || !(v > 0) || v > hi) {
        char want[96];
        snprintf(want, sizeof(want), "a duration such as 90, 90s, 15m, 2h "
                 "or 1h30m, at most %gh", hi / 3600);
        lt_cli_bad_value(opt, s, want);
        return -1;
    }
    *out = v;
    return 0;
}

int lt_cli_split(int argc, char **argv)
{
    int i = 1;
    while (i < argc && strcmp(argv[i], "--") != 0)
        i++;
    return i;
}
