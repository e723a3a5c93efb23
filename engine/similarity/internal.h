/* Pieces shared by the similarity sources; not part of the public API.
 * SPDX-License-Identifier: MIT */
#ifndef LT_SIMILARITY_INTERNAL_H
#define LT_SIMILARITY_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/similarity/similarity.h"

/*** Token dictionary: every distinct token string gets a small id ***/

struct lt__dict;

struct lt__dict *lt__dict_new(void);
void lt__dict_free(struct lt__dict *d);
uint32_t lt__dict_intern(struct lt__dict *d, const char *s, size_t n);
const char *lt__dict_str(const struct lt__dict *d, uint32_t id, size_t *n);
size_t lt__dict_size(const struct lt__dict *d);
/* Id of the lowercased token, and of the Porter stem of that. */
uint32_t lt__dict_lower(struct lt__dict *d, uint32_t id);
uint32_t lt__dict_stem(struct lt__dict *d, uint32_t id);
/* CodeBLEU keyword of `lang` (weight 1.0 rather than 0.2). */
bool lt__dict_keyword(struct lt__dict *d, uint32_t id, enum lt_sim_lang lang);

struct lt__toks {
    uint32_t *v;
    size_t n, cap;
};

void lt__toks_push(struct lt__toks *t, uint32_t id);

/* Appends the tokens of text to *out (which it does not clear). */
void lt__tokenize(struct lt__dict *d, const char *text, size_t len,
                  enum lt_sim_lang lang, enum lt_sim_tokens mode,
                  struct lt__toks *out);

/* Porter (1980) stemmer on a lowercase ASCII word, in place; returns the
 * new length.  Words with other bytes are left alone. */
size_t lt__porter_stem(char *w, size_t n);

/*** Sequence metrics (metrics.c) ***/

/* Scratch memory reused between pairs. */
struct lt__scratch {
    uint64_t *bits;
    size_t bits_cap;
    uint32_t *slot; /* per token id: index into the bit-vector table */
    uint32_t *stamp;
    size_t slot_cap;
    uint32_t epoch;
    uint32_t *u32a, *u32b;
    size_t u32a_cap, u32b_cap;
    void *table;
    size_t table_cap;
};

void lt__scratch_free(struct lt__scratch *s);

/* The reference BLEU (n = 1..4, clipped counts, brevity penalty from the
 * closest reference length, Chen-Cherry method1 smoothing, epsilon 0.1). */
double lt__bleu(struct lt__scratch *sc, const struct lt__toks *hyp,
                const struct lt__toks *refs, size_t nrefs);
/* The reference weighted n-gram match (see docs/similarity.md). */
double lt__weighted_bleu(struct lt__scratch *sc, struct lt__dict *d,
                         enum lt_sim_lang lang, const struct lt__toks *hyp,
                         const struct lt__toks *refs, size_t nrefs);
size_t lt__lcs(struct lt__scratch *sc, size_t nids, const uint32_t *a,
               size_t an, const uint32_t *b, size_t bn);
size_t lt__levenshtein(struct lt__scratch *sc, size_t nids, const uint32_t *a,
                       size_t an, const uint32_t *b, size_t bn);
/* METEOR of hyp against one reference; fills p, r, fmean. */
double lt__meteor(struct lt__scratch *sc, struct lt__dict *d,
                  const struct lt__toks *hyp, const struct lt__toks *ref,
                  double *p, double *r, double *fmean);

/*** Syntax trees (tree.c, dfg.c) ***/

/* A tree-sitter tree flattened into an array in pre-order: every visible
 * node (named or anonymous); hidden nodes are dissolved, as in
 * py-tree-sitter's `children`. */
enum { LT__NONE = UINT32_MAX };

struct lt__node {
    uint32_t start, end;          /* byte offsets */
    uint32_t parent, first, next; /* LT__NONE when absent */
    uint32_t nchild;
    uint32_t tok;                 /* token index (data flow), or LT__NONE */
    uint16_t sym, field;
    uint8_t named, missing, flags;
};

/* lt__node.flags */
enum {
    LT__N_COMMENT = 1u << 0,  /* a comment node */
    LT__N_STRLEAF = 1u << 1,  /* a string the data flow takes as a leaf */
    LT__N_DROPPED = 1u << 2,  /* comment or Python string statement */
};

struct lt__flat {
    struct lt__node *n;
    size_t count;
    const char *text;
    size_t len;
    const void *language; /* const TSLanguage * */
};

const char *lt__flat_type(const struct lt__flat *f, uint32_t i);

struct lt__tree; /* one parsed text, with what the metrics need from it */
struct lt__trees; /* parsers and the subtree dictionary */

/* What lt__tree_parse should prepare. */
enum {
    LT__TREE_SYNTAX = 1u << 0,
    LT__TREE_DFG = 1u << 1,
    LT__TREE_TED = 1u << 2,
};

struct lt__trees *lt__trees_new(enum lt_sim_lang lang);
void lt__trees_free(struct lt__trees *t);
/* Forget the subtree dictionary (between pairs, to bound memory). */
void lt__trees_trim(struct lt__trees *t);
/* Parses text; NULL when the parser fails (not for syntax errors). */
struct lt__tree *lt__tree_parse(struct lt__trees *t, struct lt__dict *d,
                                const char *text, size_t len, unsigned what);
void lt__tree_free(struct lt__tree *tr);
/* Reference subtrees (s-expressions, leaves excluded) found in cand. */
void lt__syntax_match(const struct lt__tree *cand, const struct lt__tree *ref,
                      size_t *match, size_t *total);
/* Normalised data-flow edges of ref found in cand (multiset). */
void lt__dataflow_match(const struct lt__tree *cand,
                        const struct lt__tree *ref, size_t *match,
                        size_t *total);
/* Zhang-Shasha distance; SIZE_MAX when the trees are too large. */
size_t lt__tree_edit(const struct lt__tree *a, const struct lt__tree *b);
size_t lt__tree_size(const struct lt__tree *tr);
/* Zhang-Shasha on post-order labels and leftmost leaves: the banded exact
 * algorithm, or (reference = true) the plain one; for tests. */
size_t lt__ted_arrays(const uint32_t *lab1, const uint32_t *lml1, size_t n1,
                      const uint32_t *lab2, const uint32_t *lml2, size_t n2,
                      bool reference);
/* For tests: number of subtrees and data-flow edges. */
size_t lt__tree_subtrees(const struct lt__tree *tr);
size_t lt__tree_dfg_edges(const struct lt__tree *tr);

/* Normalised data-flow edges: names renamed var_0, var_1, ... by first
 * appearance, parents before the variable. */
struct lt__dfg_edge {
    uint32_t var;
    uint32_t rel; /* 0 comesFrom, 1 computedFrom */
    uint32_t npar;
    uint32_t *par;
};

struct lt__dfg {
    struct lt__dfg_edge *e;
    size_t n;
    uint32_t *pool;
};

/* Builds the reference implementation's data flow of a flattened tree
 * (dfg.c); d interns the token texts. */
void lt__dfg_build(struct lt__dfg *out, const struct lt__flat *f,
                   enum lt_sim_lang lang, struct lt__dict *d);
void lt__dfg_free(struct lt__dfg *g);

#endif
