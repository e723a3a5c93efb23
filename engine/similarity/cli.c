/* `litmus similarity`: the values of its options, then one pair from two
 * files, or a JSON Lines batch; text or JSON out.  The options' table
 * (names, help, getopt) is engine/cli/similarity_cli.c.
 * SPDX-License-Identifier: MIT */
#include "engine/similarity/similarity.h"

#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/buf.h"
#include "common/cliopt.h"
#include "common/err.h"
#include "common/xmalloc.h"

enum { EXIT_OK = 0, EXIT_USAGE = 2, EXIT_ENGINE = 3 };

static int read_file(const char *path, char **out, size_t *len)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f)
        return -errno;
    struct lt_buf b = LT_BUF_INIT;
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
        lt_buf_append(&b, chunk, n);
    int err = ferror(f) ? -EIO : 0;
    if (f != stdin)
        fclose(f);
    if (err) {
        lt_buf_free(&b);
        return err;
    }
    *len = b.len;
    *out = b.data ? lt_buf_steal(&b) : xstrdup("");
    return 0;
}

/*** Option values ***/

static unsigned metric_bit(const char *name, size_t n)
{
    static const struct {
        const char *name;
        unsigned bit;
    } names[] = {{"codebleu", LT_SIM_M_CODEBLEU},
                 {"meteor", LT_SIM_M_METEOR},
                 {"rouge-l", LT_SIM_M_ROUGE_L},
                 {"rougel", LT_SIM_M_ROUGE_L},
                 {"ctses", LT_SIM_M_CTSES},
                 {"levenshtein", LT_SIM_M_LEVENSHTEIN},
                 {"tree-edit", LT_SIM_M_TREE_EDIT},
                 {"ted", LT_SIM_M_TREE_EDIT},
                 {"all", LT_SIM_M_ALL}};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (strlen(names[i].name) == n && strncmp(names[i].name, name, n) == 0)
            return names[i].bit;
    return 0;
}

static int parse_weights(const char *s, double w[4])
{
    const char *p = s;
    for (int i = 0; i < 4; i++) {
        char *end;
        errno = 0;
        w[i] = strtod(p, &end);
        if (end == p || errno || w[i] < 0)
            return -1;
        p = end;
        if (i < 3) {
            if (*p != ',')
                return -1;
            p++;
        }
    }
    return *p ? -1 : 0;
}

/* The index of S in NAMES[0..N), or the usage error "unknown WHAT 'S'"
 * printed and -1. */
static int one_of(const char *s, const char *const *names, size_t n,
                  const char *what)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(s, names[i]) == 0)
            return (int)i;
    lt_cli_usage_error("unknown %s '%s'", what, s);
    return -1;
}

/* Contract: see similarity.h. */
int lt_sim_set_metrics(struct lt_sim_command *c, const char *s)
{
    const char *p = s;
    while (*p) {
        size_t n = strcspn(p, ",");
        unsigned bit = metric_bit(p, n);
        if (!bit) {
            lt_cli_usage_error("unknown metric '%s'", s);
            return -1;
        }
        c->metrics |= bit;
        p += n;
        if (*p == ',')
            p++;
    }
    return 0;
}

/* Contract: see similarity.h. */
int lt_sim_set_lang(struct lt_sim_command *c, const char *s)
{
    static const char *const names[] = {"python", "java"}; /* by enum */
    int i = one_of(s, names, 2, "language");
    if (i < 0)
        return -1;
    c->sim.lang = (enum lt_sim_lang)i;
    return 0;
}

/* Contract: see similarity.h. */
int lt_sim_set_tokens(struct lt_sim_command *c, const char *s)
{
    static const char *const names[] = {"code", "words"}; /* by enum */
    int i = one_of(s, names, 2, "token mode");
    if (i < 0)
        return -1;
    c->sim.tokens = (enum lt_sim_tokens)i;
    return 0;
}

/* Contract: see similarity.h. */
int lt_sim_set_format(struct lt_sim_command *c, const char *s)
{
    static const char *const names[] = {"text", "json"};
    int i = one_of(s, names, 2, "format");
    if (i < 0)
        return -1;
    c->json = i;
    return 0;
}

