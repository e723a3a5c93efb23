/* The comparison context and the one-shot helpers: tokenizes, parses and
 * puts the metrics together.  SPDX-License-Identifier: MIT */
#include "engine/similarity/similarity.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/xmalloc.h"
#include "engine/similarity/internal.h"

/* A prepared text: its tokens and, when a metric needs it, its tree.
 * The context keeps the last few in a cache, so a reference compared
 * with several candidates in a row (or a candidate equal to its
 * reference) is tokenized and parsed once; and a text that shares most
 * of its lines with a cached one (or with another text of the same
 * compare) is parsed incrementally from that one's tree. */
struct doc {
    char *text; /* a copy, to confirm a hash match */
    size_t len;
    uint64_t hash;
    uint64_t used; /* the compare that last used it */
    struct lt__toks toks;
    struct lt__tree *tree;
    struct lt__lines lines; /* when it has a tree */
    bool ready;             /* tokens and tree prepared */
    bool cached;            /* in s->docs */
};

enum { DOC_CACHE = 8 };

struct lt_sim {
    struct lt_sim_options o;
    unsigned what; /* LT__TREE_* */
    struct lt__dict *dict;
    struct lt__trees *trees;
    struct lt__scratch sc;
    struct doc **docs; /* the cache, ndocs of cap */
    size_t ndocs, docs_cap;
    uint64_t clock;
    struct doc **cur; /* this compare: candidate, then the references */
    const struct lt__toks **rtoks;
    const char **texts;
    size_t *lens;
    size_t cur_cap;
    struct lt__hunks hunks; /* the last text diff */
    bool no_incremental;    /* lt__sim_incremental(s, false) */
    double fresh_ns_per_byte; /* a fresh parse's cost; 0: not known */
    double *prof;
};

const char *const lt__phase_names[LT__PH_N] = {
    [LT__PH_TOKENIZE] = "tokenize (+ text cache)",
    [LT__PH_DIFF] = "text diff (incremental base)",
    [LT__PH_PARSE] = "tree-sitter parse",
    [LT__PH_FLATTEN] = "flatten tree",
    [LT__PH_SUBTREES] = "codebleu: subtree ids",
    [LT__PH_DFG] = "codebleu: data-flow rules",
    [LT__PH_TEDPREP] = "tree edit: labels",
    [LT__PH_BLEU] = "codebleu: bleu + weighted",
    [LT__PH_SYNTAX] = "codebleu: syntax match",
    [LT__PH_DATAFLOW] = "codebleu: data-flow match",
    [LT__PH_METEOR] = "meteor",
    [LT__PH_ROUGE] = "rouge-l (lcs)",
    [LT__PH_LEV] = "levenshtein",
    [LT__PH_TED] = "tree edit: zhang-shasha",
    [LT__PH_OTHER] = "other",
};

void lt__sim_profile(struct lt_sim *s, double *acc)
{
    s->prof = acc;
}

void lt__sim_incremental(struct lt_sim *s, bool on)
{
    s->no_incremental = !on;
}

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
    if (s->o.metrics & LT_SIM_M_CODEBLEU)
        s->what |= LT__TREE_SYNTAX | LT__TREE_DFG;
    if (s->o.metrics & LT_SIM_M_TREE_EDIT)
        s->what |= LT__TREE_TED;
    s->dict = lt__dict_new();
    if (s->what) {
        s->trees = lt__trees_new(o->lang);
        if (!s->trees) {
            lt_sim_free(s);
            return LT_EINTERNAL;
        }
    }
    *out = s;
    return 0;
}

static void doc_free(struct doc *d)
{
    if (!d)
        return;
    free(d->text);
    free(d->toks.v);
    lt__tree_free(d->tree);
    lt__lines_free(&d->lines);
    free(d);
}

static void drop_cache(struct lt_sim *s)
{
    for (size_t i = 0; i < s->ndocs; i++)
        doc_free(s->docs[i]);
    s->ndocs = 0;
}

void lt_sim_free(struct lt_sim *s)
{
    if (!s)
        return;
    drop_cache(s);
    free(s->docs);
    free(s->cur);
    free(s->rtoks);
    free(s->texts);
    free(s->lens);
    free(s->hunks.v);
    lt__dict_free(s->dict);
    lt__trees_free(s->trees);
    lt__scratch_free(&s->sc);
    free(s);
}

static uint64_t text_hash(const char *p, size_t n)
{
    uint64_t h = 0x243f6a8885a308d3ull ^ (n * 0x9e3779b97f4a7c15ull);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdull;
        h ^= h >> 29;
    }
    uint64_t w = 0;
    if (n > i)
        memcpy(&w, p + i, n - i);
    h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
    return h ^ (h >> 32);
}

