/* The option tables of engine/cli/optable.h: getopt arrays, help lines,
 * completion words, and the values of the command line and of
 * [tool.litmus] read by the same checks.
 * SPDX-License-Identifier: MIT */
#include "engine/cli/optable.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/cliopt.h"
#include "common/xmalloc.h"

/* The column where the help's descriptions start. */
#define HELP_COLUMN 25

static int in_mode(const struct lt__opt *e, int mode)
{
    return mode < 0 || !e->modes || (e->modes & (1u << mode));
}

/* A row the command line knows: not a key or a second help entry, and
 * the first row of its name in MODE (dataset has rows a mode each). */
static int is_option(const struct lt__opt *t, const struct lt__opt *e,
                     int mode)
{
    if ((e->flags & (LT__OPT_KEY_ONLY | LT__OPT_HELP_ONLY)) ||
        !in_mode(e, mode))
        return 0;
    for (const struct lt__opt *p = t; p < e; p++)
        if (strcmp(p->name, e->name) == 0 && in_mode(p, mode) &&
            !(p->flags & (LT__OPT_KEY_ONLY | LT__OPT_HELP_ONLY)))
            return 0;
    return 1;
}

static int takes_value(const struct lt__opt *e)
{
    return e->kind == LT__OPT_COMMAND ? e->arg != NULL
                                      : e->kind != LT__OPT_FLAG;
}

/*** getopt ***/

/* Contract: see optable.h. */
void lt__opt_getopt(const struct lt__opt *t, const char *prefix, int mode,
                    struct option **longopts, char *shortopts, size_t size)
{
    size_t n = 0, k = 0;
    for (const struct lt__opt *e = t; e->name; e++)
        n++;
    struct option *lo = xcalloc(n + 1, sizeof(*lo));
    snprintf(shortopts, size, "%s", prefix);
    n = 0;
    for (const struct lt__opt *e = t; e->name; e++) {
        if (!is_option(t, e, mode))
            continue;
        lo[n++] = (struct option){e->name,
                                  takes_value(e) ? required_argument
                                                 : no_argument,
                                  NULL, e->code};
        k = strlen(shortopts);
        if (e->code < 256 && k + 3 <= size)
            snprintf(shortopts + k, size - k, "%c%s", e->code,
                     takes_value(e) ? ":" : "");
    }
    *longopts = lo;
}

/* Contract: see optable.h. */
const struct lt__opt *lt__opt_find(const struct lt__opt *t, int code,
                                   int mode)
{
    for (const struct lt__opt *e = t; e->name; e++)
        if (e->code == code && is_option(t, e, mode))
            return e;
    return NULL;
}

/*** Values ***/

static void *field(const struct lt__opt *e, void *opts)
{
    return (char *)opts + e->offset;
}

static void store_int(const struct lt__opt *e, void *opts, long long v)
{
    if (e->size == sizeof(unsigned long)) {
        unsigned long u = (unsigned long)v;
        memcpy(field(e, opts), &u, sizeof(u));
    } else {
        /* int or unsigned: the same bits for every value of a range. */
        unsigned u = (unsigned)v;
        memcpy(field(e, opts), &u, sizeof(u));
    }
}

/* The checks of a number already read, with the text of the range. */
static int check_int(const struct lt__opt *e, long long v, char *want,
                     size_t size)
{
    snprintf(want, size, "%lld..%lld", (long long)e->lo, (long long)e->hi);
    return v < (long long)e->lo || v > (long long)e->hi ? -1 : 0;
}

static int check_real(const struct lt__opt *e, double v, char *want,
                      size_t size)
{
    snprintf(want, size, "%g..%g", e->lo, e->hi);
    return !(v >= e->lo && v <= e->hi) ? -1 : 0;
}

static int check_duration(const struct lt__opt *e, double v, char *want,
                          size_t size)
{
    snprintf(want, size, "a duration such as 90, 90s, 15m, 2h or 1h30m, "
             "at most %gh", e->hi / 3600);
    return !(v > 0) || v > e->hi ? -1 : 0;
}

/* Reads text S (kept as it is: the caller owns it for the process) into
 * row E's field: 0, or -1 with what it should be in WANT. */
