/* Unit tests of the commands' option tables (engine/cli/optable.h): each
 * option is in its command's help, completion and getopt table; a
 * [tool.litmus] key is read by the command line's own check and gives its
 * message; the help's list of keys is the table's.
 * SPDX-License-Identifier: MIT */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "common/cliopt.h"
#include "engine/cli/cli.h"
#include "operators/operators.h"
#ifdef LT_HAVE_SIMILARITY
#include "engine/similarity/similarity.h"
#endif

/* The text written to F so far (caller frees); closes F. */
static char *text_of(FILE *f)
{
    assert_int_equal(fflush(f), 0);
    long len = ftell(f);
    assert_true(len >= 0);
    char *text = calloc(1, (size_t)len + 1);
    rewind(f);
    assert_int_equal(fread(text, 1, (size_t)len, f), (size_t)len);
    fclose(f);
    return text;
}

/* What WRITE prints to a FILE, as a string (caller frees). */
static char *printed(void (*write)(FILE *f, const void *arg),
                     const void *arg)
{
    FILE *f = tmpfile();
    assert_non_null(f);
    write(f, arg);
    return text_of(f);
}

/* Whether WORD stands in TEXT on its own: not as part of a longer name. */
static int has_word(const char *text, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = strstr(text, word); p; p = strstr(p + 1, word)) {
        char before = p == text ? ' ' : p[-1];
        char after = p[n];
        if (!strchr("abcdefghijklmnopqrstuvwxyz-", before) &&
            !strchr("abcdefghijklmnopqrstuvwxyz-", after ? after : ' '))
            return 1;
    }
    return 0;
}

static int is_option_row(const struct lt__opt *e)
{
    return !(e->flags & (LT__OPT_KEY_ONLY | LT__OPT_HELP_ONLY));
}

static int is_key_row(const struct lt__opt *e)
{
    return (e->flags & (LT__OPT_KEY | LT__OPT_KEY_ONLY)) != 0;
}

/* The commands with a table, and the help each writes; dataset's modes
 * one by one. */
struct command {
    const char *name;
    const struct lt__opt *table;
    void (*help)(FILE *f);
    int mode; /* dataset's, or -1 */
};
static void dataset_select_help(FILE *f)
{
    lt__dataset_help(f, LT_DS_SELECT);
}
static void dataset_typed_help(FILE *f)
{
    lt__dataset_help(f, LT_DS_TYPED);
}
static void dataset_faults_help(FILE *f)
{
    lt__dataset_help(f, LT_DS_FAULTS);
}
static void dataset_rewrite_help(FILE *f)
{
    lt__dataset_help(f, LT_DS_REWRITE);
}
static const struct command commands[] = {
    {"score", lt__score_options, lt__score_help, -1},
    {"show", lt__show_options, lt__show_help, -1},
    {"report", lt__report_options, lt__report_help, -1},
    {"merge", lt__merge_options, lt__merge_help, -1},
    {"slurm", lt__slurm_options, lt__slurm_help, -1},
    {"patches", lt__patches_options, lt__patches_help, -1},
    {"select", lt__dataset_options, dataset_select_help, LT_DS_SELECT},
    {"typed", lt__dataset_options, dataset_typed_help, LT_DS_TYPED},
    {"faults", lt__dataset_options, dataset_faults_help, LT_DS_FAULTS},
    {"rewrite", lt__dataset_options, dataset_rewrite_help, LT_DS_REWRITE},
#ifdef LT_HAVE_SIMILARITY
    {"similarity", lt__similarity_options, lt__similarity_help, -1},
#endif
};
#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static void write_help(FILE *f, const void *arg)
{
    ((const struct command *)arg)->help(f);
}

static void write_completion(FILE *f, const void *arg)
{
    (void)arg;
    lt__cli_completion(f);
}

/* The words the completion script offers for command C: its line
 * "    NAME) words=\"...\"" (caller frees). */
static char *completion_words(const char *script, const struct command *c)
{
    char head[64];
    snprintf(head, sizeof(head), "%s) words=\"", c->name);
    const char *p = strstr(script, head);
    if (!p)
        fail_msg("the completion script has no line for %s", c->name);
    p += strlen(head);
    return strndup(p, strcspn(p, "\""));
}

