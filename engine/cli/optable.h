/* The option table of a command: one row an option, from which its getopt
 * arrays, the option lines of its --help, its bash completion words, its
 * value checks and (for `score`) its [tool.litmus] keys all come, so that
 * an option is described once.  Internal to engine/cli.
 * SPDX-License-Identifier: MIT */
#ifndef LT_ENGINE_CLI_OPTABLE_H
#define LT_ENGINE_CLI_OPTABLE_H

#include <getopt.h>
#include <stddef.h>
#include <stdio.h>

#include "engine/engine.h"

/* How an option's value is read and where it goes. */
enum lt__opt_kind {
    LT__OPT_FLAG,     /* no value: stores .lo into an int */
    LT__OPT_STRING,   /* a const char *, as given; .set, when given,
                         checks it */
    LT__OPT_LIST,     /* repeatable: a char ** and its size_t count (.count);
                         .set, when given, checks each item */
    LT__OPT_INT,      /* a whole number in [lo, hi] into an int, unsigned or
                         unsigned long (.size tells) */
    LT__OPT_REAL,     /* a number in [lo, hi] into a double */
    LT__OPT_DURATION, /* lt_parse_duration() in (0, hi] seconds, a double */
    LT__OPT_CUSTOM,   /* .set reads the text and stores it */
    LT__OPT_COMMAND,  /* the command's own code acts on it (help, config) */
};

/* .flags */
#define LT__OPT_KEY 1u         /* also a [tool.litmus] key */
#define LT__OPT_KEY_ONLY 2u    /* only a [tool.litmus] key, no option */
#define LT__OPT_HELP_ONLY 4u   /* a second help entry of an option above */
#define LT__OPT_NONEMPTY 8u    /* a STRING that must not be empty */
#define LT__OPT_KEY_NUMBER 16u /* a CUSTOM key that also takes a number */
#define LT__OPT_KEY_JOIN 32u   /* a STRING key that also takes a list,
                                  joined by commas */
#define LT__OPT_SAYS_WHY 64u   /* a CUSTOM row whose .set prints its own
                                  usage error */
#define LT__OPT_DEFAULT 128u   /* the help states the default, which
                                  `litmus __defaults` prints from the
                                  options' _init() for the help's test */

struct lt__opt {
    const char *name;         /* the long option (and key); NULL ends */
    int code;                 /* getopt's value; below 256 it is also
                                 the short option */
    enum lt__opt_kind kind;
    unsigned flags;
    const char *arg;          /* the value's name in the help ("N") */
    const char *label;        /* the help's left column when it is not
                                 "--name ARG" (after the indent) */
    const char *help;         /* description, lines split by '\n'; NULL:
                                 described under another option */
    const char *section;      /* printed before this option's help */
    double lo, hi;            /* INT, REAL: the range; DURATION: hi;
                                 FLAG: the value stored */
    size_t offset, size;      /* the field in the command's options */
    size_t count;             /* LIST: offset of its size_t count */
    /* CUSTOM: reads S into the options OPTS (its field at E->offset):
     * 0, or -1 and *want (what the value should be) when .want is not
     * enough.  LIST: checks one item (OPTS is NULL). */
    int (*set)(const struct lt__opt *e, void *opts, const char *s,
               const char **want);
    const char *want;         /* what a value should be, for messages */
    unsigned modes;           /* dataset: bit 1 << mode; 0: every mode */
    double zero_means;        /* DEFAULT: what 0 in the field stands for
                                 (the engine's own choice), when not 0 */
};

/* A field of options struct T, for a row of the table. */
#define LT__FIELD(T, f) .offset = offsetof(T, f), .size = sizeof(((T *)0)->f)
#define LT__LIST(T, f, n) LT__FIELD(T, f), .count = offsetof(T, n)

/* The rows below are the options several commands share; their checks
 * are in engine/cli/run_opts.c. */

/* The run options of every job that runs tests (struct lt_run_opts as
 * member `run` of T): name, code, kind and range once; each command adds
 * its own help text. */
#define LT__RUN_JOBS(T)                                                    \
    .name = "jobs", .code = 'j', .kind = LT__OPT_INT, .arg = "N", .lo = 1, \
    .hi = 1024, LT__FIELD(T, run.jobs)
#define LT__RUN_DB(T)                                                      \
    .name = "db", .code = OPT_DB, .kind = LT__OPT_STRING,                  \
    LT__FIELD(T, run.db)
#define LT__RUN_TIMEOUT_FACTOR(T)                                          \
    .name = "timeout-factor", .code = OPT_TIMEOUT_FACTOR,                  \
    .kind = LT__OPT_REAL, .lo = 1, .hi = 1000,                             \
    LT__FIELD(T, run.timeout_factor)