/* The doc of text: from the cache, or from cur[0..k) (the texts of this
 * compare seen so far), or a new one, neither tokenized nor parsed. */
static struct doc *find_doc(struct lt_sim *s, const char *text, size_t len,
                            size_t k)
{
    uint64_t h = text_hash(text, len);
    for (size_t i = 0; i < s->ndocs + k; i++) {
        struct doc *d = i < s->ndocs ? s->docs[i] : s->cur[i - s->ndocs];
        if (d->hash == h && d->len == len &&
            (len == 0 || memcmp(d->text, text, len) == 0)) {
            d->used = s->clock;
            return d;
        }
    }
    struct doc *d = xcalloc(1, sizeof(*d));
    d->text = xmalloc(len + 1);
    if (len)
        memcpy(d->text, text, len);
    d->len = len;
    d->hash = h;
    d->used = s->clock;
    return d;
}

/* A parsed text is a base for x when the two share at least half of x's
 * lines (an upper bound, found in linear time), and the line diff then
 * keeps at least 90% of x's bytes in at most MAX_HUNKS runs: each change
 * costs the parser a walk down the tree and a re-lex around it, so many
 * scattered changes, or large ones, are better parsed afresh.  Measured
 * on the benchmark's 5 kB files (docs/similarity.md, Performance): 1
 * changed byte costs 3% of a fresh parse, 8 scattered ones 28%, 14 46%,
 * 37 81%; a tenth of the file replaced, 100%.  And as some edits (a
 * changed indentation, a syntax error) make even a small change cost a
 * whole parse, the incremental parse gets BUDGET of the time a fresh one
 * is expected to take (from the fresh parses so far) before it gives up
 * for a fresh one. */
enum { MAX_HUNKS = 32 };
#define KEPT_MIN 0.9
#define BUDGET 0.6

static bool base_ok(const struct doc *b, const struct doc *x)
{
    return b && b != x && b->tree && !lt__tree_has_error(b->tree) &&
           b->lines.key != NULL;
}

/* Picks the base for an incremental parse of x: the parsed text (cached,
 * or of this compare, cur[0..k)) sharing the most lines with it.  Fills
 * s->hunks and returns it, or NULL for a fresh parse. */
static struct doc *pick_base(struct lt_sim *s, struct doc *x, size_t k)
{
    struct doc *best = NULL;
    size_t best_common = 0;
    if (s->no_incremental || s->fresh_ns_per_byte <= 0)
        return NULL;
    for (size_t i = 0; i < s->ndocs + k; i++) {
        struct doc *b = i < s->ndocs ? s->docs[i] : s->cur[i - s->ndocs];
        if (!base_ok(b, x))
            continue;
        size_t c = lt__lines_common(&b->lines, &x->lines);
        if (c > best_common) {
            best_common = c;
            best = b;
        }
    }
    if (!best || 2 * best_common < x->lines.n)
        return NULL;
    /* The diff inserts and deletes at least this many lines; allow a
     * margin for lines the multisets share but the order does not. */
    size_t n = best->lines.n + x->lines.n;
    long maxd = (long)(n - 2 * best_common + n / 8 + 8);
    long kept = lt__text_diff(&best->lines, best->text, best->len, &x->lines,
                              x->text, x->len, maxd, &s->hunks);
    if (kept < 0 || (double)kept < KEPT_MIN * (double)x->len ||
        s->hunks.n > MAX_HUNKS)
        return NULL;
    return best;
}

/* Parses x, the k-th text of this compare: incrementally when a text
 * already parsed is close enough, otherwise afresh.  false when the
 * parser fails. */
static bool parse_doc(struct lt_sim *s, struct doc *x, size_t k, double *t)
{
    lt__lines_init(&x->lines, x->text, x->len);
    struct doc *b = pick_base(s, x, k);
    lt__sim_lap(s->prof, LT__PH_DIFF, t);
    struct lt__base base = {0};
    if (b) {
        double us = s->fresh_ns_per_byte * (double)x->len * 1e-3 * BUDGET;
        base = (struct lt__base){b->tree, b->text, &b->lines, &s->hunks,
                                 (uint64_t)us + 1};
    }
    double t0 = b ? 0 : lt__sim_now();
    x->tree = lt__tree_parse_text(s->trees, x->text, x->len,
                                  b ? &base : NULL, s->prof);
    if (!b && x->tree && x->len >= 256) {
        /* The cost of a fresh parse, per byte: a moving average. */
        double ns = (lt__sim_now() - t0) * 1e9 / (double)x->len;
        s->fresh_ns_per_byte = s->fresh_ns_per_byte > 0
                                   ? 0.75 * s->fresh_ns_per_byte + 0.25 * ns
                                   : ns;
    }
    if (s->prof)
        *t = lt__sim_now();
    return x->tree != NULL;
}