/* Contract: see similarity.h. */
int lt_sim_set_weights(struct lt_sim_command *c, const char *s)
{
    if (parse_weights(s, c->sim.codebleu_weights) < 0) {
        lt_cli_usage_error("bad --codebleu-weights '%s': want four "
                           "non-negative numbers A,B,C,D", s);
        return -1;
    }
    return 0;
}

/*** Output ***/

static json_t *result_json(const struct lt_sim_result *r)
{
    json_t *o = json_object();
    if (r->computed & LT_SIM_M_CODEBLEU) {
        json_object_set_new(o, "codebleu", json_real(r->codebleu));
        json_object_set_new(o, "bleu", json_real(r->bleu));
        json_object_set_new(o, "weighted_ngram_match",
                            json_real(r->weighted_bleu));
        json_object_set_new(o, "syntax_match", json_real(r->syntax_match));
        json_object_set_new(o, "dataflow_match", json_real(r->dataflow_match));
        json_object_set_new(o, "dataflow_ref_edges",
                            json_integer((json_int_t)r->dataflow_ref_edges));
    }
    if (r->computed & LT_SIM_M_METEOR) {
        json_object_set_new(o, "meteor", json_real(r->meteor));
        json_object_set_new(o, "meteor_precision", json_real(r->meteor_p));
        json_object_set_new(o, "meteor_recall", json_real(r->meteor_r));
        json_object_set_new(o, "meteor_fmean", json_real(r->meteor_fmean));
    }
    if (r->computed & LT_SIM_M_ROUGE_L) {
        json_object_set_new(o, "rouge_l_precision", json_real(r->rouge_l_p));
        json_object_set_new(o, "rouge_l_recall", json_real(r->rouge_l_r));
        json_object_set_new(o, "rouge_l_f1", json_real(r->rouge_l_f));
    }
    if (r->computed & LT_SIM_M_CTSES) {
        json_object_set_new(o, "ctses1", json_real(r->ctses1));
        json_object_set_new(o, "ctses2", json_real(r->ctses2));
        json_object_set_new(o, "ctses_uniform", json_real(r->ctses_uniform));
        json_object_set_new(o, "ctses1_accepted",
                            json_boolean(r->ctses1_accepted));
        json_object_set_new(o, "ctses2_accepted",
                            json_boolean(r->ctses2_accepted));
        json_object_set_new(o, "ctses_uniform_accepted",
                            json_boolean(r->ctses_uniform_accepted));
    }
    if (r->computed & LT_SIM_M_LEVENSHTEIN) {
        json_object_set_new(o, "levenshtein", json_real(r->levenshtein));
        json_object_set_new(o, "levenshtein_distance",
                            json_integer((json_int_t)r->levenshtein_distance));
    }
    if (r->computed & LT_SIM_M_TREE_EDIT) {
        json_object_set_new(o, "tree_edit", json_real(r->tree_edit));
        json_object_set_new(o, "tree_edit_distance",
                            json_integer((json_int_t)r->tree_edit_distance));
    }
    json_object_set_new(o, "candidate_tokens",
                        json_integer((json_int_t)r->cand_tokens));
    json_object_set_new(o, "reference_tokens",
                        json_integer((json_int_t)r->ref_tokens));
    return o;
}