static int in_mode(const struct lt__opt *e, int mode)
{
    return mode < 0 || !e->modes || (e->modes & (1u << mode));
}

/*** Help, completion and getopt ***/

static void every_option_is_in_help_and_completion(void **state)
{
    (void)state;
    char *script = printed(write_completion, NULL);
    for (size_t i = 0; i < N_COMMANDS; i++) {
        const struct command *c = &commands[i];
        char *help = printed(write_help, c);
        char *words = completion_words(script, c);
        struct option *lo;
        char shortopts[64];
        lt__opt_getopt(c->table, "", c->mode, &lo, shortopts,
                       sizeof(shortopts));
        for (const struct lt__opt *e = c->table; e->name; e++) {
            if (!is_option_row(e))
                continue;
            char opt[64];
            snprintf(opt, sizeof(opt), "--%s", e->name);
            /* Another mode's option is neither offered nor shown (an
             * option may have a row per mode). */
            int want = 0;
            for (const struct lt__opt *r = c->table; r->name; r++)
                want |= is_option_row(r) && strcmp(r->name, e->name) == 0 &&
                        in_mode(r, c->mode);
            if (has_word(words, opt) != want)
                fail_msg("%s: %s is%s in the completion words '%s'",
                         c->name, opt, want ? " not" : "", words);
            if (!in_mode(e, c->mode))
                continue;
            if (!has_word(help, opt))
                fail_msg("%s: %s is not in the help", c->name, opt);
            int in_getopt = 0;
            for (const struct option *o = lo; o->name; o++)
                in_getopt |= strcmp(o->name, e->name) == 0 &&
                             o->val == e->code;
            if (!in_getopt)
                fail_msg("%s: %s is not in the getopt table", c->name, opt);
            if (e->code < 256) {
                char s[4] = {'-', (char)e->code, 0};
                if (!has_word(words, s) || !strchr(shortopts, e->code))
                    fail_msg("%s: %s (-%c) has no short option", c->name,
                             opt, e->code);
                snprintf(s, sizeof(s), "-%c,", e->code);
                if (!strstr(help, s))
                    fail_msg("%s: the help does not show -%c", c->name,
                             e->code);
            }
        }
        free(lo);
        free(words);
        free(help);
    }
    free(script);
}

/* A row whose default `litmus __defaults` prints says it has one; no
 * table has more lists than the parser has room for. */
static void default_rows_state_their_default(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_COMMANDS; i++) {
        int lists = 0;
        for (const struct lt__opt *e = commands[i].table; e->name; e++) {
            if ((e->flags & LT__OPT_DEFAULT) &&
                (!e->help || !strstr(e->help, "default")))
                fail_msg("%s: --%s is printed by __defaults, but its help "
                         "names no default", commands[i].name, e->name);
            lists += e->kind == LT__OPT_LIST && is_option_row(e);
        }
        /* The parser has room for this many lists of the command line. */
        assert_true(lists <= LT__OPT_MAX_LISTS);
    }
}

/*** [tool.litmus] and the command line ***/

/* What the command line prints on stderr for row NAME of table T given
 * S, read into OPTS, and whether it refused. */
static char *apply_message(const struct lt__opt *t, const char *name,
                           const char *s, void *opts, int *rc)
{
    const struct lt__opt *e = NULL;
    for (const struct lt__opt *p = t; p->name; p++)
        if (strcmp(p->name, name) == 0 && is_option_row(p))
            e = p;
    assert_non_null(e);
    char **owned[LT__OPT_MAX_LISTS + 1] = {NULL};
    FILE *err = tmpfile();
    assert_non_null(err);
    fflush(stderr);
    int saved = dup(2);
    dup2(fileno(err), 2);
    *rc = lt__opt_apply(e, s, opts, 4, owned);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    for (size_t i = 0; owned[i]; i++)
        free(owned[i]);
    fseek(err, 0, SEEK_END);
    return text_of(err);
}

/* What the command line prints for row NAME of score's table given S,
 * and whether it refused. */
static char *cli_message(const char *name, const char *s, int *rc)
{
    struct lt_score_opts o;
    lt_score_opts_init(&o);
    return apply_message(lt__score_options, name, s, &o, rc);
}