#define LT__RUN_TIMEOUT_CONST(T)                                           \
    .name = "timeout-const", .code = OPT_TIMEOUT_CONST,                    \
    .kind = LT__OPT_REAL, .arg = "S", .lo = 0.01, .hi = 3600,              \
    LT__FIELD(T, run.timeout_const)
#define LT__RUN_MEMORY(T)                                                  \
    .name = "memory-mb", .code = OPT_MEMORY, .kind = LT__OPT_INT,          \
    .arg = "N", .lo = 0, .hi = 1 << 20, LT__FIELD(T, run.memory_mb)
#define LT__RUN_PROGRESS(T)                                                \
    .name = "progress", .code = OPT_PROGRESS, .kind = LT__OPT_FLAG,        \
    .lo = 1, .label = "--progress / --no-progress",                        \
    LT__FIELD(T, run.progress)
/* The help of --progress for the jobs without score's phases. */
#define LT__RUN_PROGRESS_HELP                                              \
    "progress on stderr with the time\n"                                   \
    "left (default: a live line on a terminal, a\n"                        \
    "plain line every 30 s otherwise; --progress:\n"                       \
    "the live line anywhere)"
#define LT__RUN_NO_PROGRESS(T)                                             \
    .name = "no-progress", .code = OPT_NO_PROGRESS, .kind = LT__OPT_FLAG,  \
    .lo = 0, LT__FIELD(T, run.progress)
#define LT__RUN_SHARD(T)                                                   \
    .name = "shard", .code = OPT_SHARD, .kind = LT__OPT_CUSTOM,            \
    .arg = "I/N", .set = lt__opt_set_shard, LT__FIELD(T, run)
int lt__opt_set_shard(const struct lt__opt *e, void *opts, const char *s,
                      const char **want);

/* The report options of `score` and `report` (struct lt_report_opts as
 * member `report` of T). */
#define LT__REPORT_HTML(T)                                                 \
    .name = "html", .code = OPT_HTML, .kind = LT__OPT_STRING,              \
    .arg = "FILE", LT__FIELD(T, report.html)
#define LT__REPORT_ELEMENTS_JS(T)                                          \
    .name = "elements-js", .code = OPT_ELEMENTS_JS, .kind = LT__OPT_STRING, \
    .arg = "FILE", LT__FIELD(T, report.elements_js)
#define LT__REPORT_SURVIVORS_IN(T)                                         \
    .name = "fail-on-new-survivors", .code = OPT_SURVIVORS_IN,             \
    .kind = LT__OPT_STRING, .arg = "FILE", LT__FIELD(T, report.survivors_in)
#define LT__REPORT_SURVIVORS_OUT(T)                                        \
    .name = "write-survivors", .code = OPT_SURVIVORS_OUT,                  \
    .kind = LT__OPT_STRING, .arg = "FILE",                                 \
    LT__FIELD(T, report.survivors_out)
#define LT__REPORT_REASON(T)                                               \
    .name = "reason", .code = OPT_REASON, .kind = LT__OPT_STRING,          \
    .flags = LT__OPT_NONEMPTY, .arg = "TEXT", .want = "a non-empty sentence", \
    LT__FIELD(T, report.reason)
#define LT__REPORT_JUNIT_NO_COVERAGE(T)                                    \
    .name = "junit-no-coverage", .code = OPT_JUNIT_NO_COVERAGE,            \
    .kind = LT__OPT_CUSTOM, .arg = "P", .set = lt__opt_set_junit,          \
    .want = "ignore, skipped, error or failure",                           \
    LT__FIELD(T, report.junit_no_coverage)
#define LT__REPORT_JUNIT_TIMEOUT(T)                                        \
    .name = "junit-timeout", .code = OPT_JUNIT_TIMEOUT,                    \
    .kind = LT__OPT_CUSTOM, .arg = "P", .set = lt__opt_set_junit,          \
    .want = "ignore, skipped, error or failure",                           \
    LT__FIELD(T, report.junit_timeout)
int lt__opt_set_junit(const struct lt__opt *e, void *opts, const char *s,
                      const char **want);

/* --format of the commands that write every report format. */
#define LT__FORMAT_ANY(T)                                                  \
    .name = "format", .code = 'f', .kind = LT__OPT_CUSTOM, .arg = "FMT",   \
    .set = lt__opt_set_format,                                             \
    .want = "text, json, stryker, junit, sarif or github",                 \
    LT__FIELD(T, format)
int lt__opt_set_format(const struct lt__opt *e, void *opts, const char *s,
                       const char **want);

