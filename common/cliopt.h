/* Command-line conventions shared by every litmus command: one getopt
 * loop wrapper, two-line usage errors, range-checked option values.
 * SPDX-License-Identifier: MIT */
#ifndef LT_COMMON_CLIOPT_H
#define LT_COMMON_CLIOPT_H

#include <getopt.h>

/* Exit status of a usage error. */
#define LT_CLI_USAGE 2

/* Names the running command ("score", "dataset select") for the messages
 * below; the string must outlive the parse. */
void lt_cli_set_command(const char *name);

/* Prints "litmus CMD: MESSAGE" and "Try 'litmus CMD --help'." to stderr
 * and returns LT_CLI_USAGE. */
int lt_cli_usage_error(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

/* getopt_long() with the conventions: options and operands mix freely
 * until `--` (unless shortopts starts with '+'), and an unknown option or
 * a missing value is reported by lt_cli_usage_error(); then it returns
 * '?'.  Set optind = 0 before the first call on a new argv. */
int lt_cli_getopt(int argc, char **argv, const char *shortopts,
                  const struct option *longopts);

/* A duration: seconds as a number ("90", "2.5"), or numbers each with
 * a unit, s, m or h ("90s", "15m", "2h", "1h30m", "1.5h"), at most one
 * of each unit, larger ones first.  0 and *seconds set, or -1 for
 * anything else (a sign, an exponent, spaces, "inf", a bare number after
 * a unit as in "1h30").  No range is checked. */
int lt_parse_duration(const char *s, double *seconds);

/* lt_parse_duration for option OPT, in (0, hi] seconds: 0 and *out set,
 * or a usage error naming the accepted forms and hi printed and -1. */
int lt_cli_duration(const char *opt, const char *s, double hi, double *out);

/* A bad value for OPT: "OPT: invalid value 'S' (WANT)", as a usage
 * error; returns LT_CLI_USAGE. */
int lt_cli_bad_value(const char *opt, const char *s, const char *want);

/* argv index where `--` stands, or argc. */
int lt_cli_split(int argc, char **argv);

#endif
