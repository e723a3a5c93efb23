/* The comparison context and the one-shot helpers: tokenizes, parses and
 * puts the metrics together.  SPDX-License-Identifier: MIT */
#include "engine/similarity/similarity.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/xmalloc.h"
#include "engine/similarity/internal.h"

struct lt_sim {
    struct lt_sim_options o;
    struct lt__dict *dict;
    struct lt__trees *trees;
    struct lt__scratch sc;
    struct lt__toks cand;
    struct lt__toks *refs;
    size_t refs_cap;
    struct lt__tree **rtrees;
};

void lt_sim_options_init(struct lt_sim_options *o)
{
    memset(o, 0, sizeof(*o));
    o->lang = LT_SIM_PYTHON;
    o->tokens = LT_SIM_TOKENS_CODE;
    o->metrics = LT_SIM_M_ALL;
    for (int i = 0; i < 4; i++)
        o->codebleu_weights[i] = 0.25;
    o->dataflow_compat = false;
}

/* Creates a context for options o (copied).  Returns 0 and *out, or
 * LT_EINTERNAL when the tree-sitter parser cannot be set up. */
int lt_sim_new(const struct lt_sim_options *o, struct lt_sim **out)
{
    struct lt_sim *s = xcalloc(1, sizeof(*s));
    s->o = *o;
    if (s->o.metrics & LT_SIM_M_CTSES)
        s->o.metrics |= LT_SIM_M_CODEBLEU | LT_SIM_M_METEOR | LT_SIM_M_ROUGE_L;
    s->dict = lt__dict_new();
    if (s->o.metrics & (LT_SIM_M_CODEBLEU | LT_SIM_M_TREE_EDIT)) {
        s->trees = lt__trees_new(o->lang);
        if (!s->trees) {
            lt_sim_free(s);
            return LT_EINTERNAL;
        }
    }
    *out = s;
    return 0;
}

void lt_sim_free(struct lt_sim *s)
{
    if (!s)
        return;
    lt__dict_free(s->dict);
    lt__trees_free(s->trees);
    lt__scratch_free(&s->sc);
    free(s->cand.v);
    for (size_t i = 0; i < s->refs_cap; i++)
        free(s->refs[i].v);
    free(s->refs);
    free(s->rtrees);
    free(s);
}

static double ratio_sim(size_t d, size_t a, size_t b)
{
    size_t m = a > b ? a : b;
    return m == 0 ? 1.0 : 1.0 - (double)d / (double)m;
}

/* Compares cand with refs[0..nrefs) under the context's options.  Every
 * metric asked for is computed; res->computed says which.  Returns 0,
 * LT_EUSAGE when nrefs is 0, LT_EINTERNAL when the parser fails. */
int lt_sim_compare(struct lt_sim *s, const char *cand, size_t clen,
                   const char *const *refs, const size_t *rlens, size_t nrefs,
                   struct lt_sim_result *res)
{
    memset(res, 0, sizeof(*res));
    if (nrefs == 0)
        return LT_EUSAGE;
    unsigned m = s->o.metrics;
    int rc = 0;
    if (nrefs > s->refs_cap) {
        s->refs = xrealloc(s->refs, nrefs * sizeof(*s->refs));
        s->rtrees = xrealloc(s->rtrees, nrefs * sizeof(*s->rtrees));
        memset(s->refs + s->refs_cap, 0,
               (nrefs - s->refs_cap) * sizeof(*s->refs));
        s->refs_cap = nrefs;
    }
    s->cand.n = 0;
    lt__tokenize(s->dict, cand, clen, s->o.lang, s->o.tokens, &s->cand);
    for (size_t r = 0; r < nrefs; r++) {
        s->refs[r].n = 0;
        lt__tokenize(s->dict, refs[r], rlens[r], s->o.lang, s->o.tokens,
                     &s->refs[r]);
        s->rtrees[r] = NULL;
    }
    res->cand_tokens = s->cand.n;
    res->ref_tokens = s->refs[0].n;