static int read_text(const struct lt__opt *e, const char *s, void *opts,
                     char *want, size_t size)
{
    const char *why = NULL;
    char *end;
    snprintf(want, size, "%s", e->want ? e->want : "");
    switch (e->kind) {
    case LT__OPT_STRING:
        if ((e->flags & LT__OPT_NONEMPTY) && !*s)
            return -1;
        if (e->set && e->set(e, NULL, s, &why) < 0) {
            if (why)
                snprintf(want, size, "%s", why);
            return -1;
        }
        *(const char **)field(e, opts) = s;
        return 0;
    case LT__OPT_INT: {
        errno = 0;
        long long v = strtoll(s, &end, 10);
        int bad = errno || end == s || *end;
        if (check_int(e, v, want, size) < 0 || bad)
            return -1;
        store_int(e, opts, v);
        return 0;
    }
    case LT__OPT_REAL: {
        errno = 0;
        double v = strtod(s, &end);
        int bad = errno || end == s || *end;
        if (check_real(e, v, want, size) < 0 || bad)
            return -1;
        *(double *)field(e, opts) = v;
        return 0;
    }
    case LT__OPT_DURATION: {
        double v = 0;
        int bad = lt_parse_duration(s, &v) < 0;
        if (check_duration(e, v, want, size) < 0 || bad)
            return -1;
        *(double *)field(e, opts) = v;
        return 0;
    }
    case LT__OPT_CUSTOM:
        if (e->set(e, opts, s, &why) == 0)
            return 0;
        if (why)
            snprintf(want, size, "%s", why);
        return -1;
    case LT__OPT_LIST:
        if (e->set && e->set(e, NULL, s, &why) < 0) {
            if (why)
                snprintf(want, size, "%s", why);
            return -1;
        }
        return 0;
    case LT__OPT_FLAG:
    case LT__OPT_COMMAND:
        break;
    }
    return -1;
}

static int is_owned(char **list, char ***owned)
{
    for (size_t i = 0; owned[i]; i++)
        if (owned[i] == list)
            return 1;
    return 0;
}

/* Contract: see optable.h. */
int lt__opt_apply(const struct lt__opt *e, const char *s, void *opts,
                  size_t cap, char ***owned)
{
    char want[128];
    if (e->kind == LT__OPT_FLAG) {
        *(int *)field(e, opts) = (int)e->lo;
        return 0;
    }
    char opt[64];
    snprintf(opt, sizeof(opt), "--%s", e->name);
    if (read_text(e, s, opts, want, sizeof(want)) < 0) {
        if (!(e->flags & LT__OPT_SAYS_WHY))
            lt_cli_bad_value(opt, s, want);
        return -1;
    }
    if (e->kind == LT__OPT_LIST) {
        char ***list = (char ***)field(e, opts);
        size_t *n = (size_t *)((char *)opts + e->count);
        if (!is_owned(*list, owned)) {
            /* The command line's list replaces the config's. */
            size_t i = 0;
            while (owned[i])
                i++;
            if (i == LT__OPT_MAX_LISTS)
                abort(); /* a table with more LIST rows than room */
            owned[i] = *list = xcalloc(cap + 1, sizeof(char *));
            *n = 0;
        }
        (*list)[(*n)++] = (char *)s;
    }
    return 0;
}

/* Contract: see optable.h. */
void lt__opt_start(struct lt__opt_parser *p, const struct lt__opt *t,
                   const char *prefix, int mode, int argc, char **argv,
                   void *opts)
{
    memset(p, 0, sizeof(*p));
    p->table = t;
    p->mode = mode;
    p->argc = argc;
    p->argv = argv;
    p->opts = opts;
    /* Every mode's options are known to getopt, so that one of another
     * mode is named as such rather than unknown. */
    lt__opt_getopt(t, prefix, -1, &p->longopts, p->shortopts,
                   sizeof(p->shortopts));
}

/* Contract: see optable.h. */
int lt__opt_next(struct lt__opt_parser *p)
{
    int c;
    while ((c = lt_cli_getopt(p->argc, p->argv, p->shortopts,
                              p->longopts)) != -1) {
        const struct lt__opt *e = lt__opt_find(p->table, c, p->mode);
        if (!e && (e = lt__opt_find(p->table, c, -1)) != NULL) {
            lt_cli_usage_error("--%s is not an option of this mode",
                               e->name);
            return -1;
        }
        if (!e)
            return -1; /* getopt said why */
        if (e->kind == LT__OPT_COMMAND)
            return c;
        if (lt__opt_apply(e, optarg, p->opts, (size_t)p->argc, p->owned) < 0)
            return -1;
    }
    return 0;
}

/* Contract: see optable.h. */
void lt__opt_end(struct lt__opt_parser *p)
{
    for (size_t i = 0; p->owned[i]; i++)
        free(p->owned[i]);
    free(p->longopts);
    p->longopts = NULL;
}

/*** [tool.litmus] ***/

/* Keys are accepted with dashes or underscores, as pyproject tools do. */
static int key_is(const char *key, const char *want)
{
    for (; *key && *want; key++, want++) {
        char k = *key == '_' ? '-' : *key;
        if (k != *want)
            return 0;
    }
    return *key == '\0' && *want == '\0';
}

struct pyproject {
    const struct lt__opt *table;
    const char *path;
    void *opts;
};