static void print_text(FILE *out, const char *id, const struct lt_sim_result *r,
                       unsigned asked)
{
    const char *pre = id ? id : "";
    const char *sep = id ? "\t" : "";
    if (r->computed & LT_SIM_M_CODEBLEU)
        fprintf(out,
                "%s%scodebleu     %.4f  (bleu %.4f, weighted %.4f, syntax "
                "%.4f, dataflow %.4f%s)\n",
                pre, sep, r->codebleu, r->bleu, r->weighted_bleu,
                r->syntax_match, r->dataflow_match,
                r->dataflow_ref_edges ? "" : ", no reference edges: counted 1");
    if (r->computed & LT_SIM_M_METEOR)
        fprintf(out, "%s%smeteor       %.4f  (P %.4f, R %.4f, Fmean %.4f)\n",
                pre, sep, r->meteor, r->meteor_p, r->meteor_r,
                r->meteor_fmean);
    if (r->computed & LT_SIM_M_ROUGE_L)
        fprintf(out, "%s%srouge-l      %.4f  (P %.4f, R %.4f)\n", pre, sep,
                r->rouge_l_f, r->rouge_l_p, r->rouge_l_r);
    if (r->computed & LT_SIM_M_CTSES) {
        fprintf(out, "%s%sctses1       %.4f  %s\n", pre, sep, r->ctses1,
                r->ctses1_accepted ? "accepted" : "rejected");
        fprintf(out, "%s%sctses2       %.4f  %s\n", pre, sep, r->ctses2,
                r->ctses2_accepted ? "accepted" : "rejected");
        fprintf(out, "%s%sctses-unif   %.4f  %s\n", pre, sep,
                r->ctses_uniform,
                r->ctses_uniform_accepted ? "accepted" : "rejected");
    }
    if (r->computed & LT_SIM_M_LEVENSHTEIN)
        fprintf(out, "%s%slevenshtein  %.4f  (distance %zu tokens)\n", pre, sep,
                r->levenshtein, r->levenshtein_distance);
    if (r->computed & LT_SIM_M_TREE_EDIT)
        fprintf(out, "%s%stree-edit    %.4f  (distance %zu nodes)\n", pre, sep,
                r->tree_edit, r->tree_edit_distance);
    else if (asked & LT_SIM_M_TREE_EDIT)
        fprintf(out, "%s%stree-edit    n/a   (trees too large)\n", pre, sep);
}

/*** Batch ***/

static int run_pairs(struct lt_sim *s, const char *path, bool json,
                     unsigned asked)
{
    FILE *in = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!in) {
        fprintf(stderr, "litmus similarity: cannot open %s: %s\n", path,
                strerror(errno));
        return EXIT_USAGE;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    size_t lineno = 0;
    int status = EXIT_OK;
    const char **refs = NULL;
    size_t *rlens = NULL;
    while ((n = getline(&line, &cap, in)) > 0) {
        lineno++;
        size_t k = (size_t)n;
        while (k && (line[k - 1] == '\n' || line[k - 1] == '\r'))
            k--;
        if (k == 0)
            continue;
        json_error_t jerr;
        json_t *rec = json_loadb(line, k, 0, &jerr);
        if (!rec || !json_is_object(rec)) {
            fprintf(stderr, "litmus similarity: %s:%zu: not a JSON object%s%s\n",
                    path, lineno, rec ? "" : ": ", rec ? "" : jerr.text);
            json_decref(rec);
            status = EXIT_USAGE;
            break;
        }
        json_t *cand = json_object_get(rec, "candidate");
        json_t *ref = json_object_get(rec, "reference");
        json_t *id = json_object_get(rec, "id");
        size_t nrefs = json_is_array(ref) ? json_array_size(ref) : 1;
        bool ok = json_is_string(cand) && (json_is_string(ref) ||
                                           (json_is_array(ref) && nrefs > 0));
        refs = xrealloc(refs, nrefs * sizeof(*refs));
        rlens = xrealloc(rlens, nrefs * sizeof(*rlens));
        for (size_t r = 0; ok && r < nrefs; r++) {
            json_t *x = json_is_array(ref) ? json_array_get(ref, r) : ref;
            if (!json_is_string(x)) {
                ok = false;
                break;
            }
            refs[r] = json_string_value(x);
            rlens[r] = json_string_length(x);
        }
        if (!ok) {
            fprintf(stderr,
                    "litmus similarity: %s:%zu: needs \"candidate\" (text) and "
                    "\"reference\" (text or non-empty list of texts)\n",
                    path, lineno);
            json_decref(rec);
            status = EXIT_USAGE;
            break;
        }
        struct lt_sim_result r;
        int rc = lt_sim_compare(s, json_string_value(cand),
                                json_string_length(cand), refs, rlens, nrefs,
                                &r);
        if (rc < 0) {
            fprintf(stderr, "litmus similarity: %s:%zu: %s\n", path, lineno,
                    lt_strerror(rc));
            json_decref(rec);
            status = EXIT_ENGINE;
            break;
        }
        if (json) {
            json_t *o = result_json(&r);
            json_object_set(o, "id", id ? id : json_null());
            char *txt = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(10) |
                                          JSON_PRESERVE_ORDER);
            puts(txt);
            free(txt);
            json_decref(o);
        } else {
            char *idtxt = id ? (json_is_string(id) ? xstrdup(json_string_value(id))
                                                   : json_dumps(id, JSON_ENCODE_ANY))
                             : xasprintf("%zu", lineno);
            print_text(stdout, idtxt, &r, asked);
            free(idtxt);
        }
        json_decref(rec);
    }
    free(line);
    free(refs);
    free(rlens);
    if (in != stdin)
        fclose(in);
    return status;
}