/* The last "(...)" of a message: what the value should be. */
static char *want_of(const char *msg)
{
    const char *open = strrchr(msg, '(');
    const char *close = open ? strchr(open, ')') : NULL;
    if (!open || !close)
        return strdup("");
    return strndup(open + 1, (size_t)(close - open - 1));
}

static void bad_keys_give_the_command_line_message(void **state)
{
    (void)state;
    lt_cli_set_command("score");
    static const char *const bad_envs[] = {"A=B"};
    static const struct {
        const char *key;
        struct lt_setting value;
        const char *cli; /* the same value on the command line */
    } cases[] = {
        {"pass-env", {.type = LT_SETTING_LIST, .list = bad_envs, .n_list = 1},
         "A=B"},
        {"pass-env", {.type = LT_SETTING_STRING, .string = ""}, ""},
        {"jobs", {.type = LT_SETTING_INTEGER, .integer = 0}, "0"},
        {"jobs", {.type = LT_SETTING_INTEGER, .integer = 1025}, "1025"},
        {"sandbox-uid", {.type = LT_SETTING_INTEGER, .integer = 0}, "0"},
        {"scratch-mb", {.type = LT_SETTING_INTEGER, .integer = 65537},
         "65537"},
        {"memory-mb", {.type = LT_SETTING_INTEGER, .integer = -1}, "-1"},
        {"baseline-runs", {.type = LT_SETTING_INTEGER, .integer = 101},
         "101"},
        {"baseline-timeout", {.type = LT_SETTING_REAL, .number = 0.5}, "0.5"},
        {"timeout-factor", {.type = LT_SETTING_INTEGER, .integer = 2000,
                            .number = 2000}, "2000"},
        {"timeout-const", {.type = LT_SETTING_REAL, .number = 0}, "0"},
        {"max-time", {.type = LT_SETTING_STRING, .string = "soon"}, "soon"},
        {"max-time", {.type = LT_SETTING_STRING, .string = "1h30"}, "1h30"},
        {"fail-under", {.type = LT_SETTING_REAL, .number = 1.5}, "1.5"},
        {"fail-under", {.type = LT_SETTING_STRING, .string = "120%"}, "120%"},
        {"format", {.type = LT_SETTING_STRING, .string = "xml"}, "xml"},
        {"runner", {.type = LT_SETTING_STRING, .string = "nose"}, "nose"},
        {"python", {.type = LT_SETTING_STRING, .string = ""}, ""},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct lt_score_opts o;
        lt_score_opts_init(&o);
        char *err = NULL;
        int key_rc = lt__opt_setting(lt__score_options, "pyproject.toml",
                                     cases[i].key, &cases[i].value, &o,
                                     &err);
        int cli_rc;
        char *cli = cli_message(cases[i].key, cases[i].cli, &cli_rc);
        if (key_rc == 0 || cli_rc == 0)
            fail_msg("%s = %s: accepted (key %d, command line %d)",
                     cases[i].key, cases[i].cli, key_rc, cli_rc);
        char *key_want = want_of(err), *cli_want = want_of(cli);
        if (!*cli_want || strcmp(key_want, cli_want) != 0)
            fail_msg("%s = '%s': [tool.litmus] says '%s', the command line "
                     "'%s'", cases[i].key, cases[i].cli, err, cli);
        char expect[128];
        snprintf(expect, sizeof(expect), "invalid value for '%s'",
                 cases[i].key);
        assert_non_null(strstr(err, expect));
        free(key_want);
        free(cli_want);
        free(cli);
        free(err);
    }
}