/* The items of V joined by commas, as the command line writes a list. */
static char *joined(const struct lt_setting *v)
{
    size_t len = 1;
    for (size_t i = 0; i < v->n_list; i++)
        len += strlen(v->list[i]) + 1;
    char *s = xcalloc(len, 1);
    for (size_t i = 0; i < v->n_list; i++) {
        if (i)
            strcat(s, ",");
        strcat(s, v->list[i]);
    }
    return s;
}

/* Value V of key row E into OPTS, by the command line's checks: 0, or -1
 * with what it should be in WANT. */
static int read_setting(const struct lt__opt *e, const struct lt_setting *v,
                        void *opts, char *want, size_t size)
{
    char *text = NULL;
    want[0] = '\0';
    switch (e->kind) {
    case LT__OPT_FLAG:
        snprintf(want, size, "true or false");
        if (v->type != LT_SETTING_BOOL)
            return -1;
        *(int *)field(e, opts) = v->boolean ? (int)e->lo : !(int)e->lo;
        return 0;
    case LT__OPT_INT:
        if (check_int(e, v->integer, want, size) < 0 ||
            v->type != LT_SETTING_INTEGER)
            return -1;
        store_int(e, opts, v->integer);
        return 0;
    case LT__OPT_REAL:
    case LT__OPT_DURATION:
        if (v->type == LT_SETTING_STRING && e->kind == LT__OPT_DURATION)
            break;
        if ((e->kind == LT__OPT_REAL ? check_real : check_duration)(
                e, v->number, want, size) < 0 ||
            (v->type != LT_SETTING_INTEGER && v->type != LT_SETTING_REAL))
            return -1;
        *(double *)field(e, opts) = v->number;
        return 0;
    case LT__OPT_LIST: {
        snprintf(want, size, "a string or a list of strings");
        if (v->type != LT_SETTING_LIST && v->type != LT_SETTING_STRING)
            return -1;
        size_t n = v->type == LT_SETTING_LIST ? v->n_list : 1;
        char **list = xcalloc(n + 1, sizeof(char *));
        for (size_t i = 0; i < n; i++) {
            const char *s = v->type == LT_SETTING_LIST ? v->list[i]
                                                       : v->string;
            if (read_text(e, s, opts, want, size) < 0) {
                for (size_t k = 0; k < i; k++)
                    free(list[k]);
                free(list);
                return -1;
            }
            list[i] = xstrdup(s);
        }
        *(char ***)field(e, opts) = list;
        *(size_t *)((char *)opts + e->count) = n;
        return 0;
    }
    case LT__OPT_STRING:
        if (v->type == LT_SETTING_LIST && (e->flags & LT__OPT_KEY_JOIN) &&
            v->n_list > 0)
            text = joined(v);
        break;
    case LT__OPT_CUSTOM:
        if ((v->type == LT_SETTING_INTEGER || v->type == LT_SETTING_REAL) &&
            (e->flags & LT__OPT_KEY_NUMBER))
            text = xasprintf("%.17g", v->number);
        break;
    case LT__OPT_COMMAND:
        return -1;
    }
    if (!text && v->type != LT_SETTING_STRING) {
        snprintf(want, size, "%s", e->want ? e->want : "a string");
        return -1;
    }
    if (!text)
        text = xstrdup(v->string);
    if (read_text(e, text, opts, want, size) < 0) {
        free(text);
        return -1;
    }
    /* STRING rows keep the text; the others hold a copy of their own. */
    if (e->kind != LT__OPT_STRING)
        free(text);
    return 0;
}

/* Contract: see optable.h. */
int lt__opt_setting(const struct lt__opt *t, const char *path,
                    const char *key, const struct lt_setting *v, void *opts,
                    char **err)
{
    for (const struct lt__opt *e = t; e->name; e++) {
        if (!(e->flags & (LT__OPT_KEY | LT__OPT_KEY_ONLY)) ||
            !key_is(key, e->name))
            continue;
        char want[128];
        if (read_setting(e, v, opts, want, sizeof(want)) == 0)
            return 0;
        *err = xasprintf("%s: invalid value for '%s' in [tool.litmus]%s%s%s",
                         path, key, *want ? " (" : "", want,
                         *want ? ")" : "");
        return -1;
    }
    *err = xasprintf("%s: unknown key '%s' in [tool.litmus]", path, key);
    return -1;
}

static int apply_setting(void *ctx, const char *key,
                         const struct lt_setting *v, char **err)
{
    const struct pyproject *p = ctx;
    return lt__opt_setting(p->table, p->path, key, v, p->opts, err);
}

/* Contract: see optable.h. */
int lt__opt_read_pyproject(const struct lt__opt *t, const char *path,
                           void *opts, char **err)
{
    struct pyproject p = {t, path, opts};
    return lt_pyproject_settings(path, apply_setting, &p, err) < 0 ? -1 : 0;
}