/*** Entry ***/

/* Contract: see similarity.h. */
void lt_sim_command_init(struct lt_sim_command *c)
{
    memset(c, 0, sizeof(*c));
    lt_sim_options_init(&c->sim);
}

/* Contract: see similarity.h. */
int lt_sim_command_run(const struct lt_sim_command *c, int nargs,
                       char **args)
{
    struct lt_sim_options o = c->sim;
    if (c->metrics)
        o.metrics = c->metrics;
    if (c->dataflow_compat)
        o.dataflow_compat = true;
    bool json = c->json;
    const char *pairs = c->pairs, *dump = c->dump;

    if (dump) {
        if (nargs || pairs)
            return lt_cli_usage_error("%s", "--dump-tokens takes no other input");
        char *text;
        size_t len;
        int rc = read_file(dump, &text, &len);
        if (rc < 0) {
            fprintf(stderr, "litmus similarity: cannot read %s: %s\n", dump,
                    lt_strerror(rc));
            return EXIT_USAGE;
        }
        char *t = lt_sim_dump_tokens(text, len, o.lang, o.tokens);
        fputs(t, stdout);
        free(t);
        free(text);
        return EXIT_OK;
    }
    if (pairs && nargs)
        return lt_cli_usage_error("%s", "give --pairs or two files, not both");
    if (!pairs && nargs != 2)
        return lt_cli_usage_error("%s", "need CANDIDATE and REFERENCE files");

    struct lt_sim *s = NULL;
    int rc = lt_sim_new(&o, &s);
    if (rc < 0) {
        fprintf(stderr, "litmus similarity: %s\n", lt_strerror(rc));
        return EXIT_ENGINE;
    }
    int status = EXIT_OK;
    if (pairs) {
        status = run_pairs(s, pairs, json, o.metrics);
    } else {
        char *a = NULL, *b = NULL;
        size_t alen = 0, blen = 0;
        const char *bad = NULL;
        if ((rc = read_file(args[0], &a, &alen)) < 0)
            bad = args[0];
        else if ((rc = read_file(args[1], &b, &blen)) < 0)
            bad = args[1];
        if (bad) {
            fprintf(stderr, "litmus similarity: cannot read %s: %s\n", bad,
                    lt_strerror(rc));
            status = EXIT_USAGE;
        } else {
            struct lt_sim_result r;
            const char *refs[1] = {b};
            rc = lt_sim_compare(s, a, alen, refs, &blen, 1, &r);
            if (rc < 0) {
                fprintf(stderr, "litmus similarity: %s\n", lt_strerror(rc));
                status = EXIT_ENGINE;
            } else if (json) {
                json_t *obj = result_json(&r);
                char *txt = json_dumps(obj, JSON_INDENT(2) |
                                                JSON_REAL_PRECISION(10) |
                                                JSON_PRESERVE_ORDER);
                puts(txt);
                free(txt);
                json_decref(obj);
            } else {
                print_text(stdout, NULL, &r, o.metrics);
            }
        }
        free(a);
        free(b);
    }
    lt_sim_free(s);
    if (fflush(stdout) != 0 && status == EXIT_OK) {
        fprintf(stderr, "litmus similarity: writing output: %s\n",
                strerror(errno));
        status = EXIT_ENGINE;
    }
    return status;
}