    /* Trees first: they intern labels, and the sequence metrics size
     * their per-id tables from the dictionary. */
    struct lt__tree *ct = NULL;
    unsigned what = 0;
    if (m & LT_SIM_M_CODEBLEU)
        what |= LT__TREE_SYNTAX | LT__TREE_DFG;
    if (m & LT_SIM_M_TREE_EDIT)
        what |= LT__TREE_TED;
    if (what) {
        lt__trees_trim(s->trees);
        ct = lt__tree_parse(s->trees, s->dict, cand, clen, what);
        if (!ct) {
            rc = LT_EINTERNAL;
            goto out;
        }
        for (size_t r = 0; r < nrefs; r++) {
            s->rtrees[r] = lt__tree_parse(s->trees, s->dict, refs[r],
                                          rlens[r], what);
            if (!s->rtrees[r]) {
                rc = LT_EINTERNAL;
                goto out;
            }
        }
    }

    if (m & LT_SIM_M_CODEBLEU) {
        res->bleu = lt__bleu(&s->sc, &s->cand, s->refs, nrefs);
        res->weighted_bleu = lt__weighted_bleu(&s->sc, s->dict, s->o.lang,
                                               &s->cand, s->refs, nrefs);
        size_t sm = 0, st = 0, dm = 0, dt = 0;
        for (size_t r = 0; r < nrefs; r++) {
            lt__syntax_match(ct, s->rtrees[r], &sm, &st);
            lt__dataflow_match(ct, s->rtrees[r], &dm, &dt);
        }
        res->syntax_match = st ? (double)sm / (double)st : 0.0;
        res->dataflow_match = dt ? (double)dm / (double)dt : 0.0;
        res->dataflow_ref_edges = dt;
        double df = res->dataflow_match;
        if (dt == 0 || (s->o.dataflow_compat && df == 0.0))
            df = 1.0;
        const double *w = s->o.codebleu_weights;
        res->codebleu = w[0] * res->bleu + w[1] * res->weighted_bleu +
                        w[2] * res->syntax_match + w[3] * df;
        res->computed |= LT_SIM_M_CODEBLEU;
    }
    if (m & LT_SIM_M_METEOR) {
        double best = -1;
        for (size_t r = 0; r < nrefs; r++) {
            double p, rr, f;
            double sc = lt__meteor(&s->sc, s->dict, &s->cand, &s->refs[r], &p,
                                   &rr, &f);
            if (sc > best) {
                best = sc;
                res->meteor = sc;
                res->meteor_p = p;
                res->meteor_r = rr;
                res->meteor_fmean = f;
            }
        }
        res->computed |= LT_SIM_M_METEOR;
    }
    if (m & LT_SIM_M_ROUGE_L) {
        double best = -1;
        for (size_t r = 0; r < nrefs; r++) {
            double p = 0, rr = 0, f = 0;
            if (s->cand.n && s->refs[r].n) {
                size_t l = lt__lcs(&s->sc, lt__dict_size(s->dict), s->cand.v,
                                   s->cand.n, s->refs[r].v, s->refs[r].n);
                p = (double)l / (double)s->cand.n;
                rr = (double)l / (double)s->refs[r].n;
                f = p + rr > 0 ? 2 * p * rr / (p + rr) : 0.0;
            }
            if (f > best) {
                best = f;
                res->rouge_l_p = p;
                res->rouge_l_r = rr;
                res->rouge_l_f = f;
            }
        }
        res->computed |= LT_SIM_M_ROUGE_L;
    }
    if (m & LT_SIM_M_CTSES) {
        double c = res->codebleu, me = res->meteor, ro = res->rouge_l_f;
        res->ctses1 = 0.5 * c + 0.3 * me + 0.2 * ro;
        res->ctses2 = 0.4 * c + 0.3 * me + 0.3 * ro;
        res->ctses_uniform = (c + me + ro) / 3.0;
        res->ctses1_accepted = res->ctses1 >= 0.5;
        res->ctses2_accepted = res->ctses2 >= 0.5;
        res->ctses_uniform_accepted = res->ctses_uniform >= 0.5;
        res->computed |= LT_SIM_M_CTSES;
    }
    if (m & LT_SIM_M_LEVENSHTEIN) {
        double best = -1;
        for (size_t r = 0; r < nrefs; r++) {
            size_t d = lt__levenshtein(&s->sc, lt__dict_size(s->dict),
                                       s->cand.v, s->cand.n, s->refs[r].v,
                                       s->refs[r].n);
            double sim = ratio_sim(d, s->cand.n, s->refs[r].n);
            if (sim > best) {
                best = sim;
                res->levenshtein = sim;
                res->levenshtein_distance = d;
            }
        }
        res->computed |= LT_SIM_M_LEVENSHTEIN;
    }
    if (m & LT_SIM_M_TREE_EDIT) {
        double best = -1;
        bool ok = true;
        for (size_t r = 0; r < nrefs; r++) {
            size_t d = lt__tree_edit(ct, s->rtrees[r]);
            if (d == SIZE_MAX) {
                ok = false;
                continue;
            }
            double sim = ratio_sim(d, lt__tree_size(ct),
                                   lt__tree_size(s->rtrees[r]));
            if (sim > best) {
                best = sim;
                res->tree_edit = sim;
                res->tree_edit_distance = d;
            }
        }
        if (ok || best >= 0)
            res->computed |= LT_SIM_M_TREE_EDIT;
    }
out:
    lt__tree_free(ct);
    for (size_t r = 0; r < nrefs && what; r++) {
        lt__tree_free(s->rtrees[r]);
        s->rtrees[r] = NULL;
    }
    return rc;
}