/*** Help and completion ***/

/* Contract: see optable.h. */
void lt__opt_help(FILE *f, const struct lt__opt *t, int mode)
{
    lt__opt_help_at(f, t, mode, 6, HELP_COLUMN);
}

/* Contract: see optable.h. */
void lt__opt_help_at(FILE *f, const struct lt__opt *t, int mode, int indent,
                     int column)
{
    for (const struct lt__opt *e = t; e->name; e++) {
        if (!e->help || (e->flags & LT__OPT_KEY_ONLY) || !in_mode(e, mode))
            continue;
        if (e->section)
            fputs(e->section, f);
        char left[256];
        int k = e->code < 256
                    ? snprintf(left, sizeof(left), "  -%c, ", e->code)
                    : snprintf(left, sizeof(left), "%*s", indent, "");
        if (e->label)
            snprintf(left + k, sizeof(left) - (size_t)k, "%s", e->label);
        else
            snprintf(left + k, sizeof(left) - (size_t)k, "--%s%s%s",
                     e->name, e->arg ? " " : "", e->arg ? e->arg : "");
        fputs(left, f);
        const char *nl = strrchr(left, '\n');
        int col = (int)strlen(nl ? nl + 1 : left);
        /* Short labels line up; a long one keeps two spaces. */
        fprintf(f, "%*s", col < column ? column - col : 2, "");
        for (const char *h = e->help; *h;) {
            size_t n = strcspn(h, "\n");
            fprintf(f, "%.*s\n", (int)n, h);
            h += n;
            if (*h == '\n' && *++h)
                fprintf(f, "%*s", column, "");
        }
    }
}

/* Contract: see optable.h. */
void lt__opt_defaults(FILE *f, const char *command, const struct lt__opt *t,
                      const void *opts)
{
    for (const struct lt__opt *e = t; e->name; e++) {
        if (!(e->flags & LT__OPT_DEFAULT) || !is_option(t, e, -1))
            continue;
        const void *v = (const char *)opts + e->offset;
        unsigned long long n = 0;
        switch (e->kind) {
        case LT__OPT_STRING:
            if (*(const char *const *)v)
                fprintf(f, "%s %s %s\n", command, e->name,
                        *(const char *const *)v);
            continue;
        case LT__OPT_REAL:
        case LT__OPT_DURATION:
            fprintf(f, "%s %s %g\n", command, e->name, *(const double *)v);
            continue;
        case LT__OPT_INT:
            if (e->size == sizeof(unsigned long))
                n = *(const unsigned long *)v;
            else
                n = *(const unsigned *)v;
            break;
        case LT__OPT_CUSTOM: /* a whole number of its own parser */
            memcpy(&n, v, e->size < sizeof(n) ? e->size : sizeof(n));
            break;
        default:
            continue;
        }
        if (n == 0 && e->zero_means != 0)
            fprintf(f, "%s %s %g\n", command, e->name, e->zero_means);
        else
            fprintf(f, "%s %s %llu\n", command, e->name, n);
    }
}

/* Contract: see optable.h. */
void lt__opt_words(FILE *f, const struct lt__opt *t, int mode)
{
    const char *sep = "";
    for (const struct lt__opt *e = t; e->name; e++)
        if (is_option(t, e, mode)) {
            fprintf(f, "%s--%s", sep, e->name);
            sep = " ";
        }
    for (const struct lt__opt *e = t; e->name; e++)
        if (e->code < 256 && is_option(t, e, mode))
            fprintf(f, " -%c", e->code);
}

/* Contract: see optable.h. */
void lt__opt_keys(FILE *f, const char *before, const struct lt__opt *t,
                  const char *after, int width)
{
    /* The sentence, then broken at spaces before WIDTH columns. */
    size_t len = strlen(before) + strlen(after) + 1;
    for (const struct lt__opt *e = t; e->name; e++)
        len += strlen(e->name) + 2;
    char *s = xcalloc(len, 1);
    strcat(s, before);
    const char *sep = "";
    for (const struct lt__opt *e = t; e->name; e++)
        if (e->flags & (LT__OPT_KEY | LT__OPT_KEY_ONLY)) {
            strcat(s, sep);
            strcat(s, e->name);
            sep = ", ";
        }
    strcat(s, after);
    const char *p = s;
    while (strlen(p) > (size_t)width) {
        const char *cut = p + width;
        while (cut > p && *cut != ' ')
            cut--;
        if (cut == p)
            break;
        fprintf(f, "%.*s\n", (int)(cut - p), p);
        p = cut + 1;
    }
    fprintf(f, "%s\n", p);
    free(s);
}
