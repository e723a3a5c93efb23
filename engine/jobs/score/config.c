/* Settings of `litmus score` from [tool.litmus] in pyproject.toml.  The
 * command line overrides them.  SPDX-License-Identifier: MIT */
#include "engine/engine.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "common/cliopt.h"
#include "common/err.h"
#include "common/xmalloc.h"
#include "engine/core/pyenv.h"
#include "operators/operators.h"
#include "runners/runner.h"

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

/* A list of strings (or one string) as a NULL-terminated heap array. */
static int string_list(json_t *v, char ***out, size_t *n)
{
    if (json_is_string(v)) {
        *out = xcalloc(2, sizeof(char *));
        (*out)[0] = xstrdup(json_string_value(v));
        *n = 1;
        return 0;
    }
    if (!json_is_array(v))
        return -1;
    size_t count = json_array_size(v);
    char **list = xcalloc(count + 1, sizeof(char *));
    for (size_t i = 0; i < count; i++) {
        json_t *s = json_array_get(v, i);
        if (!json_is_string(s)) {
            for (size_t k = 0; k < i; k++)
                free(list[k]);
            free(list);
            return -1;
        }
        list[i] = xstrdup(json_string_value(s));
    }
    *out = list;
    *n = count;
    return 0;
}

static int number(json_t *v, double lo, double hi, double *out)
{
    if (!json_is_number(v))
        return -1;
    double d = json_number_value(v);
    if (d < lo || d > hi)
        return -1;
    *out = d;
    return 0;
}

/* Contract: see engine.h. */
int lt_test_runner_parse(const char *name, int *runner)
{
    static const char *const names[] = {
        [LT_TEST_RUNNER_PYTEST] = "pytest",
        [LT_TEST_RUNNER_UNITTEST] = "unittest",
        [LT_TEST_RUNNER_DOCTEST] = "doctest",
    };
    for (int i = 0; i < (int)(sizeof(names) / sizeof(names[0])); i++)
        if (strcmp(name, names[i]) == 0) {
            *runner = i;
            return 0;
        }
    return -1;
}

/* Contract: see engine.h.  Strings set in *o are heap copies that live as
 * long as the process (the options are read once). */