/*** One-shot helpers ***/

static double one_metric(const char *a, size_t alen, const char *b,
                         size_t blen, enum lt_sim_lang lang, unsigned metric)
{
    struct lt_sim_options o;
    lt_sim_options_init(&o);
    o.lang = lang;
    o.metrics = metric;
    struct lt_sim *s = NULL;
    int rc = lt_sim_new(&o, &s);
    if (rc < 0)
        return (double)rc;
    struct lt_sim_result r;
    const char *refs[1] = {b};
    size_t rl[1] = {blen};
    rc = lt_sim_compare(s, a, alen, refs, rl, 1, &r);
    lt_sim_free(s);
    if (rc < 0)
        return (double)rc;
    if (!(r.computed & metric))
        return (double)LT_EINTERNAL;
    return metric == LT_SIM_M_TREE_EDIT ? r.tree_edit : r.levenshtein;
}

double lt_sim_token_levenshtein(const char *a, size_t alen, const char *b,
                                size_t blen, enum lt_sim_lang lang)
{
    return one_metric(a, alen, b, blen, lang, LT_SIM_M_LEVENSHTEIN);
}

double lt_sim_tree_edit(const char *a, size_t alen, const char *b,
                        size_t blen, enum lt_sim_lang lang)
{
    return one_metric(a, alen, b, blen, lang, LT_SIM_M_TREE_EDIT);
}

char *lt_sim_dump_tokens(const char *text, size_t len, enum lt_sim_lang lang,
                         enum lt_sim_tokens mode)
{
    struct lt__dict *d = lt__dict_new();
    struct lt__toks t = {0};
    lt__tokenize(d, text, len, lang, mode, &t);
    struct lt_buf b = LT_BUF_INIT;
    for (size_t i = 0; i < t.n; i++) {
        size_t n;
        const char *s = lt__dict_str(d, t.v[i], &n);
        lt_buf_append(&b, s, n);
        lt_buf_append(&b, "\n", 1);
    }
    free(t.v);
    lt__dict_free(d);
    if (!b.data)
        return xstrdup("");
    return lt_buf_steal(&b);
}
