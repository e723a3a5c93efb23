/* The [tool.litmus] table of pyproject.toml as typed values for the
 * command line, which gives each key its meaning and its checks, and the
 * score job's checks that need the engine's modules.
 * SPDX-License-Identifier: MIT */
#include "engine/engine.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "common/xmalloc.h"
#include "engine/core/pyenv.h"
#include "operators/operators.h"
#include "runners/runner.h"

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

/* Contract: see engine.h. */
int lt_score_exclusion_check(const char *entry)
{
    size_t n = strcspn(entry, ":");
    if (entry[n] == ':' && entry[n + 1] == '\0')
        return -1;
    /* Operator names only: the first two entries are sets. */
    for (const char *const *k = lt_operator_sets() + 2; *k; k++)
        if (strlen(*k) == n && strncmp(*k, entry, n) == 0)
            return 0;
    return -1;
}

/* V as a typed setting; LIST's strings go to *items (caller frees). */
static struct lt_setting setting_of(json_t *v, const char ***items)
{
    struct lt_setting s = {.type = LT_SETTING_OTHER};
    *items = NULL;
    if (json_is_string(v)) {
        s.type = LT_SETTING_STRING;
        s.string = json_string_value(v);
    } else if (json_is_integer(v)) {
        s.type = LT_SETTING_INTEGER;
        s.integer = json_integer_value(v);
        s.number = (double)s.integer;
    } else if (json_is_real(v)) {
        s.type = LT_SETTING_REAL;
        s.number = json_real_value(v);
    } else if (json_is_boolean(v)) {
        s.type = LT_SETTING_BOOL;
        s.boolean = json_is_true(v);
    } else if (json_is_array(v)) {
        size_t n = json_array_size(v);
        *items = xcalloc(n + 1, sizeof(char *));
        for (size_t i = 0; i < n; i++) {
            (*items)[i] = json_string_value(json_array_get(v, i));
            if (!(*items)[i])
                return s; /* OTHER: not every item is a string */
        }
        s.type = LT_SETTING_LIST;
        s.list = *items;
        s.n_list = n;
    }
    return s;
}

/* Contract: see engine.h. */
int lt_pyproject_settings(const char *path,
                          int (*apply)(void *ctx, const char *key,
                                       const struct lt_setting *value,
                                       char **err),
                          void *ctx, char **err)
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
    json_t *root = json_loads(text, JSON_PRESERVE_ORDER, &jerr);
    free(text);
    if (!root) {
        *err = xasprintf("%s: cannot read [tool.litmus]", path);
        return LT_EPARSE;
    }
    const char *key;
    json_t *v;
    json_object_foreach(root, key, v) {
        const char **items;
        struct lt_setting s = setting_of(v, &items);
        rc = apply(ctx, key, &s, err);
        free(items);
        if (rc < 0) {
            rc = LT_EUSAGE;
            break;
        }
    }
    json_decref(root);
    return rc;
}