/* Into the cache, in place of the least recently used text that this
 * compare does not use. */
static void cache_doc(struct lt_sim *s, struct doc *d)
{
    d->cached = true;
    if (s->ndocs < DOC_CACHE) {
        if (s->ndocs == s->docs_cap) {
            s->docs_cap = DOC_CACHE;
            s->docs = xrealloc(s->docs, s->docs_cap * sizeof(*s->docs));
        }
        s->docs[s->ndocs++] = d;
        return;
    }
    size_t old = SIZE_MAX;
    for (size_t i = 0; i < s->ndocs; i++)
        if (s->docs[i]->used != s->clock &&
            (old == SIZE_MAX || s->docs[i]->used < s->docs[old]->used))
            old = i;
    if (old == SIZE_MAX) {
        /* Every cached text is in use: grow the cache for this compare. */
        if (s->ndocs == s->docs_cap) {
            s->docs_cap *= 2;
            s->docs = xrealloc(s->docs, s->docs_cap * sizeof(*s->docs));
        }
        s->docs[s->ndocs++] = d;
        return;
    }
    doc_free(s->docs[old]);
    s->docs[old] = d;
}

/* Prepares the texts of a compare into s->cur[0..n): looked up in the
 * cache; the new ones parsed (any order will do, and those sharing text
 * with one parsed before go incrementally), then tokenized and their
 * trees derived in the order of the texts (the dictionary's ids follow
 * that order), then cached.  false when the parser fails. */
static bool prepare_all(struct lt_sim *s, const char *const *texts,
                        const size_t *lens, size_t n, double *t)
{
    for (size_t i = 0; i < n; i++)
        s->cur[i] = find_doc(s, texts[i], lens[i], i);
    lt__sim_lap(s->prof, LT__PH_TOKENIZE, t);
    bool ok = true;
    for (size_t i = 0; i < n && ok; i++) {
        struct doc *d = s->cur[i];
        if (s->what && !d->ready && !d->tree)
            ok = parse_doc(s, d, i, t);
    }
    for (size_t i = 0; i < n && ok; i++) {
        struct doc *d = s->cur[i];
        if (d->ready)
            continue;
        lt__tokenize(s->dict, d->text, d->len, s->o.lang, s->o.tokens,
                     &d->toks);
        lt__sim_lap(s->prof, LT__PH_TOKENIZE, t);
        if (d->tree) {
            lt__tree_derive(s->trees, s->dict, d->tree, d->text, d->len,
                            s->what, s->prof);
            if (s->prof)
                *t = lt__sim_now();
        }
        d->ready = true;
    }
    /* Caching may free the trees of older texts: parse time, as in
     * LT__PH_PARSE's definition. */
    for (size_t i = 0; i < n; i++) {
        struct doc *d = s->cur[i];
        if (d->cached)
            continue;
        if (ok) {
            cache_doc(s, d);
            lt__sim_lap(s->prof, LT__PH_PARSE, t);
            continue;
        }
        /* Not cached: free it once (it may be there twice). */
        for (size_t j = i + 1; j < n; j++)
            if (s->cur[j] == d)
                s->cur[j] = NULL;
        doc_free(d);
        s->cur[i] = NULL;
    }
    return ok;
}

/* Back to DOC_CACHE texts after a compare with many references. */
static void shrink_cache(struct lt_sim *s)
{
    while (s->ndocs > DOC_CACHE) {
        size_t old = 0;
        for (size_t i = 1; i < s->ndocs; i++)
            if (s->docs[i]->used < s->docs[old]->used)
                old = i;
        doc_free(s->docs[old]);
        s->docs[old] = s->docs[--s->ndocs];
    }
}