/* --format of the commands that write text or JSON only. */
#define LT__FORMAT_TEXT_OR_JSON(T)                                         \
    .name = "format", .code = 'f', .kind = LT__OPT_CUSTOM, .arg = "FMT",   \
    .set = lt__opt_set_text_or_json, .want = "text or json",               \
    LT__FIELD(T, format)
int lt__opt_set_text_or_json(const struct lt__opt *e, void *opts,
                             const char *s, const char **want);

#define LT__HELP_ROW                                                       \
    .name = "help", .code = 'h', .kind = LT__OPT_COMMAND, .help = "this text"

/* The getopt arrays of table T: *longopts (caller frees) and shortopts
 * (PREFIX, e.g. "+", then the short options), for the rows whose modes
 * include MODE (any mode: -1).  Key-only and help-only rows are left out. */
void lt__opt_getopt(const struct lt__opt *t, const char *prefix, int mode,
                    struct option **longopts, char *shortopts, size_t size);

/* The row of T for getopt's value CODE in MODE (-1: any), or NULL. */
const struct lt__opt *lt__opt_find(const struct lt__opt *t, int code,
                                   int mode);

/* Reads S, the value of row E on the command line, into OPTS (the
 * command's options struct).  LIST rows get a new list the first time
 * (replacing one from [tool.litmus]), of room CAP items, recorded in
 * OWNED (NULL-terminated, room for LT__OPT_MAX_LISTS; the caller frees
 * the lists and not the strings).  0, or a usage error printed and -1. */
int lt__opt_apply(const struct lt__opt *e, const char *s, void *opts,
                  size_t cap, char ***owned);

/* The most LIST rows a table may have. */
#define LT__OPT_MAX_LISTS 7

/* A command line being read by a table: lt__opt_start(), then
 * lt__opt_next() until it returns 0 (optind is then at the operands) or
 * -1, then lt__opt_end(). */
struct lt__opt_parser {
    const struct lt__opt *table;
    int mode;
    int argc;
    char **argv;
    void *opts;
    struct option *longopts;
    char shortopts[64];
    char **owned[LT__OPT_MAX_LISTS + 1]; /* the lists the command line
                                            replaced, NULL-terminated */
};
void lt__opt_start(struct lt__opt_parser *p, const struct lt__opt *t,
                   const char *prefix, int mode, int argc, char **argv,
                   void *opts);

/* Reads the next option into the options: the code of a COMMAND row (the
 * caller acts on it; optarg holds its value), 0 at the end, or -1 after a
 * usage error printed (an unknown option, one of another mode, a bad
 * value). */
int lt__opt_next(struct lt__opt_parser *p);

/* Frees the parser's arrays and the lists it made: after the options
 * are used. */
void lt__opt_end(struct lt__opt_parser *p);

/* The option lines of the help of T for MODE (-1: any), in table order,
 * with each row's section before it. */
void lt__opt_help(FILE *f, const struct lt__opt *t, int mode);

/* lt__opt_help() in another layout: the long-only options indented by
 * INDENT columns (lt__opt_help: 6, under the long name of "  -x, --x")
 * and the descriptions from COLUMN (lt__opt_help: 25).  A label ending
 * in '\n' puts its description on the next line. */
void lt__opt_help_at(FILE *f, const struct lt__opt *t, int mode, int indent,
                     int column);

/* The completion words of T for MODE: the long options, then the short
 * ones, separated by spaces. */
void lt__opt_words(FILE *f, const struct lt__opt *t, int mode);

/* Prints "COMMAND NAME VALUE" for each row of T flagged LT__OPT_DEFAULT
 * (the first row of a name), VALUE read from OPTS as the row's kind
 * stores it (a CUSTOM row's field is a whole number). */
void lt__opt_defaults(FILE *f, const char *command, const struct lt__opt *t,
                      const void *opts);

/* The sentence BEFORE, the [tool.litmus] keys of T comma-separated,
 * AFTER, broken into lines of at most WIDTH columns. */
void lt__opt_keys(FILE *f, const char *before, const struct lt__opt *t,
                  const char *after, int width);

/* Reads the [tool.litmus] table of the pyproject file PATH into OPTS by
 * the key rows of T, each value read by the same checks as on the
 * command line.  0, or -1 with a one-line *err (caller frees) for
 * unreadable TOML, an unknown key or a bad value.  Strings kept in OPTS
 * are heap copies that live as long as the process. */
int lt__opt_read_pyproject(const struct lt__opt *t, const char *path,
                           void *opts, char **err);

/* One key of [tool.litmus] with value V, read into OPTS as
 * lt__opt_read_pyproject() reads each; PATH names the file in *err. */
int lt__opt_setting(const struct lt__opt *t, const char *path,
                    const char *key, const struct lt_setting *v, void *opts,
                    char **err);

#endif