/* A value every key of score's table takes. */
static struct lt_setting good_value(const struct lt__opt *e,
                                    const char *const *one)
{
    if (strcmp(e->name, "format") == 0)
        return (struct lt_setting){.type = LT_SETTING_STRING,
                                   .string = "json"};
    if (strcmp(e->name, "runner") == 0)
        return (struct lt_setting){.type = LT_SETTING_STRING,
                                   .string = "doctest"};
    if (strcmp(e->name, "fail-under") == 0)
        return (struct lt_setting){.type = LT_SETTING_STRING,
                                   .string = "80%"};
    switch (e->kind) {
    case LT__OPT_FLAG:
        return (struct lt_setting){.type = LT_SETTING_BOOL, .boolean = 1};
    case LT__OPT_INT:
        return (struct lt_setting){.type = LT_SETTING_INTEGER,
                                   .integer = (long long)e->hi,
                                   .number = e->hi};
    case LT__OPT_REAL:
        return (struct lt_setting){.type = LT_SETTING_REAL, .number = e->lo};
    case LT__OPT_DURATION:
        return (struct lt_setting){.type = LT_SETTING_STRING,
                                   .string = "1h30m"};
    case LT__OPT_LIST:
        return (struct lt_setting){.type = LT_SETTING_LIST, .list = one,
                                   .n_list = 1};
    default:
        return (struct lt_setting){.type = LT_SETTING_STRING,
                                   .string = "mutmut"};
    }
}

static void key_lists_agree(void **state)
{
    (void)state;
    /* The keys the help names, between its "(" and ")". */
    char *help = printed(write_help, &commands[0]);
    const char *intro = "[tool.litmus] keys are the long options (";
    char *start = strstr(help, intro);
    assert_non_null(start);
    start += strlen(intro);
    char *end = strchr(start, ')');
    assert_non_null(end);
    *end = '\0';
    size_t n_help = 0, n_table = 0;
    for (char *k = strtok(start, ", \n"); k; k = strtok(NULL, ", \n")) {
        const struct lt__opt *e = lt__score_options;
        while (e->name && !(is_key_row(e) && strcmp(e->name, k) == 0))
            e++;
        if (!e->name)
            fail_msg("the help names key '%s', which the table has not", k);
        n_help++;
    }
    /* An operator's name, for exclude-operators: the first two of the
     * list are sets. */
    const char *const one_op[] = {lt_operator_sets()[2]};
    const char *const one_word[] = {"x"};
    for (const struct lt__opt *e = lt__score_options; e->name; e++) {
        if (!is_key_row(e))
            continue;
        n_table++;
        /* Every key is taken, with dashes and with underscores. */
        char under[64];
        snprintf(under, sizeof(under), "%s", e->name);
        for (char *p = under; *p; p++)
            if (*p == '-')
                *p = '_';
        const char *const *one =
            strcmp(e->name, "exclude-operators") == 0 ? one_op : one_word;
        struct lt_setting v = good_value(e, one);
        for (int form = 0; form < 2; form++) {
            struct lt_score_opts o;
            lt_score_opts_init(&o);
            char *err = NULL;
            if (lt__opt_setting(lt__score_options, "pyproject.toml",
                                form ? under : e->name, &v, &o, &err) < 0)
                fail_msg("key %s refused: %s", form ? under : e->name, err);
        }
    }
    assert_int_equal(n_help, n_table);
    struct lt_score_opts o;
    lt_score_opts_init(&o);
    char *err = NULL;
    struct lt_setting v = {.type = LT_SETTING_STRING, .string = "blue"};
    assert_int_equal(lt__opt_setting(lt__score_options, "p.toml", "colour",
                                     &v, &o, &err), -1);
    assert_string_equal(err, "p.toml: unknown key 'colour' in [tool.litmus]");
    free(err);
    free(help);
}

/* A key read from [tool.litmus] lands where the option puts it, and the
 * command line's list replaces the key's. */
static void keys_and_options_fill_the_same_fields(void **state)
{
    (void)state;
    struct lt_score_opts o;
    lt_score_opts_init(&o);
    char *err = NULL;
    const char *const envs[] = {"A", "B"};
    struct lt_setting list = {.type = LT_SETTING_LIST, .list = envs,
                              .n_list = 2};
    struct lt_setting pct = {.type = LT_SETTING_STRING, .string = "80%"};
    struct lt_setting uid = {.type = LT_SETTING_INTEGER, .integer = 1000,
                             .number = 1000};
    assert_int_equal(lt__opt_setting(lt__score_options, "p", "pass_env",
                                     &list, &o, &err), 0);
    assert_int_equal(lt__opt_setting(lt__score_options, "p", "fail-under",
                                     &pct, &o, &err), 0);
    assert_int_equal(lt__opt_setting(lt__score_options, "p", "sandbox-uid",
                                     &uid, &o, &err), 0);
    assert_int_equal(o.n_pass_env, 2);
    assert_string_equal(o.pass_env[1], "B");
    assert_true(o.fail_under > 0.79 && o.fail_under < 0.81);
    assert_int_equal(o.sandbox_uid, 1000);
    for (const struct lt__opt *e = lt__score_options; e->name; e++)
        if (strcmp(e->name, "pass-env") == 0 && is_option_row(e)) {
            char **owned[LT__OPT_MAX_LISTS + 1] = {NULL};
            assert_int_equal(lt__opt_apply(e, "C", &o, 4, owned), 0);
            assert_int_equal(o.n_pass_env, 1);
            assert_string_equal(o.pass_env[0], "C");
            free(owned[0]);
        }
}