static size_t count_tokens(struct lt_sim *s, const char *text, size_t len)
{
    struct lt__toks tk = {0};
    lt__tokenize(s->dict, text, len, s->o.lang, s->o.tokens, &tk);
    free(tk.v);
    return tk.n;
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
    double t = 0;
    if (s->prof)
        t = lt__sim_now();
    unsigned m = s->o.metrics;
    int rc = 0;
    if (nrefs + 1 > s->cur_cap) {
        s->cur_cap = nrefs + 1;
        s->cur = xrealloc(s->cur, s->cur_cap * sizeof(*s->cur));
        s->rtoks = xrealloc(s->rtoks, s->cur_cap * sizeof(*s->rtoks));
        s->texts = xrealloc(s->texts, s->cur_cap * sizeof(*s->texts));
        s->lens = xrealloc(s->lens, s->cur_cap * sizeof(*s->lens));
    }
    s->clock++;
    /* The subtree ids of cached trees die with the subtree dictionary. */
    if (s->trees && lt__trees_trim(s->trees))
        drop_cache(s);
    /* Tokens of every text first (the sequence metrics size their per-id
     * tables from the dictionary, which trees add labels to). */
    s->texts[0] = cand;
    s->lens[0] = clen;
    for (size_t r = 0; r < nrefs; r++) {
        s->texts[r + 1] = refs[r];
        s->lens[r + 1] = rlens[r];
    }
    if (!prepare_all(s, s->texts, s->lens, nrefs + 1, &t))
        goto parse_failed;
    struct doc *cd = s->cur[0];
    for (size_t r = 0; r < nrefs; r++)
        s->rtoks[r] = &s->cur[r + 1]->toks;
    const struct lt__toks *ct = &cd->toks;
    struct doc *const *rd = s->cur + 1;
    res->cand_tokens = ct->n;
    res->ref_tokens = rd[0]->toks.n;

    if (m & LT_SIM_M_CODEBLEU) {
        lt__ngram_scores(&s->sc, s->dict, s->o.lang, ct, s->rtoks, nrefs,
                         &res->bleu, &res->weighted_bleu);
        lt__sim_lap(s->prof, LT__PH_BLEU, &t);
        size_t sm = 0, st = 0, dm = 0, dt = 0;
        for (size_t r = 0; r < nrefs; r++)
            lt__syntax_match(cd->tree, rd[r]->tree, &sm, &st);
        lt__sim_lap(s->prof, LT__PH_SYNTAX, &t);
        for (size_t r = 0; r < nrefs; r++)
            lt__dataflow_match(cd->tree, rd[r]->tree, &dm, &dt);
        lt__sim_lap(s->prof, LT__PH_DATAFLOW, &t);
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
            double sc = lt__meteor(&s->sc, s->dict, ct, &rd[r]->toks, &p, &rr,
                                   &f);
            if (sc > best) {
                best = sc;
                res->meteor = sc;
                res->meteor_p = p;
                res->meteor_r = rr;
                res->meteor_fmean = f;
            }
        }
        res->computed |= LT_SIM_M_METEOR;
        lt__sim_lap(s->prof, LT__PH_METEOR, &t);
    }
    if (m & LT_SIM_M_ROUGE_L) {
        double best = -1;
        for (size_t r = 0; r < nrefs; r++) {
            const struct lt__toks *rt = &rd[r]->toks;
            double p = 0, rr = 0, f = 0;
            if (ct->n && rt->n) {
                size_t l = lt__lcs(&s->sc, lt__dict_size(s->dict), ct->v,
                                   ct->n, rt->v, rt->n);
                p = (double)l / (double)ct->n;
                rr = (double)l / (double)rt->n;
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
        lt__sim_lap(s->prof, LT__PH_ROUGE, &t);
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
            const struct lt__toks *rt = &rd[r]->toks;
            size_t d = lt__levenshtein(&s->sc, lt__dict_size(s->dict), ct->v,
                                       ct->n, rt->v, rt->n);
            double sim = ratio_sim(d, ct->n, rt->n);
            if (sim > best) {
                best = sim;
                res->levenshtein = sim;
                res->levenshtein_distance = d;
            }
        }
        res->computed |= LT_SIM_M_LEVENSHTEIN;
        lt__sim_lap(s->prof, LT__PH_LEV, &t);
    }
    if (m & LT_SIM_M_TREE_EDIT) {
        double best = -1;
        bool ok = true;
        for (size_t r = 0; r < nrefs; r++) {
            size_t d = lt__tree_edit(cd->tree, rd[r]->tree, &s->sc,
                                     lt__dict_size(s->dict));
            if (d == SIZE_MAX) {
                ok = false;
                continue;
            }
            double sim = ratio_sim(d, lt__tree_size(cd->tree),
                                   lt__tree_size(rd[r]->tree));
            if (sim > best) {
                best = sim;
                res->tree_edit = sim;
                res->tree_edit_distance = d;
            }
        }
        if (ok || best >= 0)
            res->computed |= LT_SIM_M_TREE_EDIT;
        lt__sim_lap(s->prof, LT__PH_TED, &t);
    }
out:
    shrink_cache(s);
    lt__sim_lap(s->prof, LT__PH_OTHER, &t);
    return rc;
parse_failed:
    /* Nothing computed; the token counts are reported all the same. */
    res->cand_tokens = count_tokens(s, cand, clen);
    res->ref_tokens = count_tokens(s, refs[0], rlens[0]);
    rc = LT_EINTERNAL;
    goto out;
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