int lt_score_opts_from_pyproject(const char *path, struct lt_score_opts *o,
                                 char **err)
{
    *err = NULL;
    char *text = NULL;
    int rc = lt_pyproject_read(path, &text, err);
    if (rc < 0) {
        if (!*err)
            *err = xasprintf("%s: %s", path, lt_strerror(rc));
        return rc;
    }
    json_error_t jerr;
    json_t *root = json_loads(text, 0, &jerr);
    free(text);
    if (!root) {
        *err = xasprintf("%s: cannot read [tool.litmus]", path);
        return LT_EPARSE;
    }
    const char *key;
    json_t *v;
    rc = 0;
    json_object_foreach(root, key, v) {
        double d;
        if (key_is(key, "paths")) {
            if (string_list(v, &o->paths, &o->n_paths) < 0)
                rc = -1;
        } else if (key_is(key, "tests")) {
            if (string_list(v, &o->tests, &o->n_tests) < 0)
                rc = -1;
        } else if (key_is(key, "exclude")) {
            if (string_list(v, &o->exclude, &o->n_exclude) < 0)
                rc = -1;
        } else if (key_is(key, "exclude-operators")) {
            if (string_list(v, &o->exclude_ops, &o->n_exclude_ops) < 0)
                rc = -1;
            for (size_t i = 0; rc == 0 && i < o->n_exclude_ops; i++) {
                /* The operator part must name an operator. */
                const char *e = o->exclude_ops[i];
                size_t n = strcspn(e, ":");
                int known = 0;
                /* Operator names only: the first two entries are sets. */
                for (const char *const *k = lt_operator_sets() + 2; *k;
                     k++)
                    if (strlen(*k) == n && strncmp(*k, e, n) == 0)
                        known = 1;
                if (!known || (e[n] == ':' && e[n + 1] == '\0'))
                    rc = -1;
            }
        } else if (key_is(key, "pytest-args")) {
            if (string_list(v, &o->pytest_args, &o->n_pytest_args) < 0)
                rc = -1;
        } else if (key_is(key, "runner")) {
            const char *s = json_string_value(v);
            if (!s || lt_test_runner_parse(s, &o->runner) < 0)
                rc = -1;
            o->runner_given = 1;
        } else if (key_is(key, "operators")) {
            char **list;
            size_t n;
            if (string_list(v, &list, &n) < 0 || n == 0) {
                rc = -1;
            } else {
                /* A list becomes the comma form the operators take. */
                size_t len = 1;
                for (size_t i = 0; i < n; i++)
                    len += strlen(list[i]) + 1;
                char *joined = xcalloc(len, 1);
                for (size_t i = 0; i < n; i++) {
                    if (i)
                        strcat(joined, ",");
                    strcat(joined, list[i]);
                    free(list[i]);
                }
                free(list);
                o->operators = joined;
            }
        } else if (key_is(key, "db")) {
            if (!json_is_string(v))
                rc = -1;
            else
                o->run.db = xstrdup(json_string_value(v));
        } else if (key_is(key, "format")) {
            const char *f = json_string_value(v);
            if (!f || lt_format_parse(f, &o->format) < 0)
                rc = -1;
        } else if (key_is(key, "jobs")) {
            if (!json_is_integer(v) || json_integer_value(v) < 1 ||
                json_integer_value(v) > 1024)
                rc = -1;
            else
                o->run.jobs = (int)json_integer_value(v);
        } else if (key_is(key, "fail-under")) {
            const char *s = json_string_value(v);
            if (s) {
                char *end;
                errno = 0;
                double p = strtod(s, &end);
                if (errno || end == s || strcmp(end, "%") != 0 || p < 0 ||
                    p > 100)
                    rc = -1;
                else
                    o->fail_under = p / 100.0;
            } else if (number(v, 0, 1, &d) < 0) {
                rc = -1;
            } else {
                o->fail_under = d;
            }
        } else if (key_is(key, "timeout-factor")) {
            if (number(v, 1, 1000, &o->run.timeout_factor) < 0)
                rc = -1;
        } else if (key_is(key, "timeout-const")) {
            if (number(v, 0.01, 3600, &o->run.timeout_const) < 0)
                rc = -1;
        } else if (key_is(key, "baseline-timeout")) {
            if (number(v, 1, 86400, &o->baseline_timeout) < 0)
                rc = -1;
        } else if (key_is(key, "max-time")) {
            /* "15m" as on the command line, or a number of seconds. */
            const char *t = json_string_value(v);
            d = 0;
            if (t ? lt_parse_duration(t, &d) < 0
                  : number(v, 0, LT_MAX_TIME_MAX, &d) < 0)
                rc = -1;
            else if (!(d > 0) || d > LT_MAX_TIME_MAX)
                rc = -1;
            else
                o->max_time = d;
        } else if (key_is(key, "baseline-runs")) {
            if (!json_is_integer(v) || json_integer_value(v) < 1 ||
                json_integer_value(v) > 100)
                rc = -1;
            else
                o->baseline_runs = (int)json_integer_value(v);
        } else if (key_is(key, "memory-mb")) {
            if (!json_is_integer(v) || json_integer_value(v) < 0 ||
                json_integer_value(v) > (1 << 20))
                rc = -1;
            else
                o->run.memory_mb = (unsigned long)json_integer_value(v);
        } else if (key_is(key, "python")) {
            if (!json_is_string(v) || !*json_string_value(v))
                rc = -1;
            else
                o->python = xstrdup(json_string_value(v));
        } else if (key_is(key, "allow-read")) {
            if (string_list(v, &o->allow_read, &o->n_allow_read) < 0)
                rc = -1;
        } else if (key_is(key, "pass-env")) {
            if (string_list(v, &o->pass_env, &o->n_pass_env) < 0)
                rc = -1;
        } else if (key_is(key, "sandbox-uid")) {
            if (!json_is_integer(v) || json_integer_value(v) < 1 ||
                json_integer_value(v) > 4294967294LL)
                rc = -1;
            else
                o->sandbox_uid = (unsigned)json_integer_value(v);
        } else if (key_is(key, "scratch-mb")) {
            if (!json_is_integer(v) || json_integer_value(v) < 1 ||
                json_integer_value(v) > 65536)
                rc = -1;
            else
                o->scratch_mb = (unsigned)json_integer_value(v);
        } else if (key_is(key, "deselect-failing")) {
            if (!json_is_boolean(v))
                rc = -1;
            else
                o->deselect_failing = json_is_true(v);
        } else if (key_is(key, "full-matrix")) {
            if (!json_is_boolean(v))
                rc = -1;
            else
                o->full_matrix = json_is_true(v);
        } else {
            *err = xasprintf("%s: unknown key '%s' in [tool.litmus]", path,
                             key);
            rc = LT_EUSAGE;
            break;
        }
        if (rc == -1) {
            *err = xasprintf("%s: invalid value for '%s' in [tool.litmus]",
                             path, key);
            rc = LT_EUSAGE;
            break;
        }
    }
    json_decref(root);
    return rc;
}