#ifdef LT_HAVE_SIMILARITY
/* similarity's rows hand their values to engine/similarity's readers:
 * a good value lands in its field, a bad one gives the command's own
 * message (and the command exits 2). */
static void similarity_values_are_read_by_similarity(void **state)
{
    (void)state;
    lt_cli_set_command("similarity");
    struct lt_sim_command o;
    lt_sim_command_init(&o);
    static const struct {
        const char *name, *value, *message; /* NULL: accepted */
    } cases[] = {
        {"metric", "codebleu,ted", NULL},
        {"metric", "meteor", NULL},
        {"metric", "codebleu,bogus", "unknown metric 'codebleu,bogus'"},
        {"metric", ",", "unknown metric ','"},
        {"lang", "java", NULL},
        {"lang", "ruby", "unknown language 'ruby'"},
        {"tokens", "words", NULL},
        {"tokens", "", "unknown token mode ''"},
        {"format", "json", NULL},
        {"format", "xml", "unknown format 'xml'"},
        {"codebleu-weights", "0.1,0.2,0.3,0.4", NULL},
        {"codebleu-weights", "1,2,3",
         "bad --codebleu-weights '1,2,3': want four non-negative numbers "
         "A,B,C,D"},
        {"codebleu-weights", "-1,0,0,0",
         "bad --codebleu-weights '-1,0,0,0': want four non-negative "
         "numbers A,B,C,D"},
        {"dataflow-compat", NULL, NULL},
        {"pairs", "p.jsonl", NULL},
        {"dump-tokens", "a.py", NULL},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct lt_sim_command before = o;
        int rc;
        char *msg = apply_message(lt__similarity_options, cases[i].name,
                                  cases[i].value, &o, &rc);
        if (!cases[i].message) {
            if (rc != 0 || *msg)
                fail_msg("--%s %s: refused (%d): %s", cases[i].name,
                         cases[i].value, rc, msg);
        } else {
            char want[256];
            snprintf(want, sizeof(want),
                     "litmus similarity: %s\n"
                     "Try 'litmus similarity --help'.\n",
                     cases[i].message);
            if (rc != -1 || strcmp(msg, want) != 0)
                fail_msg("--%s %s: rc %d, message '%s', want '%s'",
                         cases[i].name, cases[i].value, rc, msg, want);
            o = before; /* a refused value changes nothing that counts */
        }
        free(msg);
    }
    assert_int_equal(o.metrics, LT_SIM_M_CODEBLEU | LT_SIM_M_TREE_EDIT |
                                    LT_SIM_M_METEOR);
    assert_int_equal(o.sim.lang, LT_SIM_JAVA);
    assert_int_equal(o.sim.tokens, LT_SIM_TOKENS_WORDS);
    assert_int_equal(o.json, 1);
    assert_true(o.sim.codebleu_weights[0] == 0.1 &&
                o.sim.codebleu_weights[3] == 0.4);
    assert_int_equal(o.dataflow_compat, 1);
    assert_string_equal(o.pairs, "p.jsonl");
    assert_string_equal(o.dump, "a.py");
}
#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_option_is_in_help_and_completion),
        cmocka_unit_test(default_rows_state_their_default),
        cmocka_unit_test(bad_keys_give_the_command_line_message),
        cmocka_unit_test(key_lists_agree),
        cmocka_unit_test(keys_and_options_fill_the_same_fields),
#ifdef LT_HAVE_SIMILARITY
        cmocka_unit_test(similarity_values_are_read_by_similarity),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
